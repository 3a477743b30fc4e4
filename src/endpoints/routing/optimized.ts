import type { OptimizedRouteResponse } from '../../contract/openapi.ts'
import { LANGS } from '../../data/lang.ts'
import { must } from '../../validate/must.ts'
import { body } from '../body.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError } from '../params.ts'
import { roadGraph, STREET_RING, search, snap, type Tree } from './road-graph.ts'
import { PROFILES, UNREACHABLE_WHY } from './road-model.ts'
import { GEOMETRIES, legTotals, route } from './route.ts'
import { solveTour } from './tour.ts'

const OPTIMIZE = ['duration', 'distance'] as const
/** The cells around each stop whose streets a tour's order is chosen on (a route's: `STREET_RING`). */
const TOUR_RING = 1

/**
 * `POST /routing/optimized`: visits every waypoint once from `origin`, in the order that
 * minimizes `optimize` (duration or distance), ending at `destination`, back at `origin`
 * (`roundtrip`), or at the last stop. `order[k]` is the index in the input `waypoints` of the
 * k-th stop visited; `legs` follow the tour, each the fastest (`duration`) or the shortest
 * (`distance`) way, as the order was chosen.
 * @example optimizedTour({ url, seed: 'demo', body: { origin, waypoints: [a, b, c], roundtrip: true } })
 */
export function optimizedTour(ctx: EndpointContext): OptimizedRouteResponse {
  const params = body(ctx.body as Record<string, unknown>)
  const origin = params.requiredPoint('origin')
  const waypoints = params.points('waypoints', { min: 1, max: 50 })
  const destination = params.point('destination')
  const profile = params.oneOf('profile', PROFILES, 'driving')
  const optimize = params.oneOf('optimize', OPTIMIZE, 'duration')
  const roundtrip = params.bool('roundtrip', false)
  const geometry = params.oneOf('geometry', GEOMETRIES, 'polyline')
  const steps = params.bool('steps', false)
  const language = params.oneOf('language', LANGS, 'fr')
  // A round trip ends at the origin; a destination elsewhere contradicts it.
  if (roundtrip && destination) throw new ParamError('invalid-param', 'roundtrip')

  const end = destination ?? (roundtrip ? origin : undefined)
  const nodes = [origin, ...waypoints, ...(end ? [end] : [])]
  // One search a point on the road graph; a point no road reaches is a 400 naming it.
  const g = roadGraph()
  const name = (i: number) => (i === 0 ? 'origin' : i <= waypoints.length ? 'waypoints' : 'destination')
  const snaps = nodes.map((p, i) => {
    const s = snap(g, p, profile)
    if (!s) throw new ParamError('invalid-param', name(i), UNREACHABLE_WHY)
    return s
  })
  // One search tree, filled again for each stop. The order is chosen on the streets of the stops'
  // nearest cells (`TOUR_RING`: a tour's stops cover a town, and every search would take all its
  // streets otherwise); a stop those do not reach is costed again on a route's (`STREET_RING`).
  let tree: Tree | undefined
  const row = (a: (typeof snaps)[number], ring: number) => {
    const from = search(g, a, profile, {}, optimize, Number.POSITIVE_INFINITY, undefined, snaps, tree, ring)
    tree = from
    return snaps.map((b) => legTotals(g, a, b, from, profile, {}, optimize)?.[optimize])
  }
  const cost = snaps.map((a, i) => {
    const near = row(a, TOUR_RING)
    const costs = near.every((c) => c !== undefined) ? near : row(a, STREET_RING)
    return costs.map((c, j) => {
      if (c === undefined) throw new ParamError('invalid-param', name(Math.max(i, j)), UNREACHABLE_WHY)
      return c
    })
  })
  const order = solveTour(cost, end !== undefined)
  const stops = [
    origin,
    ...order.map((i) => must(waypoints[i], 'the tour visits a waypoint that is not there')),
    ...(end ? [end] : []),
  ]
  const tour = route(stops, {
    profile,
    avoid: {},
    geometry,
    steps,
    language,
    seed: ctx.seed,
    metric: optimize,
  })
  return { distance: tour.distance, duration: tour.duration, order, geometry: tour.geometry, legs: tour.legs }
}
