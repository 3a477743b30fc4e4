import fontData from '../data/font-cairo.json' with { type: 'json' }
import roadData from '../data/roads.json' with { type: 'json' }
import { type Street, streetEnds } from '../data/streets.ts'
import { type Derived, type World, worldFor } from '../data/world.ts'
import { createLabelFont, type LabelFont } from '../render/font.ts'
import { type MapLabel, mapLabels, type PlacedLabel, placeLabels } from './labels.ts'
import { mercatorX, mercatorY } from './projection.ts'
import type { Road, RoadClass, RoadKind } from './roads.ts'

/** A generated street with its axis in Web Mercator units. */
export interface MapStreet {
  street: Street
  /** `[x0, y0, x1, y1]`, Mercator units. */
  axis: [number, number, number, number]
  /** The main avenue of its town (drawn wider). */
  main: boolean
}

/** Everything the maps of one data seed draw, built once and shared by its tiles and static maps. */
export interface MapWorld {
  readonly font: LabelFont
  readonly roads: readonly Road[]
  readonly streets: readonly MapStreet[]
  /** The labels placed at a zoom (computed once per zoom). */
  labelsAt(zoom: number): readonly PlacedLabel[]
}

// Seed-independent parts: geography and the typeface, built on first use (immutable).
let shared:
  | {
      font: LabelFont
      roads: Road[]
      labels: MapLabel[]
      placed: Map<number, readonly PlacedLabel[]>
    }
  | undefined
function sharedParts() {
  if (!shared) {
    const bytes = fromBase64(fontData.ttf)
    shared = {
      font: createLabelFont(bytes.buffer),
      roads: sharedRoads() as Road[],
      labels: mapLabels(),
      placed: new Map(),
    }
  }
  return shared
}

/** The roads between towns, computed at build time (`scripts/build-roads.ts`, checked by a test). */
export function roadsOf(data: ReadonlyArray<RoadRecord>): Road[] {
  return data.map((road) => ({
    ...road,
    kind: road.kind as RoadClass,
    road: road.road as RoadKind,
    points: Float64Array.from(road.points),
    box: road.box as [number, number, number, number],
  }))
}

/** A road as src/data/roads.json stores it. */
interface RoadRecord {
  kind: string
  road: string
  ref: string
  name: string
  ar: string
  mountain: boolean
  points: number[]
  box: number[]
}

let roads: Road[] | undefined
/** The roads between towns the map draws and routing follows (one list, made on first use). */
export function sharedRoads(): readonly Road[] {
  roads ??= roadsOf(roadData.roads)
  return roads
}

/** Base64 to bytes: natively where the platform has it (Chromium 140+, ~20 ms saved), else by hand. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64
  if (native) return native(text)
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** The map's part of a world: its streets as the map draws them, and the shared geography. */
const MAP: Derived<MapWorld> = { name: 'map', make: buildMapWorld }

/**
 * The map world of a data seed: its streets are the ones the geocoding endpoints answer (the
 * same world's), so a street that forward geocoding places somewhere is drawn there.
 * @example mapWorldFor('tmaps').labelsAt(8).length
 */
export function mapWorldFor(seed: string | number): MapWorld {
  return worldFor(seed).derived(MAP)
}

function buildMapWorld(data: World): MapWorld {
  const { font, roads, labels, placed } = sharedParts()
  // Streets show from zoom 13: the first tiles (a country view) do not wait for the gazetteer and faker.
  let streets: MapStreet[] | undefined
  const streetsOf = () =>
    data.streets.map((street, i, all) => {
      const [a, b] = streetEnds(street)
      const main = i === 0 || all[i - 1]!.locality.id !== street.locality.id
      return {
        street,
        main,
        axis: [mercatorX(a.lng), mercatorY(a.lat), mercatorX(b.lng), mercatorY(b.lat)] as [
          number,
          number,
          number,
          number,
        ],
      }
    })
  return {
    font,
    roads,
    get streets() {
      streets ??= streetsOf()
      return streets
    },
    labelsAt(zoom) {
      let list = placed.get(zoom)
      if (!list) {
        list = placeLabels(labels, zoom, font)
        placed.set(zoom, list)
      }
      return list
    },
  }
}
