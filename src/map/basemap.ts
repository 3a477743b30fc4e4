import basemap from '../data/basemap.json' with { type: 'json' }
import { decodeDeltas } from '../data/geo.ts'
import { must } from '../validate/must.ts'
import { boxOf, mercatorX, mercatorY } from './projection.ts'
import { loadStreetLayers, STREET_LAYERS_ZOOM } from './street-layers.ts'

/** A shape in Web Mercator units (0..1 both ways), flat `[x, y, ...]`, with its bounding box. */
export interface MercatorShape {
  rings: Float64Array[]
  /** `[minX, minY, maxX, maxY]` in Mercator units. */
  box: [number, number, number, number]
  /** Each ring's own box, when a shape has many rings (a view draws only the rings it meets). */
  ringBoxes?: Array<[number, number, number, number]>
}

/** One detail level of the base map: land polygons, international borders, water and salt flats. */
interface BaseLevel {
  minZoom: number
  land: MercatorShape[]
  borders: MercatorShape[]
  /** Lakes and lagoons drawn over the land (most are holes of the land already). */
  water: MercatorShape[]
  /** Salt flats (chotts, sebkhas), drawn over the land in their own colour. */
  salt: MercatorShape[]
  /** Land over the water (causeways), drawn after the water. */
  causeways: MercatorShape[]
}

const decode = (encoded: number[], scale: number) => decodeDeltas(encoded, scale, mercatorX, mercatorY)

function shape(rings: Float64Array[]): MercatorShape {
  // Tunisia's land has 200 lakes as holes: a tile skips those it does not meet (a ring whose box
  // misses the view cannot cover any of it).
  return rings.length > 8
    ? { rings, box: boxOf(rings), ringBoxes: rings.map((r) => boxOf([r])) }
    : { rings, box: boxOf(rings) }
}

interface EncodedLevel {
  minZoom: number
  scale: number
  land: number[][][]
  borders: number[][]
  /** Zoom 5-7: Tunisia's lakes and salt flats (the land there is Natural Earth's, without them). */
  water?: number[][]
  salt?: number[][]
}

interface EncodedLand {
  scale: number
  land: number[][][]
  water: number[][]
  salt: number[][]
  causeways: number[][]
}

function decodeLevel(level: EncodedLevel, tunisia?: EncodedLand): BaseLevel {
  const polygons = (list: number[][][], scale: number) =>
    list.map((polygon) => shape(polygon.map((r) => decode(r, scale))))
  return {
    minZoom: level.minZoom,
    land: [...polygons(level.land, level.scale), ...(tunisia ? polygons(tunisia.land, tunisia.scale) : [])],
    borders: level.borders.map((line) => shape([decode(line, level.scale)])),
    water: tunisia
      ? tunisia.water.map((r) => shape([decode(r, tunisia.scale)]))
      : (level.water ?? []).map((r) => shape([decode(r, level.scale)])),
    salt: tunisia
      ? tunisia.salt.map((r) => shape([decode(r, tunisia.scale)]))
      : (level.salt ?? []).map((r) => shape([decode(r, level.scale)])),
    causeways: tunisia ? tunisia.causeways.map((r) => shape([decode(r, tunisia.scale)])) : [],
  }
}

/**
 * Natural Earth land and borders at three levels of detail (built by `npm run build:data`): the
 * two coarse ones here, the finest (zoom 8+: OpenStreetMap-derived land, lakes and salt flats
 * around Tunisia, Natural Earth beyond) in its own files, loaded by `loadBaseLevel`.
 */
const COARSE_LEVELS: readonly BaseLevel[] = basemap.levels.map((l) => decodeLevel(l))
const COARSEST = must(COARSE_LEVELS[0], 'the base map has no level')
/** The zoom from which the finest level is drawn. */
const DETAIL_ZOOM = 8
let detail: Promise<BaseLevel> | undefined
let detailLevel: BaseLevel | undefined

/** Loads the level a map at `zoom` needs (once); call before `baseLevel(zoom)`. */
export function loadBaseLevel(zoom: number): Promise<unknown> | undefined {
  // From zoom 10 the street-zoom layers too (land use, labels and icons: src/map/street-layers.ts).
  const layers = zoom >= STREET_LAYERS_ZOOM ? loadStreetLayers() : undefined
  if (zoom < DETAIL_ZOOM || detailLevel) return layers
  detail ??= import('./basemap-detail.ts').then(({ DETAIL_LEVEL, TUNISIA_LAND }) => {
    detailLevel = decodeLevel(DETAIL_LEVEL, TUNISIA_LAND)
    return detailLevel
  })
  return layers ? Promise.all([detail, layers]) : detail
}

/** The level to draw at a zoom; at zoom 8 and more, once `loadBaseLevel` has loaded it. */
export function baseLevel(zoom: number): BaseLevel {
  if (zoom >= DETAIL_ZOOM) {
    if (!detailLevel)
      throw new Error(`The base map of zoom ${zoom} is not loaded: await loadBaseLevel(zoom) first.`)
    return detailLevel
  }
  let chosen = COARSEST
  for (const level of COARSE_LEVELS) if (zoom >= level.minZoom) chosen = level
  return chosen
}

/** The borders between Tunisia's 24 governorates. */
export const GOVERNORATE_BORDERS: readonly MercatorShape[] = basemap.governorateBorders.map((l) =>
  shape([decode(l, 10000)]),
)
