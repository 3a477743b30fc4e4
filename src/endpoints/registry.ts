import type { Endpoint, EndpointContext } from './endpoint.ts'
// Tiles come many at once on a map's first view: their endpoint (a few lines; the renderer is
// `ctx.renderer`, loaded on its own) is not a chunk of its own to wait for.
import { rasterTile } from './maps/raster-tile.ts'

/**
 * An endpoint's handler, loaded on its first request: a server or a page that never geocodes
 * never loads the geocoder, its data or faker (the server starts faster and idles smaller; the
 * browser splits them into their own chunks).
 */
function lazy<M>(load: () => Promise<M>, pick: (module: M) => (ctx: EndpointContext) => unknown) {
  let handler: ((ctx: EndpointContext) => unknown) | undefined
  return async (ctx: EndpointContext) => {
    handler ??= pick(await load())
    return handler(ctx)
  }
}

const forward = lazy(
  () => import('./geocoding/forward.ts'),
  (m) => m.forwardGeocoding,
)
const reverse = lazy(
  () => import('./geocoding/reverse.ts'),
  (m) => m.reverseGeocoding,
)
const nearby = lazy(
  () => import('./geocoding/nearby.ts'),
  (m) => m.nearbySearch,
)
const directionGet = lazy(
  () => import('./routing/direction.ts'),
  (m) => m.directionGet,
)
const directionPost = lazy(
  () => import('./routing/direction.ts'),
  (m) => m.directionPost,
)
const optimized = lazy(
  () => import('./routing/optimized.ts'),
  (m) => m.optimizedTour,
)
const isochrone = lazy(
  () => import('./routing/isochrone.ts'),
  (m) => m.isochrone,
)
const matrix = lazy(
  () => import('./routing/distance-matrix.ts'),
  (m) => m.distanceMatrix,
)
const staticMap = lazy(
  () => import('./maps/static-map.ts'),
  (m) => m.staticMap,
) as (c: EndpointContext) => Promise<Uint8Array<ArrayBuffer>>

/**
 * Every TMaps operation the mock answers: name, host, method and path.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { ENDPOINTS } from 'tmaps-mock'
 *
 * const routes = ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`)
 * assert.ok(routes.includes('GET /geocoding/forward'))
 * assert.ok(routes.includes('GET /r-tile/:z/:x/:y')) // on the tiles host
 * ```
 */
// biome-ignore format: a table reads best with one endpoint a line
export const ENDPOINTS: readonly Endpoint[] = [
  { name: 'geocoding/forward', host: 'api', method: 'GET', path: '/geocoding/forward', answers: 'json', handle: forward },
  { name: 'geocoding/reverse', host: 'api', method: 'GET', path: '/geocoding/reverse', answers: 'json', handle: reverse },
  { name: 'geocoding/nearby', host: 'api', method: 'GET', path: '/geocoding/nearby', answers: 'json', handle: nearby },
  { name: 'routing/direction', host: 'api', method: 'GET', path: '/routing/direction', answers: 'json', handle: directionGet },
  { name: 'routing/direction', host: 'api', method: 'POST', path: '/routing/direction', answers: 'json', handle: directionPost },
  { name: 'routing/optimized', host: 'api', method: 'POST', path: '/routing/optimized', answers: 'json', handle: optimized },
  { name: 'routing/isochrone', host: 'api', method: 'POST', path: '/routing/isochrone', answers: 'json', handle: isochrone },
  { name: 'distance-matrix', host: 'api', method: 'POST', path: '/distance-matrix', answers: 'json', handle: matrix },
  { name: 'maps/static', host: 'api', method: 'GET', path: '/maps/static', answers: 'png', handle: staticMap },
  { name: 'r-tile', host: 'tiles', method: 'GET', path: '/r-tile/:z/:x/:y', answers: 'png', handle: rasterTile },
]

/** An endpoint matched to a request, with its path parameters. */
export interface ResolvedEndpoint {
  endpoint: Endpoint
  params: Record<string, string>
}

/** Exact paths in a map (one lookup); patterns compiled once: `:name` takes one whole segment. */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>
// Paths without parameters resolve to one frozen answer each (no object made per request).
const resolvedOf = (e: Endpoint): ResolvedEndpoint => Object.freeze({ endpoint: e, params: NO_PARAMS })
const exact = new Map(
  ENDPOINTS.filter((e) => !e.path.includes(':')).map((e) => [
    `${e.host} ${e.method} ${e.path}`,
    resolvedOf(e),
  ]),
)
const exactPaths = new Map(
  ENDPOINTS.filter((e) => !e.path.includes(':')).map((e) => [`${e.host} ${e.path}`, resolvedOf(e)]),
)
const compiled = ENDPOINTS.filter((e) => e.path.includes(':')).map((endpoint) => ({
  endpoint,
  segments: endpoint.path.split('/').map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s })),
}))

function match(host: 'api' | 'tiles', path: string, method?: string): ResolvedEndpoint | undefined {
  const found =
    method === undefined ? exactPaths.get(`${host} ${path}`) : exact.get(`${host} ${method} ${path}`)
  if (found) return found
  const parts = path.split('/')
  for (const { endpoint, segments } of compiled) {
    if (endpoint.host !== host || (method !== undefined && endpoint.method !== method)) continue
    if (segments.length !== parts.length) continue
    const params: Record<string, string> = {}
    const ok = segments.every((segment, i) => {
      const part = parts[i]!
      if ('literal' in segment) return segment.literal === part
      if (part === '') return false
      params[segment.param!] = part
      return true
    })
    if (ok) return { endpoint, params }
  }
  return undefined
}

/**
 * The endpoint for a host, method and path, with its path parameters; `undefined` for an unknown
 * path or a wrong method (both answer 404, as the contract says). One resolver serves every
 * runtime (the core behind the MSW handlers, the HTTPS server, the Playwright adapter). A
 * trailing slash is not the same path.
 * @example resolveEndpoint('tiles', 'GET', '/r-tile/6/33/25')?.params // { z: '6', x: '33', y: '25' }
 */
export function resolveEndpoint(
  host: 'api' | 'tiles',
  method: string,
  path: string,
): ResolvedEndpoint | undefined {
  return match(host, path, method)
}

/** The endpoint name of a path whatever the method (for usage counts), or `unknown`. */
export function endpointName(host: 'api' | 'tiles', path: string): string {
  return match(host, path)?.endpoint.name ?? 'unknown'
}

/** The first path segment of each tiles-host endpoint (`/r-tile/`), from the table above. */
const TILE_PREFIXES = ENDPOINTS.filter((e) => e.host === 'tiles').map((e) => `/${e.path.split('/')[1]}/`)

/** Which TMaps host a path belongs to when one origin serves both (the HTTPS server). */
export function hostOfPath(path: string): 'api' | 'tiles' {
  return TILE_PREFIXES.some((prefix) => path.startsWith(prefix)) ? 'tiles' : 'api'
}
