import { encode } from '@placemarkio/polyline'
import { distanceKm, KM_PER_DEGREE, M_PER_DEGREE_LAT, radians, round6 } from '../../data/geo.ts'
import { saltMayMeet, surfaceAt } from '../../data/land.ts'
import type { Road } from '../../data/roads.ts'
import { hashSeed } from '../../data/seeded.ts'
import { STREET_NAMESAKES } from '../../data/street-names.ts'
import { nearestTown, poiTowns, townCentre, townName, townRadius } from '../../data/towns.ts'
import { worldFor } from '../../data/world.ts'
import { type Geocoder, geocoderFor } from '../geocoding/geocoder.ts'
import type { Lang, Place } from '../geocoding/places.ts'
import {
  CONNECTOR_KMH,
  edgeSeconds,
  type Path,
  pathTo,
  type RoadGraph,
  reach,
  roadGraph,
  type Snap,
  search,
  snap,
  type Tree,
  waterKm,
} from './road-graph.ts'
import type { Avoid, Point, Profile } from './road-model.ts'

export const GEOMETRIES = ['polyline', 'geojson'] as const
type GeometryFormat = (typeof GEOMETRIES)[number]
export const AVOIDABLE = ['tolls', 'highways', 'ferries'] as const

export interface RouteOptions {
  profile: Profile
  avoid: Avoid
  geometry: GeometryFormat
  steps: boolean
  language: Lang
  seed: string | number
  /** What each leg minimizes: `duration` (the fastest way, default) or `distance` (the shortest). */
  metric?: 'duration' | 'distance'
}

interface Step {
  distance: number
  duration: number
  instruction: string
  /** The street or road the step follows; empty when it has no name. */
  name: string
  maneuver: {
    type: 'depart' | 'turn' | 'continue' | 'arrive'
    modifier?: Modifier
    location: Point
  }
}

interface Leg {
  from: Point
  to: Point
  distance: number
  duration: number
  steps?: Step[]
}

export interface Route {
  distance: number
  duration: number
  geometry: string | { type: 'LineString'; coordinates: [number, number][] }
  legs: Leg[]
}

type Modifier = 'straight' | 'slight left' | 'slight right' | 'left' | 'right' | 'sharp left' | 'sharp right'

/** No road joins waypoint `index` to the one before (at sea, abroad, an island without a crossing). */
export class Unreachable extends Error {
  readonly index: number
  constructor(index: number) {
    super(`no road reaches waypoint ${index}: at sea, abroad or on an island without a crossing`)
    this.index = index
  }
}

/**
 * The route through `points` in order, on the road graph the map draws (src/endpoints/routing/
 * road-graph.ts): one leg a pair, from each point straight to its nearest road (or straight to the
 * next point when that is shorter, as a town's streets), then along the roads, so the geometry is
 * the drawn roads' and its length the route's distance. Steps are the manoeuvres where the route
 * changes road, named by the road's number or name. `variant` 1 and 2 are the alternatives: the
 * same stops, avoiding the roads of the routes before. Throws `Unreachable` when no road joins
 * two points.
 * @example
 * route([tunis, carthage], {
 *   profile: 'driving',
 *   avoid: {},
 *   geometry: 'polyline',
 *   steps: true,
 *   language: 'fr',
 *   seed: 'demo',
 * })
 */
export function route(points: readonly Point[], options: RouteOptions, variant = 0): Route {
  const g = roadGraph()
  const snaps = points.map((p, i) => {
    const s = snap(g, p, options.profile, options.avoid)
    if (!s) throw new Unreachable(i)
    return s
  })
  const legs: Leg[] = []
  const path: Point[] = [points[0]!]
  /** Where each leg ends in `path`: kept whatever the line does there. */
  const legEnds = new Set<number>([0])
  const scratch: { tree?: Tree } = {}
  for (let i = 1; i < points.length; i++) {
    const parts = legParts(g, snaps[i - 1]!, snaps[i]!, options, variant, i, scratch)
    // Never shorter than the great circle (the snaps' flat approximations can shave a metre).
    const distance = metres(
      Math.max(
        parts.reduce((sum, p) => sum + p.km, 0),
        distanceKm(points[i - 1]!, points[i]!),
      ),
    )
    const duration =
      distance === 0 ? 0 : Math.max(1, Math.round(parts.reduce((sum, p) => sum + p.seconds, 0)))
    for (const part of parts) path.push(...part.points.slice(1))
    legEnds.add(path.length - 1)
    legs.push({
      from: points[i - 1]!,
      to: points[i]!,
      distance,
      duration,
      ...(options.steps && {
        steps: steps(g, parts, distance, duration, options, i === points.length - 1 ? 0 : i),
      }),
    })
  }
  const rounded = withoutStraightVertices(path, legEnds).map((p): [number, number] => [
    round6(p.lng),
    round6(p.lat),
  ])
  return {
    distance: legs.reduce((sum, l) => sum + l.distance, 0),
    duration: legs.reduce((sum, l) => sum + l.duration, 0),
    geometry:
      options.geometry === 'geojson' ? { type: 'LineString', coordinates: rounded } : encode(rounded, 5),
    legs,
  }
}

/** How far (m) off the line through its neighbours a vertex may stand and still be left out. */
const STRAIGHT_M = 0.5

/**
 * The line without the vertices that lie on the straight line between their neighbours (a real
 * avenue's course is drawn with a vertex every 40 m): a vertex of the geometry is a bend, a
 * junction where the way turns, or a leg's end (`keep`).
 */
function withoutStraightVertices(line: readonly Point[], keep: ReadonlySet<number>): Point[] {
  if (line.length < 3) return [...line]
  const out: Point[] = [line[0]!]
  for (let i = 1; i < line.length - 1; i++) {
    const [a, b, c] = [out[out.length - 1]!, line[i]!, line[i + 1]!]
    if (keep.has(i) || offLineM(a, b, c) > STRAIGHT_M) out.push(b)
  }
  out.push(line[line.length - 1]!)
  return out
}

/** Metres from `b` to the segment from `a` to `c` (flat, local: a few kilometres at most apart). */
function offLineM(a: Point, b: Point, c: Point): number {
  const kx = KM_PER_DEGREE * 1000 * Math.cos(radians(b.lat))
  const ky = M_PER_DEGREE_LAT
  const [cx, cy] = [(c.lng - a.lng) * kx, (c.lat - a.lat) * ky]
  const [bx, by] = [(b.lng - a.lng) * kx, (b.lat - a.lat) * ky]
  const len2 = cx * cx + cy * cy
  if (len2 === 0) return Math.hypot(bx, by)
  const t = Math.max(0, Math.min(1, (bx * cx + by * cy) / len2))
  return Math.hypot(bx - cx * t, by - cy * t)
}

/**
 * Distance (m) and duration (s) of the best leg from `a` to `b` (as `route` makes it), given the
 * search from `a`; `undefined` when no road joins them. Used by the matrix and the tours, so their
 * figures are the routes'.
 */
export function legTotals(
  g: RoadGraph,
  a: Snap,
  b: Snap,
  tree: Tree,
  profile: Profile,
  avoid: Avoid,
  metric: 'duration' | 'distance' = 'duration',
): { distance: number; duration: number } | undefined {
  const straight = distanceKm(a.point, b.point)
  if (straight < 0.001) return { distance: 0, duration: 0 }
  const path = reach(g, tree, a, b, profile, avoid, metric)
  if (byStreets(a, b, profile, metric, path))
    return {
      distance: metres(straight),
      duration: Math.max(1, Math.round((straight / CONNECTOR_KMH[profile]) * 3600)),
    }
  if (!path) return undefined
  return { distance: metres(Math.max(path.km, straight)), duration: Math.max(1, Math.round(path.seconds)) }
}

/** Kilometres to whole metres, rounded up: a route is never shorter than the great circle. */
function metres(km: number): number {
  return Math.ceil(km * 1000 - 1e-6)
}

/**
 * Two points of one town (both within its places' reach) up to this far apart may be joined
 * through its streets, drawn straight at street speed, rather than by the roads; two points of no
 * common town only within `NEAR_KM` (a village without a network). Farther, a point off the
 * streets joins its nearest road first, so that no route is a long straight line across fields
 * or a sebkha (La Marsa to the airport, Tunis to Birine: `route.test.ts`).
 */
const STREETS_KM = 12
const NEAR_KM = 2

/** A point this near a street or road starts on it: no straight line across the blocks. */
const ON_STREET_KM = 0.25

/**
 * Whether a straight line (at street speed) joins two points better than the roads and streets:
 * for a point off every street (a village without a network, a field), near the other (in one
 * town, or within 2 km), with no water or salt flat between them, and cheaper than the path by the
 * roads.
 */
function byStreets(
  a: Snap,
  b: Snap,
  profile: Profile,
  metric: 'duration' | 'distance',
  path: { seconds: number; km: number } | undefined,
): boolean {
  const straight = distanceKm(a.point, b.point)
  if (straight > STREETS_KM || Math.max(a.km, b.km) <= ON_STREET_KM) return false
  const cost = metric === 'duration' ? (straight / CONNECTOR_KMH[profile]) * 3600 : straight
  if (path && cost > (metric === 'duration' ? path.seconds : path.km)) return false
  if (straight > NEAR_KM && !oneTown(a.point, b.point)) return false
  // The water and the salt flats last: the costly test (a sample every 100 m).
  return waterKm(a.point, b.point) < 0.05 && !crossesSalt(a.point, b.point)
}

/** Whether some town's places reach both points (`poisWithin`'s reach: 1.2 x its radius). */
function oneTown(a: Point, b: Point): boolean {
  const towns = townsReaching(a)
  if (towns.length === 0) return false
  const others = townsReaching(b)
  return towns.some((town) => others.includes(town))
}

/**
 * The towns (by index) whose places reach a point, remembered by the point's object: a tour or a
 * matrix asks it of every pair of its snapped points (2,601 pairs for a 50-stop tour).
 */
const reachingTowns = new WeakMap<Point, readonly number[]>()
function townsReaching(p: Point): readonly number[] {
  const known = reachingTowns.get(p)
  if (known) return known
  const cells = townCells()
  const [row, col] = [Math.floor(p.lat / TOWN_CELL), Math.floor(p.lng / TOWN_CELL)]
  const towns: number[] = []
  // No town reaches farther than 0.06 degree from its centre: its disc is in p's cell or one beside it.
  for (let r = row - 1; r <= row + 1; r++)
    for (let c = col - 1; c <= col + 1; c++)
      for (const { index, lat, lng, reachKm } of cells.get(r * 10_000 + c) ?? [])
        if (distanceKm({ lat, lng }, p) <= reachKm) towns.push(index)
  reachingTowns.set(p, towns)
  return towns
}

/** Towns' centres and reaches (km) by cell of `TOWN_CELL` degrees: made on first use. */
const TOWN_CELL = 0.1
let byCell: Map<number, Array<{ index: number; lat: number; lng: number; reachKm: number }>> | undefined
function townCells() {
  if (!byCell) {
    byCell = new Map()
    for (const [index, town] of poiTowns().entries()) {
      const { lat, lng } = townCentre(town)
      const key = Math.floor(lat / TOWN_CELL) * 10_000 + Math.floor(lng / TOWN_CELL)
      const list = byCell.get(key) ?? []
      list.push({ index, lat, lng, reachKm: townRadius(town) * KM_PER_DEGREE * 1.2 })
      byCell.set(key, list)
    }
  }
  return byCell
}

/** Whether a straight line runs over a salt flat (sampled every 100 m). */
function crossesSalt(a: Point, b: Point): boolean {
  const [south, north] = a.lat < b.lat ? [a.lat, b.lat] : [b.lat, a.lat]
  const [west, east] = a.lng < b.lng ? [a.lng, b.lng] : [b.lng, a.lng]
  if (!saltMayMeet(south, west, north, east)) return false
  const n = Math.max(1, Math.ceil(distanceKm(a, b) / 0.1))
  for (let k = 0; k < n; k++) {
    const t = (k + 0.5) / n
    if (surfaceAt(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t) === 'salt') return true
  }
  return false
}

/** A stretch of a leg on one road (`road` its index) or off the roads (`road` -1: streets). */
interface Part {
  road: number
  points: Point[]
  km: number
  seconds: number
}

/** The parts of one leg, joined end to end (each starts where the last ended). */
function legParts(
  g: RoadGraph,
  a: Snap,
  b: Snap,
  options: RouteOptions,
  variant: number,
  index: number,
  /** One search's arrays, filled again by each leg's search (the path is copied out of them). */
  scratch: { tree?: Tree } = {},
): Part[] {
  const { profile, avoid, metric = 'duration' } = options
  const straight = distanceKm(a.point, b.point)
  if (straight < 0.001) return [{ road: -1, points: [a.point, b.point], km: 0, seconds: 0 }]
  // Near each other, through the town's streets, when that is shorter than by the roads' nearest points.
  const streets = (): Part => ({
    road: -1,
    points: [a.point, b.point],
    km: straight,
    seconds: (straight / CONNECTOR_KMH[profile]) * 3600,
  })
  let path: Path | undefined
  const used = new Set<number>()
  for (let v = 0; v <= variant; v++) {
    const tree = search(g, a, profile, avoid, metric, Number.POSITIVE_INFINITY, used, [b], scratch.tree)
    scratch.tree = tree
    path = pathTo(g, tree, a, b, profile, avoid, metric)
    if (v === 0 && variant === 0 && byStreets(a, b, profile, metric, path)) return [streets()]
    if (!path) throw new Unreachable(index)
    for (const e of path.edges) used.add(e)
  }
  const found = path!
  const parts: Part[] = []
  const connector = (from: Point, to: Point): Part => {
    const km = distanceKm(from, to)
    return { road: -1, points: [from, to], km, seconds: (km / CONNECTOR_KMH[profile]) * 3600 }
  }
  if (a.km > 0.001) parts.push(connector(a.point, a.at))
  const onEdge = (e: number, from: Point, to: Point, share: number) => {
    const r = g.road[e]!
    const km = g.km[e]! * share
    const seconds = edgeSeconds(g, e, profile, avoid) * share
    const last = parts[parts.length - 1]
    if (last && last.road === r) {
      last.points.push(to)
      last.km += km
      last.seconds += seconds
    } else parts.push({ road: r, points: [from, to], km, seconds })
  }
  const at = (n: number): Point => ({ lat: g.lat[n]!, lng: g.lng[n]! })
  if (found.nodes.length === 0) onEdge(a.edge, a.at, b.at, Math.abs(b.t - a.t))
  else {
    const first = found.nodes[0]!
    onEdge(a.edge, a.at, at(first), first === g.from[a.edge] ? a.t : 1 - a.t)
    for (let k = 0; k < found.edges.length; k++) {
      const e = found.edges[k]!
      onEdge(e, at(found.nodes[k]!), at(found.nodes[k + 1]!), 1)
    }
    const last = found.nodes[found.nodes.length - 1]!
    onEdge(b.edge, at(last), b.at, last === g.from[b.edge] ? b.t : 1 - b.t)
  }
  if (b.km > 0.001) parts.push(connector(b.at, b.point))
  // The time lost through towns is spread over the parts on roads, so steps add up to the leg.
  const spent = parts.reduce((sum, p) => sum + p.seconds, 0)
  const onRoads = parts.filter((p) => p.road >= 0 && p.seconds > 0)
  const roadSeconds = onRoads.reduce((sum, p) => sum + p.seconds, 0)
  if (roadSeconds > 0)
    for (const p of onRoads) p.seconds += ((found.seconds - spent) * p.seconds) / roadSeconds
  return parts.filter((p, i) => i === 0 || p.km > 0 || p.points.length > 2)
}

/**
 * Turn-by-turn steps of a leg: depart, one step a road taken ("Prenez l'A1 en direction de
 * Sousse", "Tournez à gauche sur la RN1 en direction de Sfax"), arrive (at a waypoint or the end).
 * Distances and durations are rounded so they add up to the leg's.
 */
function steps(
  g: RoadGraph,
  parts: readonly Part[],
  distance: number,
  duration: number,
  options: RouteOptions,
  waypoint: number,
): Step[] {
  const words = WORDS[options.language]
  const out: Step[] = []
  let [km, seconds, spentDistance, spentDuration] = [0, 0, 0, 0]
  const destination = parts[parts.length - 1]!.points.at(-1)!
  parts.forEach((part, i) => {
    km += part.km
    seconds += part.seconds
    const last = i === parts.length - 1
    const d = last ? distance - spentDistance : Math.round(km * 1000) - spentDistance
    const t = last ? duration - spentDuration : Math.round(seconds) - spentDuration
    spentDistance += d
    spentDuration += t
    const previous = out[out.length - 1]
    // A stretch of a few metres (a junction's corner) is no manoeuvre: it counts with the step before.
    if (previous && part.km < 0.05) {
      previous.distance += d
      previous.duration += t
      return
    }
    const from = part.points[0]!
    const to = part.points[1]!
    const end = part.points[part.points.length - 1]!
    const road = part.road >= 0 ? g.roads[part.road]! : undefined
    const street = road?.street ? worldFor(options.seed).streetByKey(road.street) : undefined
    const name = street
      ? options.language === 'ar'
        ? street.ar
        : street.fr
      : road
        ? roadLabel(road, options.language, end)
        : streetName(options, from, to, destination)
    const spoken = road && !street ? spokenLabel(road, options.language, name) : name
    // The town the road's signs name: the one where this stretch ends, or (ending between towns,
    // as the A1 at El Jem on the way to Sfax) the one the leg goes to.
    const atEnd = nearestTown(end, SIGNED_TOWNS)
    const ahead = distanceKm(atEnd, end) <= SIGN_KM ? atEnd : nearestTown(destination, SIGNED_TOWNS)
    const towards =
      road && !street && (road.ref || road.name) && ahead !== nearestTown(from, SIGNED_TOWNS)
        ? townName(ahead)
        : undefined
    const location = { lat: round6(from.lat), lng: round6(from.lng) }
    if (i === 0) {
      out.push({
        distance: d,
        duration: t,
        instruction: words.depart(words.headings[headingIndex(from, to)]!, spoken),
        name,
        maneuver: { type: 'depart', location },
      })
      return
    }
    const before = parts[i - 1]!.points
    const modifier = turn(before[before.length - 2]!, from, to)
    const instruction =
      road?.road === 'ferry'
        ? words.ferry(road, road.aboardMinutes ?? 15)
        : road?.road === 'motorway'
          ? words.take(spoken, towards)
          : modifier === 'straight'
            ? words.continue(spoken, towards)
            : words.turn(modifier, spoken, towards)
    out.push({
      distance: d,
      duration: t,
      instruction,
      name,
      maneuver: { type: modifier === 'straight' ? 'continue' : 'turn', modifier, location },
    })
  })
  out.push({
    distance: 0,
    duration: 0,
    instruction: waypoint === 0 ? words.arrive : words.waypoint(waypoint),
    name: out[out.length - 1]?.name ?? '',
    maneuver: { type: 'arrive', location: { lat: round6(destination.lat), lng: round6(destination.lng) } },
  })
  return out
}

/** A road's name as a step names it: its number (`A1`, `RN1`), its name, or the town it leads to. */
function roadLabel(road: Road, language: Lang, end: Point): string {
  if (language === 'ar' && road.ar) return road.ar
  if (road.ref) return road.ref
  if (road.name) return road.name
  return WORDS[language].roadTo(townName(nearestTown(end, BIG_TOWNS)))
}

/** The name as said in a sentence: "l'A1", "la RN1" in French, "the A1" in English. */
function spokenLabel(road: Road, language: Lang, label: string): string {
  if (language === 'fr' && road.ref) return road.ref.startsWith('A') ? `l'${label}` : `la ${label}`
  if (language === 'en' && road.road === 'motorway') return `the ${label}`
  return label
}

/** Local planar metres around a latitude (good to a fraction of a percent across Tunisia). */
function plane(lat: number) {
  const kx = KM_PER_DEGREE * 1000 * Math.cos(radians(lat))
  const ky = M_PER_DEGREE_LAT
  return { kx, ky }
}

/** 0 = north, 1 = north-east, ... 7 = north-west. */
function headingIndex(a: Point, b: Point): number {
  const { kx, ky } = plane(a.lat)
  const bearing = Math.atan2((b.lng - a.lng) * kx, (b.lat - a.lat) * ky)
  return (Math.round(bearing / (Math.PI / 4)) + 8) % 8
}

function turn(a: Point, b: Point, c: Point): Modifier {
  const { kx, ky } = plane(b.lat)
  const h1 = Math.atan2((b.lat - a.lat) * ky, (b.lng - a.lng) * kx)
  const h2 = Math.atan2((c.lat - b.lat) * ky, (c.lng - b.lng) * kx)
  let angle = ((h2 - h1) * 180) / Math.PI
  if (angle > 180) angle -= 360
  if (angle < -180) angle += 360
  const side = angle > 0 ? 'left' : 'right'
  const size = Math.abs(angle)
  if (size < 20) return 'straight'
  if (size < 45) return `slight ${side}`
  if (size < 135) return side
  return `sharp ${side}`
}

/**
 * The street a stretch off the main roads follows: the seed's street at its start (100 m) or its
 * middle (250 m), else a side street named as Tunisian streets are, stable per stretch.
 */
function streetName(options: RouteOptions, a: Point, b: Point, destination: Point): string {
  const middle = { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 }
  const geocoder = geocoderFor(options.seed)
  const street = nearestStreet(geocoder, a, 0.1) ?? nearestStreet(geocoder, middle, 0.25)
  if (street) return street.name[options.language]
  if (distanceKm(a, b) >= 2)
    return WORDS[options.language].roadTo(townName(nearestTown(destination, BIG_TOWNS)))
  const [fr, ar] = STREET_NAMESAKES[hashSeed(`${middle.lat},${middle.lng}`) % STREET_NAMESAKES.length]!
  return options.language === 'ar' ? `نهج ${ar}` : `Rue ${fr}`
}

/**
 * Towns the signs point to ("en direction de Sousse"): 40,000 people or more, and the governorate
 * capitals (the RN16 from El Hamma is signed to Kébili, the road over Chott el Djerid to Tozeur).
 */
const SIGNED_TOWNS = poiTowns().filter((t) => (t.pop ?? 0) >= 40_000 || t.fc === 'PPLA' || t.fc === 'PPLC')
/** A stretch ending this near (km) a signed town is signed to it. */
const SIGN_KM = 15

/** Towns a road is named after ("Route de Sousse"). */
const BIG_TOWNS = poiTowns().filter((t) => (t.pop ?? 0) >= 10_000)

const CELL = 0.02
const grids = new WeakMap<Geocoder, Map<string, Place[]>>()
const cellOf = (lat: number, lng: number) => `${Math.floor(lat / CELL)},${Math.floor(lng / CELL)}`

function nearestStreet(geocoder: Geocoder, p: Point, maxKm: number): Place | undefined {
  let grid = grids.get(geocoder)
  if (!grid) {
    grid = new Map()
    for (const street of geocoder.byKind.street) {
      const cell = cellOf(street.lat, street.lng)
      grid.set(cell, [...(grid.get(cell) ?? []), street])
    }
    grids.set(geocoder, grid)
  }
  let best: Place | undefined
  let bestKm = maxKm
  const row = Math.floor(p.lat / CELL)
  const col = Math.floor(p.lng / CELL)
  for (let r = row - 1; r <= row + 1; r++) {
    for (let c = col - 1; c <= col + 1; c++) {
      for (const street of grid.get(`${r},${c}`) ?? []) {
        const km = distanceKm(p, street)
        if (km < bestKm) {
          bestKm = km
          best = street
        }
      }
    }
  }
  return best
}

interface Words {
  headings: readonly string[]
  depart(heading: string, name: string): string
  turn(modifier: Exclude<Modifier, 'straight'>, name: string, towards?: Town): string
  continue(name: string, towards?: Town): string
  /** Onto a motorway. */
  take(name: string, towards?: Town): string
  /** Aboard a ferry (its French name is "Bac <from> - <to>"), with the minutes aboard. */
  ferry(road: { name: string; ar: string }, minutes: number): string
  arrive: string
  waypoint(n: number): string
  roadTo(town: { fr: string; ar: string }): string
}

const frTurn: Record<Exclude<Modifier, 'straight'>, string> = {
  left: 'à gauche',
  right: 'à droite',
  'slight left': 'légèrement à gauche',
  'slight right': 'légèrement à droite',
  'sharp left': 'fortement à gauche',
  'sharp right': 'fortement à droite',
}
const enTurn: Record<Exclude<Modifier, 'straight'>, string> = {
  left: 'left',
  right: 'right',
  'slight left': 'slightly left',
  'slight right': 'slightly right',
  'sharp left': 'sharp left',
  'sharp right': 'sharp right',
}
const arTurn: Record<Exclude<Modifier, 'straight'>, string> = {
  left: 'يسارًا',
  right: 'يمينًا',
  'slight left': 'قليلًا إلى اليسار',
  'slight right': 'قليلًا إلى اليمين',
  'sharp left': 'بحدة إلى اليسار',
  'sharp right': 'بحدة إلى اليمين',
}

type Town = { fr: string; ar: string }

/** "en direction de Sousse", "en direction d'El Jem". */
const frTowards = (to?: Town) =>
  to ? (/^[AEIOUÉÈaeiou]/.test(to.fr) ? ` en direction d'${to.fr}` : ` en direction de ${to.fr}`) : ''

/** A crossing's time: "45 min", "1 h", "1 h 10". */
const crossingTime = (minutes: number) =>
  minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60}` : ''}`
/** "15 دقيقة", "ساعة", "ساعة و10 دقيقة". */
const arCrossingTime = (minutes: number) =>
  minutes < 60 ? `${minutes} دقيقة` : `ساعة${minutes % 60 ? ` و${minutes % 60} دقيقة` : ''}`
/** "Sfax - Sidi Youssef" of "Bac Sfax - Sidi Youssef". */
const ferryEnds = (name: string) => name.replace(/^Bac /, '')

/** Instructions in the three languages of the API (`language`). */
const WORDS: Record<Lang, Words> = {
  fr: {
    headings: [
      'le nord',
      'le nord-est',
      "l'est",
      'le sud-est',
      'le sud',
      'le sud-ouest',
      "l'ouest",
      'le nord-ouest',
    ],
    depart: (h, name) => `Partez vers ${h}${name ? ` sur ${name}` : ''}`,
    turn: (m, name, to) => `Tournez ${frTurn[m]}${name ? ` sur ${name}` : ''}${frTowards(to)}`,
    continue: (name, to) => (name ? `Continuez sur ${name}${frTowards(to)}` : 'Continuez tout droit'),
    take: (name, to) => `Prenez ${name}${frTowards(to)}`,
    ferry: ({ name }, m) => `Prenez le bac ${ferryEnds(name)} (traversée d'environ ${crossingTime(m)})`,
    arrive: 'Vous êtes arrivé à destination',
    waypoint: (n) => `Vous êtes arrivé à l'étape ${n}`,
    roadTo: ({ fr }) => (/^[AEIOUÉÈaeiou]/.test(fr) ? `Route d'${fr}` : `Route de ${fr}`),
  },
  en: {
    headings: ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'],
    depart: (h, name) => `Head ${h}${name ? ` on ${name}` : ''}`,
    turn: (m, name, to) => `Turn ${enTurn[m]}${name ? ` onto ${name}` : ''}${to ? ` toward ${to.fr}` : ''}`,
    continue: (name, to) =>
      name ? `Continue on ${name}${to ? ` toward ${to.fr}` : ''}` : 'Continue straight',
    take: (name, to) => `Take ${name}${to ? ` toward ${to.fr}` : ''}`,
    ferry: ({ name }, m) => `Take the ${ferryEnds(name)} ferry (about ${crossingTime(m)} crossing)`,
    arrive: 'You have arrived at your destination',
    waypoint: (n) => `You have arrived at waypoint ${n}`,
    roadTo: ({ fr }) => `${fr} road`,
  },
  ar: {
    headings: [
      'الشمال',
      'الشمال الشرقي',
      'الشرق',
      'الجنوب الشرقي',
      'الجنوب',
      'الجنوب الغربي',
      'الغرب',
      'الشمال الغربي',
    ],
    depart: (h, name) => `انطلق نحو ${h}${name ? ` على ${name}` : ''}`,
    turn: (m, name, to) => `انعطف ${arTurn[m]}${name ? ` إلى ${name}` : ''}${to ? ` في اتجاه ${to.ar}` : ''}`,
    continue: (name, to) => (name ? `تابع على ${name}${to ? ` في اتجاه ${to.ar}` : ''}` : 'تابع مباشرة'),
    take: (name, to) => `اسلك ${name}${to ? ` في اتجاه ${to.ar}` : ''}`,
    ferry: ({ ar }, m) => `اركب ${ar} (عبور لمدة ${arCrossingTime(m)} تقريبًا)`,
    arrive: 'لقد وصلت إلى وجهتك',
    waypoint: (n) => `لقد وصلت إلى المحطة ${n}`,
    roadTo: ({ ar }) => `طريق ${ar}`,
  },
}
