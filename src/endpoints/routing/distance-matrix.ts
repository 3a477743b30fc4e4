import type { DistanceMatrixResponse } from '../../contract/openapi.ts'
import { body } from '../body.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError } from '../params.ts'
import { roadGraph, search, snap } from './road-graph.ts'
import { PROFILES, UNREACHABLE_WHY } from './road-model.ts'
import { legTotals } from './route.ts'

const METRICS = ['duration', 'distance'] as const

/**
 * `POST /distance-matrix`: durations (s) and distances (m) for every origin x destination pair,
 * at most 25 x 25, with the points echoed in request order, by the roads `/routing/direction`
 * follows (the same figures). A metric left out of `metrics` is left out of the answer. A point no
 * road joins to the others (at sea, abroad, an island without a crossing) is a 400 naming its list.
 * @example distanceMatrix({ url, seed: 'demo', body: { origins: [a], destinations: [b] } })
 */
export function distanceMatrix(ctx: EndpointContext): DistanceMatrixResponse {
  const params = body(ctx.body as Record<string, unknown>)
  const origins = params.points('origins', { min: 1, max: 25 })
  const destinations = params.points('destinations', { min: 1, max: 25 })
  const profile = params.oneOf('profile', PROFILES, 'driving')
  const metrics = params.subset('metrics', METRICS, METRICS)
  const g = roadGraph()
  const reach = (p: { lat: number; lng: number }, param: string) => {
    const s = snap(g, p, profile)
    if (!s) throw new ParamError('invalid-param', param, UNREACHABLE_WHY)
    return s
  }
  const targets = destinations.map((d) => reach(d, 'destinations'))
  // One tree, filled again for each origin (its row is read before the next search).
  let buffer: ReturnType<typeof search> | undefined
  const cells = origins.map((o) => {
    const from = reach(o, 'origins')
    const tree = search(
      g,
      from,
      profile,
      {},
      'duration',
      Number.POSITIVE_INFINITY,
      undefined,
      targets,
      buffer,
    )
    buffer = tree
    return targets.map((to) => {
      const cell = legTotals(g, from, to, tree, profile, {})
      if (!cell) throw new ParamError('invalid-param', 'destinations', UNREACHABLE_WHY)
      return cell
    })
  })
  return {
    ...(metrics.includes('duration') && { durations: cells.map((row) => row.map((c) => c.duration)) }),
    ...(metrics.includes('distance') && { distances: cells.map((row) => row.map((c) => c.distance)) }),
    origins,
    destinations,
  }
}
