import fontData from '../data/font-cairo.json' with { type: 'json' }
import widthData from '../data/label-widths.json' with { type: 'json' }
import { type Road, sharedRoads } from '../data/roads.ts'
import type { Street } from '../data/streets.ts'
import { type Derived, type World, worldFor } from '../data/world.ts'
import { createLabelFont, type LabelFont } from '../rasterizer/font.ts'
import { type MapLabel, mapLabels, type PlacedLabel, placeLabels } from './labels.ts'
import { mercatorX, mercatorY } from './projection.ts'

/** A street with its course in Web Mercator units. */
export interface MapStreet {
  street: Street
  /** Its course, `[x, y, ...]` in Mercator units. */
  points: Float64Array
  /** `[minX, minY, maxX, maxY]`, Mercator units. */
  box: [number, number, number, number]
  /** The box's corners again, `[minX, minY, maxX, maxY]` (what readers of the former straight axis read). */
  axis: [number, number, number, number]
  /** A main avenue (drawn wider). */
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

/** Base64 to bytes: natively where the platform has it (Chromium 140+; faster), else by hand. */
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
    data.streets.map((street): MapStreet => {
      const points = new Float64Array(street.points.length)
      const box: [number, number, number, number] = [1, 1, 0, 0]
      // Pairs below `length`: `?? 0` is never taken.
      for (let i = 0; i < points.length; i += 2) {
        const x = mercatorX(street.points[i + 1] ?? 0)
        const y = mercatorY(street.points[i] ?? 0)
        points[i] = x
        points[i + 1] = y
        box[0] = Math.min(box[0], x)
        box[1] = Math.min(box[1], y)
        box[2] = Math.max(box[2], x)
        box[3] = Math.max(box[3], y)
      }
      return { street, points, box, axis: box, main: street.main }
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
        list = placeLabels(labels, zoom, font, widthData.widths)
        placed.set(zoom, list)
      }
      return list
    },
  }
}
