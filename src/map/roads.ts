import { DELEGATIONS, LOCALITIES } from '../data/gazetteer.ts'
import { flatKm, KM_PER_DEGREE, type LatLng } from '../data/geo.ts'
import { onLand, surfaceAt } from '../data/land.ts'
import { NODES, ROAD_FACTS, type Waypoint } from '../data/road-network.ts'
import type { Road, RoadClass, RoadKind } from '../data/roads.ts'
import { latitudeOf, longitudeOf, mercatorX, mercatorY } from './projection.ts'

interface Node {
  lat: number
  lng: number
  weight: number
}

const LONGEST_KM = 60
type Point = LatLng
const km = flatKm

/** A stable number in [0, 1) for a pair of points, so a road bends the same way every time. */
function hash(a: Point, b: Point): number {
  let h = 2166136261
  for (const v of [a.lat, a.lng, b.lat, b.lng]) {
    h ^= Math.round(v * 1e5)
    h = Math.imul(h, 16777619)
  }
  return ((h >>> 0) % 10007) / 10007
}

/** A gently curving line between two towns, like a road that follows the land. */
function curve(a: Point, b: Point, bend: number): Float64Array {
  const steps = Math.max(4, Math.min(24, Math.round(km(a, b) / 4)))
  const out = new Float64Array((steps + 1) * 2)
  const [ax, ay, bx, by] = [mercatorX(a.lng), mercatorY(a.lat), mercatorX(b.lng), mercatorY(b.lat)]
  const [dx, dy] = [bx - ax, by - ay]
  const wobble = hash(b, a) * Math.PI * 2
  for (let i = 0; i <= steps; i++) {
    const t = i / steps
    const side =
      bend * Math.sin(Math.PI * t) + 0.025 * Math.sin(2 * Math.PI * t * 2 + wobble) * Math.sin(Math.PI * t)
    out[i * 2] = ax + dx * t - dy * side
    out[i * 2 + 1] = ay + dy * t + dx * side
  }
  return out
}

function road(kind: RoadClass, points: Float64Array, fact?: Omit<Road, 'kind' | 'points' | 'box'>): Road {
  const box: [number, number, number, number] = [1, 1, 0, 0]
  for (let i = 0; i < points.length; i += 2) {
    box[0] = Math.min(box[0], points[i]!)
    box[1] = Math.min(box[1], points[i + 1]!)
    box[2] = Math.max(box[2], points[i]!)
    box[3] = Math.max(box[3], points[i + 1]!)
  }
  return { kind, road: 'local', ref: '', name: '', ar: '', mountain: false, ...fact, points, box }
}

const CLASS: Record<RoadKind, RoadClass> = {
  motorway: 'motorway',
  national: 'primary',
  regional: 'secondary',
  urban: 'secondary',
  ferry: 'ferry',
  local: 'secondary',
  street: 'secondary',
}

/** A waypoint of src/data/road-network.ts as `[lat, lng, name]` (`name` is `''` for a bend). */
export function waypointOf(w: Waypoint): readonly [number, number, string] {
  if (typeof w !== 'string') return [w[0], w[1], w[2] ?? '']
  const node = NODES[w]
  if (!node) throw new Error(`Failed to read the road network: no node "${w}". Add it to NODES.`)
  return node
}

/** The traced roads of src/data/road-network.ts, straight between their waypoints. */
function tracedRoads(): Road[] {
  return ROAD_FACTS.map((fact) => {
    const points = new Float64Array(fact.via.length * 2)
    fact.via.forEach((w, i) => {
      const [lat, lng] = waypointOf(w)
      points[i * 2] = mercatorX(lng)
      points[i * 2 + 1] = mercatorY(lat)
    })
    return road(CLASS[fact.kind], points, {
      road: fact.kind,
      ref: fact.ref,
      name: fact.name,
      ar: fact.ar,
      mountain: fact.mountain === true,
      ...(fact.aboardMinutes !== undefined && { aboardMinutes: fact.aboardMinutes }),
    })
  })
}

/** Whether a line (Mercator units) keeps off the water the map draws (salt flats are crossed). */
function dry(points: Float64Array): boolean {
  for (let i = 2; i < points.length; i += 2) {
    const [x0, y0, x1, y1] = [points[i - 2]!, points[i - 1]!, points[i]!, points[i + 1]!]
    const lngs = [longitudeOf(x0), longitudeOf(x1)] as const
    const lats = [latitudeOf(y0), latitudeOf(y1)] as const
    const steps = Math.max(
      1,
      Math.ceil(flatKm({ lat: lats[0], lng: lngs[0] }, { lat: lats[1], lng: lngs[1] }) / 0.2),
    )
    for (let k = 0; k <= steps; k++) {
      const t = k / steps
      if (surfaceAt(lats[0] + (lats[1] - lats[0]) * t, lngs[0] + (lngs[1] - lngs[0]) * t) === 'water')
        return false
    }
  }
  return true
}

/**
 * The road network between towns: the traced main roads (src/data/road-network.ts: motorways and
 * national roads on their real course, with their sources), and generated local roads that join
 * every delegation seat and town of 10,000 people to its natural neighbours (a relative
 * neighbourhood graph, which keeps the short links and drops a long link whenever a town lies
 * between; a town within 3 km of a traced road's town or junction is that node). A local road that
 * would cross water, or that joins two nodes of the traced network, is left out. The same for every
 * seed: it is geography.
 */
export function buildRoads(): Road[] {
  const traced = tracedRoads()
  const nodes: Node[] = Object.values(NODES).map(([lat, lng]) => ({ lat, lng, weight: 1e9 }))
  const traced_ = new Set(nodes)
  const add = (lat: number, lng: number, weight: number) => {
    const near = nodes.find((n) => km(n, { lat, lng }) < 3)
    if (!near) nodes.push({ lat, lng, weight })
  }
  for (const l of LOCALITIES)
    if (((l.pop ?? 0) >= 10_000 || l.fc === 'PPLA' || l.fc === 'PPLC') && onLand(l.lat, l.lng))
      add(l.lat, l.lng, l.pop ?? 10_000)
  for (const d of DELEGATIONS) if (onLand(d.lat, d.lng)) add(d.lat, d.lng, 5_000)

  // A town between a and b is nearer than d to a, so its latitude is within d of a's: only that
  // band of the towns sorted by latitude is searched (the same graph, without n^3 distances).
  const byLat = [...nodes].sort((p, q) => p.lat - q.lat)
  const between = (a: Node, b: Node, d: number) => {
    const reach = (d / KM_PER_DEGREE) * 1.000001
    let lo = 0
    let hi = byLat.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (byLat[mid]!.lat < a.lat - reach) lo = mid + 1
      else hi = mid
    }
    for (let k = lo; k < byLat.length && byLat[k]!.lat <= a.lat + reach; k++) {
      const c = byLat[k]!
      if (c !== a && c !== b && Math.max(km(a, c), km(b, c)) < d) return true
    }
    return false
  }
  const local: Road[] = []
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const [a, b] = [nodes[i]!, nodes[j]!]
      if (traced_.has(a) && traced_.has(b)) continue
      const d = km(a, b)
      if (d > LONGEST_KM || d < 1) continue
      if (between(a, b, d)) continue
      const points = curve(a, b, (hash(a, b) - 0.5) * 0.12)
      // The curve ends exactly on its towns, so roads meet where they share a town.
      points[points.length - 2] = mercatorX(b.lng)
      points[points.length - 1] = mercatorY(b.lat)
      if (!dry(points)) continue
      local.push(road('secondary', points))
    }
  }
  return [...traced, ...local]
}
