import type { Endpoint } from './endpoint.ts'
import { forwardGeocoding } from './geocoding/forward.ts'
import { nearbySearch } from './geocoding/nearby.ts'
import { reverseGeocoding } from './geocoding/reverse.ts'
import { directionGet, directionPost } from './routing/direction.ts'
import { distanceMatrix } from './routing/distance-matrix.ts'
import { isochrone } from './routing/isochrone.ts'
import { optimizedTour } from './routing/optimized.ts'

/** Every TMaps operation the mock answers. */
// biome-ignore format: a table reads best with one endpoint a line
export const ENDPOINTS: readonly Endpoint[] = [
  { name: 'geocoding/forward', host: 'api', method: 'GET', path: '/geocoding/forward', handle: forwardGeocoding },
  { name: 'geocoding/reverse', host: 'api', method: 'GET', path: '/geocoding/reverse', handle: reverseGeocoding },
  { name: 'geocoding/nearby', host: 'api', method: 'GET', path: '/geocoding/nearby', handle: nearbySearch },
  { name: 'routing/direction', host: 'api', method: 'GET', path: '/routing/direction', handle: directionGet },
  { name: 'routing/direction', host: 'api', method: 'POST', path: '/routing/direction', handle: directionPost },
  { name: 'routing/optimized', host: 'api', method: 'POST', path: '/routing/optimized', handle: optimizedTour },
  { name: 'routing/isochrone', host: 'api', method: 'POST', path: '/routing/isochrone', handle: isochrone },
  { name: 'distance-matrix', host: 'api', method: 'POST', path: '/distance-matrix', handle: distanceMatrix },
]

const routes = new Map(ENDPOINTS.map((e) => [`${e.host} ${e.method} ${e.path}`, e]))
const paths = new Map(ENDPOINTS.map((e) => [`${e.host} ${e.path}`, e]))

/**
 * The endpoint for a host, method and path; `undefined` for an unknown path or a wrong method
 * (both answer 404, as the contract says). A trailing slash is not the same path.
 * @example findEndpoint('api', 'GET', '/geocoding/forward')?.name // 'geocoding/forward'
 */
export function findEndpoint(host: 'api' | 'tiles', method: string, path: string): Endpoint | undefined {
  return routes.get(`${host} ${method} ${path}`)
}

/** The endpoint name of a path whatever the method (for usage counts), or `unknown`. */
export function endpointName(host: 'api' | 'tiles', path: string): string {
  return paths.get(`${host} ${path}`)?.name ?? 'unknown'
}
