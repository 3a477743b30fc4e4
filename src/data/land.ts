import { decodeDeltas } from './geo.ts'
import land from './land.json' with { type: 'json' }

/** A layer of `src/data/land.json` as rings of `[lng, lat, lng, lat, ...]` degrees. */
interface LandRings {
  /**
   * Tunisia's land, lakes and lagoons as holes (OpenStreetMap-derived; the sea coast, Ichkeul and the
   * Mellègue reservoir GSHHG's).
   */
  land: Float64Array[]
  /** Water the source lacks (Lake Tunis south), drawn over the land. */
  water: Float64Array[]
  /** Salt flats (chotts, sebkhas), drawn over the land in their own colour. */
  salt: Float64Array[]
  /**
   * Salt flats known only by their centre and area (Sebkha Séjoumi, Chott el Gharsa: ellipses, no
   * outline on this project's machines): `salt` to the mask (no street or place there), not drawn.
   */
  saltStandIns: Float64Array[]
  /** Land over the water (causeways), drawn last. */
  causeways: Float64Array[]
}

const decode = (encoded: number[]) => decodeDeltas(encoded, land.scale)

let rings: LandRings | undefined
/**
 * Tunisia's land, water and salt flats (built by `npm run build:data` from OpenStreetMap-derived
 * data, © OpenStreetMap contributors, ODbL, and GSHHG's coast and lakes, LGPL-3.0-or-later): what
 * the map draws and `onLand` answers from.
 */
export function landRings(): LandRings {
  rings ??= {
    land: land.land.flatMap((polygon) => polygon.map(decode)),
    water: land.water.map(decode),
    salt: land.salt.map(decode),
    saltStandIns: land.saltStandIns.map(decode),
    causeways: land.causeways.map(decode),
  }
  return rings
}

/** Edges bucketed by bands of latitude, for a point-in-polygon test that reads a few dozen edges. */
interface EdgeIndex {
  minLat: number
  band: number
  bands: Float64Array[]
}
const BAND = 0.02

function indexOf(list: readonly Float64Array[]): EdgeIndex {
  let [minLat, maxLat] = [90, -90]
  for (const ring of list)
    for (let i = 1; i < ring.length; i += 2) {
      minLat = Math.min(minLat, ring[i]!)
      maxLat = Math.max(maxLat, ring[i]!)
    }
  const count = Math.max(1, Math.ceil((maxLat - minLat) / BAND) + 1)
  const buckets: number[][] = Array.from({ length: count }, () => [])
  for (const ring of list) {
    const n = ring.length
    for (let i = 0; i < n; i += 2) {
      const j = (i + 2) % n
      const [x0, y0, x1, y1] = [ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!]
      if (y0 === y1) continue
      const from = Math.floor((Math.min(y0, y1) - minLat) / BAND)
      const to = Math.floor((Math.max(y0, y1) - minLat) / BAND)
      for (let b = from; b <= to; b++) buckets[b]!.push(x0, y0, x1, y1)
    }
  }
  return { minLat, band: BAND, bands: buckets.map((b) => Float64Array.from(b)) }
}

/** Whether a point is inside the rings of an index (even-odd: holes count). */
function inside(index: EdgeIndex, lat: number, lng: number): boolean {
  const edges = index.bands[Math.floor((lat - index.minLat) / index.band)]
  if (!edges) return false
  let odd = false
  for (let i = 0; i < edges.length; i += 4) {
    const [x0, y0, x1, y1] = [edges[i]!, edges[i + 1]!, edges[i + 2]!, edges[i + 3]!]
    if (y0 > lat !== y1 > lat && lng < ((x1 - x0) * (lat - y0)) / (y1 - y0) + x0) odd = !odd
  }
  return odd
}

let indexes: { land: EdgeIndex; water: EdgeIndex; salt: EdgeIndex; causeways: EdgeIndex } | undefined

/**
 * Whether a point stands on Tunisia's land as the map draws it: inside the land, not in a lake,
 * a lagoon or on a salt flat. One mask for the tiles, the generated streets and places, and the
 * geocoder, so a place never stands in the water the map shows.
 * @example onLand(36.8, 10.18) // true (Tunis); onLand(36.82, 10.25) // false (Lake Tunis)
 */
export function onLand(lat: number, lng: number): boolean {
  return surfaceAt(lat, lng) === 'land'
}

/**
 * What the map draws at a point of Tunisia: `land`, a `salt` flat, or `water` (the sea, a lake, a
 * lagoon; also anything outside Tunisia, which the mask does not hold). A salt flat known only by
 * its centre and area (`saltStandIns`) is `salt` here, and the map draws land there with its name.
 * @example surfaceAt(33.75, 8.4) // 'salt' (Chott el Djerid)
 */
export function surfaceAt(lat: number, lng: number): 'land' | 'salt' | 'water' {
  const { causeways, land, water, salt } = landIndexes()
  if (inside(causeways, lat, lng)) return 'land'
  if (!inside(land, lat, lng) || inside(water, lat, lng)) return 'water'
  return inside(salt, lat, lng) ? 'salt' : 'land'
}

let saltBoxes: Float64Array[] | undefined
/**
 * Whether a box (degrees) meets a salt flat's bounding box: when not, no point of it is `salt`
 * (a test of a line's samples can stop there).
 * @example saltMayMeet(36.79, 10.1, 36.81, 10.2) // false (Tunis)
 */
export function saltMayMeet(south: number, west: number, north: number, east: number): boolean {
  const { salt, saltStandIns } = landRings()
  saltBoxes ??= [...salt, ...saltStandIns].map((ring) => {
    const box = Float64Array.of(180, 90, -180, -90)
    for (let i = 0; i < ring.length; i += 2) {
      box[0] = Math.min(box[0]!, ring[i]!)
      box[1] = Math.min(box[1]!, ring[i + 1]!)
      box[2] = Math.max(box[2]!, ring[i]!)
      box[3] = Math.max(box[3]!, ring[i + 1]!)
    }
    return box
  })
  return saltBoxes.some((b) => west <= b[2]! && east >= b[0]! && south <= b[3]! && north >= b[1]!)
}

/**
 * Whether a point stands on a causeway (the land the mask lays over the water: Tunis - La
 * Goulette, El Kantara): its road and railway run there, no town's streets or places.
 * @example onCauseway(36.807, 10.242) // true (the La Goulette causeway)
 */
export function onCauseway(lat: number, lng: number): boolean {
  return inside(landIndexes().causeways, lat, lng)
}

function landIndexes() {
  if (!indexes) {
    const r = landRings()
    indexes = {
      land: indexOf(r.land),
      water: indexOf(r.water),
      salt: indexOf([...r.salt, ...r.saltStandIns]),
      causeways: indexOf(r.causeways),
    }
  }
  return indexes
}

/**
 * The point of land nearest a point (itself when on land), searched in rings 50 m apart up to
 * `maxKm`; `undefined` if there is none that near.
 * @example nearestLand(36.82, 10.25) // a point on the shore of Lake Tunis
 */
export function nearestLand(lat: number, lng: number, maxKm = 5): { lat: number; lng: number } | undefined {
  if (onLand(lat, lng)) return { lat, lng }
  const cos = Math.cos((lat * Math.PI) / 180)
  for (let km = 0.05; km <= maxKm; km += 0.05) {
    const steps = Math.max(16, Math.round(km * 40))
    for (let i = 0; i < steps; i++) {
      const a = (i / steps) * Math.PI * 2
      const p = { lat: lat + (Math.sin(a) * km) / 111.32, lng: lng + (Math.cos(a) * km) / (111.32 * cos) }
      if (onLand(p.lat, p.lng)) return p
    }
  }
  return undefined
}
