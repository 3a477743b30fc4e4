import type {
  DirectionResponse,
  DistanceMatrixResponse,
  ForwardGeocodingResponse,
  IsochroneResponse,
  NearbySearchResponse,
  OptimizedRouteResponse,
  ReverseGeocodingResponse,
} from '../contract/openapi.ts'
import type { Endpoint, EndpointContext } from './endpoint.ts'
import { rasterTile } from './maps/raster-tile.ts'

/** A handler's module, loaded on its first request (see `lazy`). */
type Load = () => Promise<(ctx: EndpointContext) => unknown>

/** One TMaps operation of an endpoint: method, path, the query parameters it reads, its handler. */
type Operation = {
  method: 'GET' | 'POST'
  /** With `:name` for a parameter segment (`/r-tile/:z/:x/:y`). */
  path: string
  /** The query parameters it reads besides `api_key` (a POST reads its options from the JSON body). */
  query?: readonly string[]
} & OperationHandler
/** Its handler's module, loaded on the first request (`load`); or the handler itself (`handle`). */
type OperationHandler =
  | { load: Load; handle?: undefined }
  | { handle: (ctx: EndpointContext) => unknown; load?: undefined }

/**
 * An endpoint, defined once beside the others: its host, what it answers (`A`, the document's 200
 * body or PNG bytes: a type only), and its operations. Everything else is derived from the table
 * below: `ENDPOINTS` and their lazy handlers, the names, the query parameters the log warns by
 * (`QUERY_PARAMS`), and the override types (`TmapsEndpointAnswers`).
 */
interface Definition<A> {
  host: 'api' | 'tiles'
  answers: 'json' | 'png'
  operations: readonly Operation[]
  /** Never set: carries the answer's type. */
  readonly answer?: A
}
const define = <A>(definition: Omit<Definition<A>, 'answer'>): Definition<A> => definition

/**
 * An endpoint's handler, loaded on its first request: a server or a page that never geocodes
 * never loads the geocoder, its data or faker (the server starts faster and idles smaller; the
 * browser splits them into their own chunks).
 */
function lazy(load: Load): (ctx: EndpointContext) => Promise<unknown> {
  let handler: ((ctx: EndpointContext) => unknown) | undefined
  return async (ctx: EndpointContext) => {
    handler ??= await load()
    return handler(ctx)
  }
}

/** Every TMaps endpoint the mock answers, by name: to add one, add it here (docs/architecture.md). */
const DEFINITIONS = {
  'geocoding/forward': define<ForwardGeocodingResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'GET',
        path: '/geocoding/forward',
        query: ['q', 'country', 'limit', 'lang', 'proximity', 'bbox', 'type'],
        load: () => import('./geocoding/forward.ts').then((m) => m.forwardGeocoding),
      },
    ],
  }),
  'geocoding/reverse': define<ReverseGeocodingResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'GET',
        path: '/geocoding/reverse',
        query: ['lat', 'lng', 'lang', 'type', 'limit'],
        load: () => import('./geocoding/reverse.ts').then((m) => m.reverseGeocoding),
      },
    ],
  }),
  'geocoding/nearby': define<NearbySearchResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'GET',
        path: '/geocoding/nearby',
        query: ['lat', 'lng', 'radius', 'categories', 'q', 'limit', 'lang'],
        load: () => import('./geocoding/nearby.ts').then((m) => m.nearbySearch),
      },
    ],
  }),
  'routing/direction': define<DirectionResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'GET',
        path: '/routing/direction',
        query: ['from', 'to', 'profile', 'geometry', 'steps', 'alternatives', 'avoid', 'language'],
        load: () => import('./routing/direction.ts').then((m) => m.directionGet),
      },
      {
        method: 'POST',
        path: '/routing/direction',
        load: () => import('./routing/direction.ts').then((m) => m.directionPost),
      },
    ],
  }),
  'routing/optimized': define<OptimizedRouteResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'POST',
        path: '/routing/optimized',
        load: () => import('./routing/optimized.ts').then((m) => m.optimizedTour),
      },
    ],
  }),
  'routing/isochrone': define<IsochroneResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'POST',
        path: '/routing/isochrone',
        load: () => import('./routing/isochrone.ts').then((m) => m.isochrone),
      },
    ],
  }),
  'distance-matrix': define<DistanceMatrixResponse>({
    host: 'api',
    answers: 'json',
    operations: [
      {
        method: 'POST',
        path: '/distance-matrix',
        load: () => import('./routing/distance-matrix.ts').then((m) => m.distanceMatrix),
      },
    ],
  }),
  'maps/static': define<Uint8Array<ArrayBuffer>>({
    host: 'api',
    answers: 'png',
    operations: [
      {
        method: 'GET',
        path: '/maps/static',
        query: ['center', 'zoom', 'bbox', 'size', 'style', 'format', 'marker', 'path', 'polygon'],
        load: () => import('./maps/static-map.ts').then((m) => m.staticMap),
      },
    ],
  }),
  // Tiles come many at once on a map's first view: their endpoint (a few lines; the renderer is
  // `ctx.renderer`, loaded on its own) is not a chunk of its own to wait for.
  'r-tile': define<Uint8Array<ArrayBuffer>>({
    host: 'tiles',
    answers: 'png',
    operations: [{ method: 'GET', path: '/r-tile/:z/:x/:y', handle: rasterTile }],
  }),
}

/**
 * What each endpoint answers on success, by its name: the document's 200 bodies, or PNG bytes.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsEndpointAnswers } from 'tmaps-mock'
 *
 * const empty: TmapsEndpointAnswers['geocoding/forward'] = { query: 'Nowhere', results: [] }
 * assert.equal(empty.results.length, 0)
 * ```
 */
export type TmapsEndpointAnswers = {
  [N in keyof typeof DEFINITIONS]: (typeof DEFINITIONS)[N] extends Definition<infer A> ? A : never
}

/**
 * An endpoint's name, as `mock.use`, usage reports and the log name it (`geocoding/forward`, `r-tile`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { ENDPOINTS, type TmapsEndpointName } from 'tmaps-mock'
 *
 * const names: TmapsEndpointName[] = ['geocoding/forward', 'r-tile']
 * assert.ok(names.every((name) => ENDPOINTS.some((endpoint) => endpoint.name === name)))
 * ```
 */
export type TmapsEndpointName = keyof TmapsEndpointAnswers

/** Every endpoint's name, in the table's order. */
export const ENDPOINT_NAMES: readonly TmapsEndpointName[] = Object.keys(DEFINITIONS).filter(
  (name): name is TmapsEndpointName => name in DEFINITIONS,
)

/**
 * Every TMaps operation the mock answers: name, host, method, path and the query parameters it reads.
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
export const ENDPOINTS: readonly Endpoint[] = ENDPOINT_NAMES.flatMap((name) => {
  const { host, answers, operations } = DEFINITIONS[name] as Definition<unknown>
  return operations.map((op): Endpoint => {
    const handle = op.load ? lazy(op.load) : op.handle
    const base = { name, host, method: op.method, path: op.path, query: ['api_key', ...(op.query ?? [])] }
    return answers === 'png'
      ? { ...base, answers, handle: handle as (ctx: EndpointContext) => Promise<Uint8Array<ArrayBuffer>> }
      : { ...base, answers, handle }
  })
})

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
/** A segment of a path pattern: `:name` takes one whole segment, any other is itself. */
type Segment = { param: string } | { literal: string }
const compiled = ENDPOINTS.filter((e) => e.path.includes(':')).map((endpoint) => ({
  endpoint,
  segments: endpoint.path
    .split('/')
    .map((s): Segment => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s })),
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
      const part = parts[i]
      if (part === undefined) return false // as many parts as segments: never
      if ('literal' in segment) return segment.literal === part
      if (part === '') return false
      params[segment.param] = part
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
