import { DELEGATIONS, LOCALITIES } from '../data/gazetteer.ts'
import { flatKm, KM_PER_DEGREE, type LatLng } from '../data/geo.ts'
import { inCoverage } from '../data/outline.ts'
import { mercatorX, mercatorY } from './projection.ts'

/** Road classes, most important first. */
export type RoadClass = 'motorway' | 'primary' | 'secondary'

/** A road between towns, in Web Mercator units (flat `[x, y, ...]`). */
export interface Road {
  kind: RoadClass
  points: Float64Array
  box: [number, number, number, number]
}

interface Node {
  lat: number
  lng: number
  weight: number
}

/**
 * Tunisia's motorways, as facts: the towns they pass, in order (A1 Tunis - Sousse - Sfax - Gabès,
 * A3 Tunis - Medjez el-Bab - Béja - Bou Salem, A4 Tunis - Bizerte).
 */
const MOTORWAYS: readonly (readonly string[])[] = [
  ['Tunis', 'Hammamet', 'Enfidha', 'Msaken', 'El Jem', 'Sfax', 'Gabès'],
  ['Tunis', 'Medjez el Bab', 'Béja', 'Bou Salem'],
  ['Tunis', 'Mateur', 'Bizerte'],
]

const LONGEST_KM = 110
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

function road(kind: RoadClass, points: Float64Array): Road {
  const box: [number, number, number, number] = [1, 1, 0, 0]
  for (let i = 0; i < points.length; i += 2) {
    box[0] = Math.min(box[0], points[i]!)
    box[1] = Math.min(box[1], points[i + 1]!)
    box[2] = Math.max(box[2], points[i]!)
    box[3] = Math.max(box[3], points[i + 1]!)
  }
  return { kind, points, box }
}

/**
 * The road network between towns: the real motorways, and national and regional roads that
 * join every delegation seat and town of 10,000 people to its natural neighbours (a relative
 * neighbourhood graph, which keeps the short links and drops a long link whenever a town lies
 * between). Roads that would cross the sea are left out. The same for every seed: it is geography.
 */
export function buildRoads(): Road[] {
  const nodes: Node[] = []
  const add = (lat: number, lng: number, weight: number) => {
    const near = nodes.find((n) => km(n, { lat, lng }) < 3)
    if (near) near.weight = Math.max(near.weight, weight)
    else nodes.push({ lat, lng, weight })
  }
  for (const l of LOCALITIES)
    if ((l.pop ?? 0) >= 10_000 || l.fc === 'PPLA' || l.fc === 'PPLC') add(l.lat, l.lng, l.pop ?? 10_000)
  for (const d of DELEGATIONS) add(d.lat, d.lng, 5_000)

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
  const roads: Road[] = []
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const [a, b] = [nodes[i]!, nodes[j]!]
      const d = km(a, b)
      if (d > LONGEST_KM || d < 1) continue
      if (between(a, b, d)) continue
      const mid = [0.25, 0.5, 0.75].every((t) =>
        inCoverage(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t),
      )
      if (!mid) continue
      const kind = a.weight >= 40_000 && b.weight >= 40_000 ? 'primary' : 'secondary'
      roads.push(road(kind, curve(a, b, (hash(a, b) - 0.5) * 0.12)))
    }
  }
  const town = (name: string) => LOCALITIES.find((l) => l.name === name || l.fr === name)
  for (const names of MOTORWAYS) {
    const stops = names.map(town).filter((t) => t !== undefined)
    const parts: number[] = []
    for (let i = 1; i < stops.length; i++) {
      const [a, b] = [stops[i - 1]!, stops[i]!]
      const part = curve(a, b, (hash(a, b) - 0.5) * 0.06)
      parts.push(...(i === 1 ? part : part.subarray(2)))
    }
    roads.push(road('motorway', Float64Array.from(parts)))
  }
  return roads
}
