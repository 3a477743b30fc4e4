import type { DistanceMatrixResponse } from '../../contract/openapi.ts'
import { body } from '../body.ts'
import type { EndpointContext } from '../endpoint.ts'
import { leg, PROFILES } from './road-model.ts'

const METRICS = ['duration', 'distance'] as const

/**
 * `POST /distance-matrix`: durations (s) and distances (m) for every origin x destination pair,
 * at most 25 x 25, with the points echoed in request order. A metric left out of `metrics` is
 * left out of the answer.
 * @example distanceMatrix({ url, seed: 'demo', body: { origins: [a], destinations: [b] } })
 */
export function distanceMatrix(ctx: EndpointContext): DistanceMatrixResponse {
  const params = body(ctx.body as Record<string, unknown>)
  const origins = params.points('origins', { min: 1, max: 25 })
  const destinations = params.points('destinations', { min: 1, max: 25 })
  const profile = params.oneOf('profile', PROFILES, 'driving')
  const metrics = params.subset('metrics', METRICS, METRICS)
  const cells = origins.map((o) => destinations.map((d) => leg(o, d, profile)))
  return {
    ...(metrics.includes('duration') && { durations: cells.map((row) => row.map((c) => c.duration)) }),
    ...(metrics.includes('distance') && { distances: cells.map((row) => row.map((c) => c.distance)) }),
    origins,
    destinations,
  }
}
