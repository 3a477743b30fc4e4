import { type Locality, POIS } from '../data/gazetteer.ts'
import { GAZETTEER_LANDMARKS } from '../data/gazetteer-landmarks.ts'
import { nearestLand, onLand } from '../data/land.ts'
import { seededRandom } from '../data/seeded.ts'
import { poiTowns, townCentre, townRadius } from '../data/towns.ts'
import { boxOf, mercatorX, mercatorY } from './projection.ts'

/** What a piece of land is used for, as the map colours it. */
export type LandUseKind = 'urban' | 'park' | 'cemetery' | 'square' | 'port' | 'airport'

/** A named place of land use: its name is drawn where `x, y` is (Web Mercator units). */
export interface LandUseName {
  fr: string
  ar: string
  x: number
  y: number
  /** Drawn from this zoom. */
  minZoom: number
}

/** An area of land use in Web Mercator units, with where its position and outline come from. */
export interface LandUse {
  id: string
  kind: LandUseKind
  rings: Float64Array[]
  /** `[minX, minY, maxX, maxY]`. */
  box: [number, number, number, number]
  /** Drawn from this zoom. */
  minZoom: number
  name?: LandUseName
  /** Where the point (and size) was read, and what of the outline is generated. */
  source: string
}

/** A runway between its two thresholds (Web Mercator units), its width in metres and end names. */
export interface Runway {
  airport: string
  points: [number, number, number, number]
  widthM: number
  ends: [string, string]
}

const KM_PER_DEG = 111.32
const mx = (lng: number) => mercatorX(lng)
const my = (lat: number) => mercatorY(lat)

/**
 * A generated outline around a point: `vertices` rays, each `rx` x `ry` km (an ellipse turned by
 * `angle` radians), roughened by up to `jitter` of its length (seeded by `key`), and cut short
 * where the ray first leaves the land (the sea, a lake), so no built-up area stands in the water.
 */
function outline(
  lat: number,
  lng: number,
  rx: number,
  ry: number,
  key: string,
  { vertices = 40, jitter = 0, angle = 0 }: { vertices?: number; jitter?: number; angle?: number } = {},
): Float64Array {
  // A point in the water (a harbour basin, a town's point offshore) grows from the shore nearest it.
  if (!onLand(lat, lng)) ({ lat, lng } = nearestLand(lat, lng, 3) ?? { lat, lng })
  const random = seededRandom(key, 'land-use')
  const cos = Math.cos((lat * Math.PI) / 180)
  const ring = new Float64Array(vertices * 2)
  // Smooth noise: a few random harmonics, so the edge wobbles rather than zigzags.
  const harmonics = [2, 3, 5].map((k) => ({
    k,
    a: random.float(-0.5, 0.5) * jitter,
    p: random.float(0, Math.PI * 2),
  }))
  const step = Math.max(0.05, Math.max(rx, ry) / 32)
  for (let v = 0; v < vertices; v++) {
    const t = (v / vertices) * Math.PI * 2
    const wobble = 1 + harmonics.reduce((sum, h) => sum + h.a * Math.sin(h.k * t + h.p), 0)
    const [ex, ey] = [Math.cos(t) * rx * wobble, Math.sin(t) * ry * wobble]
    const [dx, dy] = [
      ex * Math.cos(angle) - ey * Math.sin(angle),
      ex * Math.sin(angle) + ey * Math.cos(angle),
    ]
    const length = Math.hypot(dx, dy)
    let reach = 0
    for (let d = step; d <= length + 1e-9; d += step) {
      const f = d / length
      if (!onLand(lat + (dy * f) / KM_PER_DEG, lng + (dx * f) / (KM_PER_DEG * cos))) break
      reach = f
    }
    // The last land point of the ray (the shore, within one step).
    ring[v * 2] = mx(lng + (dx * reach) / (KM_PER_DEG * cos))
    ring[v * 2 + 1] = my(lat + (dy * reach) / KM_PER_DEG)
  }
  return ring
}

/** A rectangle of `w` x `h` metres around a point, turned by `angle` radians (east = 0). */
function rectangle(lat: number, lng: number, w: number, h: number, angle = 0): Float64Array {
  const cos = Math.cos((lat * Math.PI) / 180)
  const out = new Float64Array(8)
  const corners = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ]
  corners.forEach(([x, y], i) => {
    const [dx, dy] = [
      x! * Math.cos(angle) - y! * Math.sin(angle),
      x! * Math.sin(angle) + y! * Math.cos(angle),
    ]
    out[i * 2] = mx(lng + dx / 1000 / (KM_PER_DEG * cos))
    out[i * 2 + 1] = my(lat + dy / 1000 / KM_PER_DEG)
  })
  return out
}

/**
 * Parks, cemeteries and squares of Tunis: each at the coordinates of its public page, sized by the
 * area that page gives; the outline itself is generated (an ellipse or a rectangle of that area,
 * cut at the shore), not traced.
 */
// biome-ignore format: a table reads best with one place a line
const PLACES: ReadonlyArray<{ id: string; kind: LandUseKind; fr: string; ar: string; lat: number; lng: number; shape: { rx: number; ry: number } | { w: number; h: number; angle?: number }; minZoom: number; source: string }> = [
  // fr.wikipedia "Parc du Belvédère": 36°49′21″ N, 10°10′24″ E, 110 ha (an ellipse of 1.1 km²).
  { id: 'parc-du-belvedere', kind: 'park', fr: 'Parc du Belvédère', ar: 'منتزه البلفيدير', lat: 36.8225, lng: 10.17333, shape: { rx: 0.55, ry: 0.64 }, minZoom: 12, source: 'http://fr.wikipedia.org/wiki/Parc_du_Belv%C3%A9d%C3%A8re (point, 110 ha); outline generated' },
  // fr.wikipedia "Cimetière du Djellaz": 36°47′10″ N, 10°11′04″ E; 64 ha (Le Temps,
  // turess.com/fr/letemps/48763).
  { id: 'cimetiere-du-djellaz', kind: 'cemetery', fr: 'Cimetière du Djellaz', ar: 'مقبرة الجلاز', lat: 36.78611, lng: 10.18444, shape: { rx: 0.5, ry: 0.41 }, minZoom: 13, source: 'https://franco.wiki/fr/Cimeti%C3%A8re_du_Djellaz.html (point), https://www.turess.com/fr/letemps/48763 (64 ha); outline generated' },
  // fr.wikipedia "Place du 14-Janvier 2011": 36°48′01″ N, 10°11′10″ E, a circular place.
  { id: 'place-du-14-janvier', kind: 'square', fr: 'Place du 14-Janvier 2011', ar: 'ساحة 14 جانفي 2011', lat: 36.80028, lng: 10.18611, shape: { rx: 0.05, ry: 0.05 }, minZoom: 15, source: 'https://fr.m.wikipedia.org/wiki/Place_du_14-Janvier_2011_(Tunis) (point, circular); size approximate' },
  // fr.wikipedia "Place de la Kasbah": 36°47′52″ N, 10°10′03″ E.
  { id: 'place-de-la-kasbah', kind: 'square', fr: 'Place de la Kasbah', ar: 'ساحة القصبة', lat: 36.79778, lng: 10.1675, shape: { w: 150, h: 90 }, minZoom: 15, source: 'https://www.wikizero.net/wiki/fr/Place_de_la_Kasbah_(Tunis) (point); size approximate' },
  // In front of the Gare de Tunis (36°47′42″ N, 10°10′50″ E, fr.wikipedia), which stands on it.
  { id: 'place-barcelone', kind: 'square', fr: 'Place Barcelone', ar: 'ساحة برشلونة', lat: 36.7958, lng: 10.1812, shape: { w: 180, h: 70, angle: 0.35 }, minZoom: 15, source: 'https://www.wikizero.com/fr/Gare_de_Tunis (the station on the place); the place is put just north-east of it, size approximate' },
]

/**
 * Les Berges du Lac: 36°50′06″ N, 10°14′20″ E (fr.wikipedia via franco.wiki), ~1,300 ha on the lake's north
 * shore.
 */
const BERGES_DU_LAC = {
  fr: 'Les Berges du Lac',
  ar: 'ضفاف البحيرة',
  lat: 36.835,
  lng: 10.23889,
  source: 'https://franco.wiki/fr/Berges_du_Lac.html (point, 1,300 ha); outline generated',
}

/**
 * The runways of the gazetteer's airports, threshold to threshold, from OurAirports' runways.csv
 * (public domain; github.com/davidmegginson/ourairports-data at 1fb3eea, August 2026): ident,
 * width in feet, and the two thresholds' latitude and longitude.
 */
// biome-ignore format: a table reads best with one runway a line
const RUNWAYS: ReadonlyArray<[icao: string, iata: string, ends: [string, string], widthFt: number, lat0: number, lng0: number, lat1: number, lng1: number]> = [
  ['DTTA', 'TUN', ['01', '19'], 148, 36.8390998840332, 10.223799705505371, 36.8671989440918, 10.231399536132812],
  ['DTTA', 'TUN', ['11', '29'], 148, 36.85430145263672, 10.217700004577637, 36.844398498535156, 10.247200012207031],
  ['DTNH', 'NBE', ['09', '27'], 197, 36.075801849365234, 10.420299530029297, 36.075599670410156, 10.456899642944336],
  ['DTMB', 'MIR', ['07', '25'], 148, 35.75410079956055, 10.73840045928955, 35.761600494384766, 10.769599914550781],
  ['DTTX', 'SFA', ['15', '33'], 148, 34.72949981689453, 10.682299613952637, 34.70640182495117, 10.699700355529785],
  ['DTTJ', 'DJE', ['09', '27'], 148, 33.875, 10.76039981842041, 33.87590026855469, 10.793899536132812],
  ['DTKA', 'TBJ', ['09', '27'], 148, 36.981201171875, 8.859189987182617, 36.979801177978516, 8.891420364379883],
  ['DTTZ', 'TOE', ['09', '27'], 148, 33.93960189819336, 8.083680152893066, 33.93960189819336, 8.118439674377441],
  ['DTTF', 'GAF', ['05', '23'], 148, 34.41350173950195, 8.810759544372559, 34.43069839477539, 8.834269523620605],
  ['DTTG', 'GAE', ['06', '24'], 82, 33.727619, 9.904712, 33.739742, 9.933769],
  ['DTTR', 'EBM', ['11', '29'], 148, 31.708900451660156, 9.241450309753418, 31.69860076904297, 9.2672700881958],
]
export const RUNWAY_SOURCE =
  'OurAirports runways.csv (public domain), github.com/davidmegginson/ourairports-data 1fb3eea'

/**
 * Towns with a built-up area: those with a population in the gazetteer or a governorate's seat,
 * and (1 km each) the quarters and suburbs of the big cities: the gazetteer's places with no
 * population within 12 km of a city of 100,000, so a conurbation reads as one. Made on first use
 * (a country view never needs them).
 */
let towns: { all: readonly Locality[]; urban: ReadonlySet<string> } | undefined
function urbanTowns() {
  if (!towns) {
    const urban = poiTowns().filter((l) => (l.pop ?? 0) >= 2000 || l.fc === 'PPLA' || l.fc === 'PPLC')
    const ids = new Set(urban.map((l) => l.id))
    const cities = urban.filter((l) => (l.pop ?? 0) >= 100_000)
    const suburbs = poiTowns().filter(
      (l) =>
        !ids.has(l.id) &&
        cities.some(
          (c) =>
            Math.hypot(c.lat - l.lat, (c.lng - l.lng) * Math.cos((c.lat * Math.PI) / 180)) < 12 / KM_PER_DEG,
        ),
    )
    towns = { all: [...urban, ...suburbs], urban: ids }
  }
  return towns
}

/** Built-up area for a town: its radius (km) from its population, as its places spread (`townRadius`). */
function urbanRadiusKm(l: Locality): number {
  return l.pop ? townRadius(l) * KM_PER_DEG * 0.9 : urbanTowns().urban.has(l.id) ? 0.6 : 1.1
}

let fixed: { areas: LandUse[]; runways: Runway[] } | undefined
/** The real places (parks, squares, ports, airports): a few dozen, made on first use. */
function fixedAreas() {
  if (fixed) return fixed
  const areas: LandUse[] = []
  for (const p of PLACES) {
    const ring =
      'rx' in p.shape
        ? outline(p.lat, p.lng, p.shape.rx, p.shape.ry, p.id, { vertices: p.kind === 'square' ? 20 : 40 })
        : rectangle(p.lat, p.lng, p.shape.w, p.shape.h, p.shape.angle)
    areas.push({
      id: p.id,
      kind: p.kind,
      rings: [ring],
      box: boxOf([ring]),
      minZoom: p.kind === 'square' ? 14 : 11,
      name: { fr: p.fr, ar: p.ar, x: mx(p.lng), y: my(p.lat), minZoom: p.minZoom },
      source: p.source,
    })
  }
  // Ports: the gazetteer's UN/LOCODE point is the town's; the quays are put on the shore nearest
  // it (generated: a small area cut at the water), the name beside them.
  for (const poi of POIS) {
    if (poi.cat !== 'port') continue
    const names = GAZETTEER_LANDMARKS[poi.id]?.name
    const quay = shoreNear(poi.lat, poi.lng)
    const big = poi.id === 'port:TNRDS' || poi.id === 'port:TNSFA'
    const ring = outline(quay.lat, quay.lng, big ? 0.5 : 0.3, big ? 0.4 : 0.25, poi.id, { jitter: 0.15 })
    areas.push({
      id: poi.id,
      kind: 'port',
      rings: [ring],
      box: boxOf([ring]),
      minZoom: 11,
      ...(names && { name: { fr: names[0], ar: names[2], x: mx(quay.lng), y: my(quay.lat), minZoom: 13 } }),
      source: 'gazetteer (UN/LOCODE point, the town); quays generated on the shore nearest it',
    })
  }
  // Airports: the aerodrome is the runways' rectangles widened by 300 m (generated); the runways
  // and the name at the gazetteer's OurAirports point are real.
  const runways: Runway[] = []
  for (const poi of POIS) {
    if (poi.cat !== 'airport' || !poi.iata) continue
    const own = RUNWAYS.filter((r) => r.includes(poi.iata!))
    if (own.length === 0) continue
    const rings: Float64Array[] = []
    for (const [icao, , ends, widthFt, lat0, lng0, lat1, lng1] of own) {
      const cos = Math.cos((lat0 * Math.PI) / 180)
      const [dx, dy] = [(lng1 - lng0) * KM_PER_DEG * cos * 1000, (lat1 - lat0) * KM_PER_DEG * 1000]
      rings.push(
        rectangle((lat0 + lat1) / 2, (lng0 + lng1) / 2, Math.hypot(dx, dy) + 300, 600, Math.atan2(dy, dx)),
      )
      runways.push({
        airport: icao,
        points: [mx(lng0), my(lat0), mx(lng1), my(lat1)],
        widthM: widthFt * 0.3048,
        ends,
      })
    }
    // The apron and terminal side: a block at the airport's reference point.
    rings.push(rectangle(poi.lat, poi.lng, 700, 500))
    const names = GAZETTEER_LANDMARKS[poi.id]?.name
    areas.push({
      id: poi.id,
      kind: 'airport',
      rings,
      box: boxOf(rings),
      minZoom: 10,
      ...(names && { name: { fr: names[0], ar: names[2], x: mx(poi.lng), y: my(poi.lat), minZoom: 11 } }),
      source: `gazetteer (OurAirports point), runways: ${RUNWAY_SOURCE}; aerodrome outline generated`,
    })
  }
  fixed = { areas, runways }
  return fixed
}

/** The land at the water's edge nearest a point (searched in rings 50 m apart up to 3 km). */
function shoreNear(lat: number, lng: number): { lat: number; lng: number } {
  const start = onLand(lat, lng) ? { lat, lng } : (nearestLand(lat, lng, 3) ?? { lat, lng })
  const cos = Math.cos((lat * Math.PI) / 180)
  for (let km = 0.05; km <= 3; km += 0.05) {
    const steps = Math.max(16, Math.round(km * 40))
    for (let i = 0; i < steps; i++) {
      const a = (i / steps) * Math.PI * 2
      const [dy, dx] = [Math.sin(a) / KM_PER_DEG, Math.cos(a) / (KM_PER_DEG * cos)]
      if (onLand(start.lat + dy * km, start.lng + dx * km)) continue
      // Water this way: step back to the last land, 100 m inland.
      const back = Math.max(0, km - 0.1)
      return { lat: start.lat + dy * back, lng: start.lng + dx * back }
    }
  }
  return start
}

const urban = new Map<string, LandUse>()
/** A town's built-up area (made the first time a view meets it). */
function urbanArea(l: Locality): LandUse {
  let area = urban.get(l.id)
  if (!area) {
    const r = urbanRadiusKm(l)
    const c = townCentre(l)
    const rings = [outline(c.lat, c.lng, r, r * 0.85, l.id, { vertices: 48, jitter: 0.3, angle: 0.6 })]
    // A big town also grows from six points around its centre (on land), so a harbour or a
    // lagoon that cuts the rays from the centre does not cut off the quarters beyond it.
    if (r >= 2) {
      const cos = Math.cos((c.lat * Math.PI) / 180)
      for (let k = 0; k < 6; k++) {
        const a = (k * Math.PI) / 3 + 0.3
        const [lat, lng] = [
          c.lat + (Math.sin(a) * r * 0.6) / KM_PER_DEG,
          c.lng + (Math.cos(a) * r * 0.6) / (KM_PER_DEG * cos),
        ]
        if (onLand(lat, lng))
          rings.push(
            outline(lat, lng, r * 0.5, r * 0.45, `${l.id}:${k}`, { vertices: 32, jitter: 0.25, angle: a }),
          )
      }
    }
    area = {
      id: `urban:${l.id}`,
      kind: 'urban',
      rings,
      box: boxOf(rings),
      minZoom: 10,
      source: 'generated: a disc sized by the gazetteer population, roughened, cut at the shore',
    }
    urban.set(l.id, area)
  }
  return area
}

let berges: LandUse | undefined
function bergesDuLac(): LandUse {
  if (!berges) {
    const b = BERGES_DU_LAC
    const ring = outline(b.lat, b.lng, 1.6, 0.9, 'berges-du-lac', { vertices: 40, jitter: 0.15, angle: 0.25 })
    berges = {
      id: 'berges-du-lac',
      kind: 'urban',
      rings: [ring],
      box: boxOf([ring]),
      minZoom: 10,
      name: { fr: b.fr, ar: b.ar, x: mx(b.lng), y: my(b.lat), minZoom: 13 },
      source: b.source,
    }
  }
  return berges
}

const overlaps = (a: readonly number[], b: readonly number[]) =>
  a[0]! <= b[2]! && a[2]! >= b[0]! && a[1]! <= b[3]! && a[3]! >= b[1]!

/**
 * The land use a view at `zoom` meets (`box` in Web Mercator units), built-up areas first (drawn
 * under the rest), and the runways there.
 * @example landUseIn(12, [0.528, 0.398, 0.529, 0.399]).areas.some((a) => a.kind === 'urban')
 */
export function landUseIn(
  zoom: number,
  box: readonly [number, number, number, number],
): { areas: LandUse[]; runways: Runway[] } {
  if (zoom < 10) return { areas: [], runways: [] }
  const areas: LandUse[] = []
  for (const l of urbanTowns().all) {
    const c = townCentre(l)
    const r = urbanRadiusKm(l) * 1.4
    const [x, y] = [mx(c.lng), my(c.lat)]
    const d = r / (KM_PER_DEG * 360) / Math.cos((c.lat * Math.PI) / 180)
    if (!overlaps([x - d, y - d, x + d, y + d], box)) continue
    areas.push(urbanArea(l))
  }
  const b = bergesDuLac()
  if (overlaps(b.box, box)) areas.push(b)
  const { areas: real, runways } = fixedAreas()
  for (const a of real) if (zoom >= a.minZoom && overlaps(a.box, box)) areas.push(a)
  return {
    areas,
    runways: runways.filter((r) => {
      const [x0, y0, x1, y1] = r.points
      return overlaps([Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)], box)
    }),
  }
}

/** Every named area (parks, squares, ports, airports, Les Berges du Lac): a few dozen. */
export function namedLandUse(): readonly LandUse[] {
  return [bergesDuLac(), ...fixedAreas().areas]
}

/** Every runway of the map (eleven): their end numbers are labels. */
export function allRunways(): readonly Runway[] {
  return fixedAreas().runways
}
