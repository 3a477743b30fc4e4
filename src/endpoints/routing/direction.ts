import type { DirectionResponse } from '../../contract/openapi.ts'
import { distanceKm } from '../../data/geo.ts'
import { LANGS } from '../../data/lang.ts'
import { body } from '../body.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError, query } from '../params.ts'
import { type Point, PROFILES, UNREACHABLE_WHY } from './road-model.ts'
import { AVOIDABLE, GEOMETRIES, type Route, type RouteOptions, route, Unreachable } from './route.ts'

/** Trips shorter than this (straight line, km) have no alternative routes. */
const ALTERNATIVES_FROM_KM = 1

/** What the query and body readers have in common: the options read the same from both. */
interface OptionReader {
  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T
  bool(name: string, fallback: boolean): boolean
  list<T extends string>(name: string, values: readonly T[]): T[] | undefined
}

function options(params: OptionReader, seed: string | number) {
  const avoid = params.list('avoid', AVOIDABLE) ?? []
  return {
    options: {
      profile: params.oneOf('profile', PROFILES, 'driving'),
      geometry: params.oneOf('geometry', GEOMETRIES, 'polyline'),
      steps: params.bool('steps', false),
      // Directions name it `language`, not `lang` as geocoding does.
      language: params.oneOf('language', LANGS, 'fr'),
      avoid: Object.fromEntries(avoid.map((a) => [a, true])),
      seed,
    },
    alternatives: params.bool('alternatives', false),
  }
}

/**
 * `GET /routing/direction?from=lat,lng&to=lat,lng`: the route between two points.
 * @example
 * directionGet({
 *   url: new URL('https://api.tmaps.tn/routing/direction?from=36.8002,10.1815&to=36.8528,10.3261'),
 *   seed: 'demo',
 * })
 */
export function directionGet(ctx: EndpointContext): DirectionResponse {
  const params = query(ctx.url.searchParams)
  const from = params.requiredLatLng('from')
  const to = params.requiredLatLng('to')
  return answer([from, to], options(params, ctx.seed), (i) => (i === 0 ? 'from' : 'to'))
}

/**
 * `POST /routing/direction` with `{ waypoints: [{lat, lng}, ...] }` (2 to 25, in order) and the
 * same options as the GET form.
 */
export function directionPost(ctx: EndpointContext): DirectionResponse {
  const params = body(ctx.body as Record<string, unknown>)
  return answer(params.points('waypoints', { min: 2, max: 25 }), options(params, ctx.seed), () => 'waypoints')
}

/**
 * The answer of both forms: the best route's `distance`, `duration`, `geometry` and `legs` at
 * the top (as `/routing/optimized` answers), the waypoints echoed, and with `alternatives: true`
 * up to 2 longer routes in `alternatives` (other roads between the same stops; fewer when there
 * are none). A waypoint no road reaches (at sea, abroad, an island without a crossing) is a 400
 * `invalid param: <name> (no road reaches it: ...)`, never a line across the water.
 */
function answer(
  waypoints: Point[],
  { options, alternatives }: { options: RouteOptions; alternatives: boolean },
  param: (index: number) => string,
): Route & { waypoints: Point[]; alternatives?: Route[] } {
  try {
    const best = route(waypoints, options)
    let straightKm = 0
    let previous: Point | undefined
    for (const p of waypoints) {
      if (previous) straightKm += distanceKm(previous, p)
      previous = p
    }
    const others: Route[] = []
    if (alternatives && straightKm >= ALTERNATIVES_FROM_KM)
      for (const v of [1, 2]) {
        const other = route(waypoints, options, v)
        const seen = [best, ...others].some(
          (r) =>
            r.geometry === other.geometry ||
            (typeof r.geometry === 'object' && JSON.stringify(r.geometry) === JSON.stringify(other.geometry)),
        )
        if (!seen && other.distance > best.distance) others.push(other)
      }
    return { ...best, waypoints, ...(alternatives && { alternatives: others }) }
  } catch (error) {
    if (error instanceof Unreachable)
      throw new ParamError('invalid-param', param(error.index), UNREACHABLE_WHY)
    throw error
  }
}
