import type { IsochroneResponse } from '../../contract/openapi.ts'
import { kmPerDegreeLng, round6 } from '../../data/geo.ts'
import { surfaceAt } from '../../data/land.ts'
import { body } from '../body.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError } from '../params.ts'
import {
  CONNECTOR_KMH,
  edgeSeconds,
  type RoadGraph,
  roadGraph,
  type Snap,
  search,
  snap,
  type Tree,
} from './road-graph.ts'
import { type Point, PROFILES, type Profile } from './road-model.ts'

/** Vertices of each contour's ring (before closing it). */
const BEARINGS = 72
const MAX_MINUTES = 60
const MAX_KM = 50
const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i

type Contour = { time: number } | { distance: number }

/**
 * `POST /routing/isochrone`: the area reachable from `origin` within each contour's `time`
 * (minutes, at most 60) or `distance` (road km, at most 50), as a GeoJSON FeatureCollection with
 * one Polygon Feature per contour in request order. Growing values give nested polygons;
 * polygons stop at the last shore the roads reach (a lake they cross, by a causeway or round it,
 * may lie inside) and at the borders. An origin outside the data's coverage (at sea,
 * abroad) answers Features whose geometry is `null`.
 * @example
 * isochrone({
 *   url,
 *   seed: 'demo',
 *   body: { origin: { lat: 36.8002, lng: 10.1815 }, contours: [{ time: 15 }] },
 * })
 */
export function isochrone(ctx: EndpointContext): IsochroneResponse {
  const json = ctx.body as Record<string, unknown>
  const params = body(json)
  const origin = params.requiredPoint('origin')
  const contours = readContours(json.contours)
  const profile = params.oneOf('profile', PROFILES, 'driving')
  const colors = readColors(json.colors, contours.length)

  const g = roadGraph()
  const start = snap(g, origin, profile)
  const budgets = contours.map((c) => ('time' in c ? c.time * 60 : c.distance))
  const trees = {
    duration:
      contours.some((c) => 'time' in c) && start
        ? search(g, start, profile, {}, 'duration', Math.max(...budgets))
        : undefined,
    distance:
      contours.some((c) => 'distance' in c) && start
        ? search(g, start, profile, {}, 'distance', Math.max(...budgets))
        : undefined,
  }
  const radii = contours.map((c, i) => {
    const metric = 'time' in c ? 'duration' : 'distance'
    return start ? reachByBearing(g, origin, start, trees[metric]!, metric, budgets[i]!, profile) : []
  })
  // A contour holds every smaller contour of its metric (the edges' samples differ between budgets).
  for (let i = 0; i < contours.length; i++)
    for (let j = 0; j < contours.length; j++) {
      const same = 'time' in contours[i]! === 'time' in contours[j]!
      if (i !== j && same && budgets[j]! <= budgets[i]!)
        radii[i] = radii[i]!.map((r, k) => Math.max(r, radii[j]![k] ?? 0))
    }
  const reach = landAlong(origin, start ? Math.max(...radii.flat()) : 0)
  return {
    type: 'FeatureCollection' as const,
    features: contours.map((contour, i) => ({
      type: 'Feature' as const,
      properties: { contour: i, ...contour, profile, ...(colors && { color: colors[i] }) },
      geometry: start ? polygon(origin, radii[i]!, reach) : null,
    })),
  }
}

/**
 * The contour's reach in each bearing: the farthest point of the roads reached within the budget
 * (every node, and the reachable part of each edge leaving one), each with a small disk for the
 * streets around it (what is left of the budget at street speed), and the origin's
 * own streets. So the polygon follows the roads: it never spreads over water where no road goes.
 */
function reachByBearing(
  g: RoadGraph,
  origin: Point,
  start: Snap,
  tree: Tree,
  metric: 'duration' | 'distance',
  budget: number,
  profile: Profile,
): number[] {
  const radii = new Array<number>(BEARINGS).fill(0)
  const kx = kmPerDegreeLng(origin.lat)
  const ky = 110.54
  // Off the roads as far as the router goes at street speed for a place away from every road (a
  // douar 5.8 km off its road west of Bizerte, Sejoumi 3.4 km off its own): a place the router
  // reaches within a contour's budget is inside it.
  const spare = (left: number) =>
    metric === 'duration' ? (left / 3600) * CONNECTOR_KMH[profile] : left / 1.3
  const disk = (lat: number, lng: number, r: number) => {
    const x = (lng - origin.lng) * kx
    const y = (lat - origin.lat) * ky
    const d = Math.hypot(x, y)
    const theta = Math.atan2(y, x)
    if (d <= r) {
      // The disk holds the origin: every bearing reaches at least its far edge.
      for (let k = 0; k < BEARINGS; k++) {
        const a = (k / BEARINGS) * Math.PI * 2 - theta
        const far = d * Math.cos(a) + Math.sqrt(Math.max(0, r * r - (d * Math.sin(a)) ** 2))
        if (far > radii[k]!) radii[k] = far
      }
      return
    }
    const half = Math.asin(r / d)
    const k0 = Math.ceil(((theta - half) / (Math.PI * 2)) * BEARINGS)
    const k1 = Math.floor(((theta + half) / (Math.PI * 2)) * BEARINGS)
    for (let k = k0; k <= k1; k++) {
      const a = (k / BEARINGS) * Math.PI * 2 - theta
      const far = d * Math.cos(a) + Math.sqrt(Math.max(0, r * r - (d * Math.sin(a)) ** 2))
      const index = ((k % BEARINGS) + BEARINGS) % BEARINGS
      if (far > radii[index]!) radii[index] = far
    }
  }
  // The origin's own streets, and its way to the road.
  const toRoad = metric === 'duration' ? (start.km / CONNECTOR_KMH[profile]) * 3600 : start.km
  disk(origin.lat, origin.lng, spare(budget))
  if (toRoad <= budget) disk(start.at.lat, start.at.lng, spare(budget - toRoad))
  for (let u = 0; u < g.lat.length; u++) {
    const cost = tree.cost[u]!
    if (!(cost <= budget)) continue
    const left = budget - cost
    disk(g.lat[u]!, g.lng[u]!, spare(left))
    for (let h = g.first[u]!; h < g.first[u + 1]!; h++) {
      const e = g.via[h]!
      const v = g.next[h]!
      const step = metric === 'duration' ? edgeSeconds(g, e, profile, {}) : g.km[e]!
      if (!Number.isFinite(step) || step <= 0) continue
      const reachable = Math.min(1, left / step)
      const samples = Math.max(1, Math.ceil(g.km[e]! / 2))
      for (let k = 1; k <= samples; k++) {
        const f = (k / samples) * reachable
        disk(
          g.lat[u]! + (g.lat[v]! - g.lat[u]!) * f,
          g.lng[u]! + (g.lng[v]! - g.lng[u]!) * f,
          spare(left - step * f),
        )
      }
    }
  }
  return radii
}

function readContours(value: unknown): Contour[] {
  if (value === undefined || value === null) throw new ParamError('missing-param', 'contours')
  if (!Array.isArray(value) || value.length < 1 || value.length > 4)
    throw new ParamError('invalid-param', 'contours')
  return value.map((c): Contour => {
    if (c === null || typeof c !== 'object' || Array.isArray(c))
      throw new ParamError('invalid-param', 'contours')
    const keys = Object.keys(c)
    const { time, distance } = c as Record<string, unknown>
    const positive = (v: unknown, max: number): v is number =>
      typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= max
    if (keys.length === 1 && positive(time, MAX_MINUTES)) return { time }
    if (keys.length === 1 && positive(distance, MAX_KM)) return { distance }
    throw new ParamError('invalid-param', 'contours')
  })
}

/** One hex colour per contour (`#22c55e` or `#2c5`), or none. */
function readColors(value: unknown, count: number): string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (
    !Array.isArray(value) ||
    value.length !== count ||
    !value.every((c) => typeof c === 'string' && HEX_COLOR.test(c))
  )
    throw new ParamError('invalid-param', 'colors')
  return value
}

/** Local planar kilometres to degrees. */
const offset = (origin: Point, angle: number, km: number): Point => ({
  lat: origin.lat + (Math.sin(angle) * km) / 110.54,
  lng: origin.lng + (Math.cos(angle) * km) / kmPerDegreeLng(origin.lat),
})

/**
 * Where each bearing from the origin runs over land, for `polygon` to end a contour's ray on the
 * farthest land within its reach: a town the roads reach across a lake (La Goulette over the
 * causeway from Tunis) is inside, the sea beyond the last shore is not. `land[k]` lists the ray's
 * stretches of land, `[from, to]` km out, their ends refined to ~10 m; a stretch beyond more than
 * `WATER_GAP_KM` of water is left out (Lake Tunis, ~8 km between Tunis and La Goulette, is
 * crossed; the Gulf of Tunis, to Cap Bon, is not).
 */
function landAlong(origin: Point, maxKm: number): Array<Array<[number, number]>> {
  const step = Math.min(0.25, Math.max(0.05, maxKm / 240))
  const count = Math.ceil(maxKm / step) + 1
  return Array.from({ length: BEARINGS }, (_, k) => {
    const angle = (k / BEARINGS) * Math.PI * 2
    const dryAt = (km: number) => {
      const p = offset(origin, angle, km)
      return surfaceAt(p.lat, p.lng) !== 'water'
    }
    /** The shore between `a` (on one side) and `b` (on the other), ~10 m. */
    const shore = (a: number, b: number) => {
      const dryA = dryAt(a)
      while (Math.abs(b - a) > 0.01) {
        const m = (a + b) / 2
        if (dryAt(m) === dryA) a = m
        else b = m
      }
      return (a + b) / 2
    }
    const stretches: Array<[number, number]> = []
    let from = dryAt(0) ? 0 : undefined
    let wetFrom = 0
    for (let i = 1; i <= count; i++) {
      const km = i * step
      const dry = dryAt(km)
      if (dry && from === undefined) {
        if (km - wetFrom > WATER_GAP_KM && stretches.length > 0) break
        from = shore(km - step, km)
      } else if (!dry && from !== undefined) {
        wetFrom = shore(km - step, km)
        stretches.push([from, wetFrom])
        from = undefined
      }
    }
    if (from !== undefined) stretches.push([from, Number.POSITIVE_INFINITY])
    return stretches
  })
}

/** The longest stretch of water (km) a contour's ray crosses to the land the roads reach beyond it. */
const WATER_GAP_KM = 10

/**
 * Where the ray of bearing `k` ends for a reach of `r` km: `r` itself on land, else the shore of
 * the farthest land before it (0 when there is none). It grows with `r`, so contours of growing
 * budgets nest.
 */
function farthestLand(land: ReturnType<typeof landAlong>, k: number, r: number): number {
  let end = 0
  for (const [from, to] of land[k]!) {
    if (from > r) break
    end = Math.min(r, to)
  }
  return end
}

/**
 * A counter-clockwise ring (RFC 7946) with a vertex per bearing, at the contour's reach ended on
 * the farthest land within it (but at least 100 m, so no ring collapses onto its origin).
 */
function polygon(origin: Point, radii: readonly number[], reach: ReturnType<typeof landAlong>) {
  const ring = radii.map((r, k): [number, number] => {
    const km = Math.max(farthestLand(reach, k, r), Math.min(r, 0.1))
    const p = offset(origin, (k / BEARINGS) * Math.PI * 2, km)
    return [round6(p.lng), round6(p.lat)]
  })
  return { type: 'Polygon' as const, coordinates: [[...ring, ring[0]!]] }
}
