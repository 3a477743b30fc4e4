import type { World } from '../data/world.ts'
import type { TmapsRenderer } from '../jobs/protocol.ts'
/**
 * The context an endpoint is called with, whichever thread calls it: the world of `seed` is
 * loaded on the first call of `world()`.
 * @example
 * endpointContext(new URL('https://api.tmaps.tn/geocoding/forward?q=Sfax'), {}, undefined, 'tmaps', inThread)
 */
export function endpointContext(
  url: URL,
  params: Readonly<Record<string, string>>,
  body: unknown,
  seed: string | number,
  renderer: TmapsRenderer,
): EndpointContext {
  return {
    url,
    params,
    body,
    seed,
    renderer,
    world: () => import('../data/world.ts').then((m) => m.worldFor(seed)),
  }
}

/** What an endpoint receives once the contract has accepted the request. */
export interface EndpointContext {
  url: URL
  /** The path's parameters by name (`/r-tile/:z/:x/:y` gives `z`, `x`, `y`), as sent. */
  params: Readonly<Record<string, string>>
  /** The parsed JSON body of a POST (validated by the endpoint). */
  body?: unknown
  /** The data seed: same seed, same request, same answer. */
  seed: string | number
  /** Where pictures are drawn (this thread by default, or a Web Worker). */
  renderer: TmapsRenderer
  /**
   * The world of the data seed: its streets, places, geocoder and map, built once per seed and
   * shared by every endpoint (loaded on first use, so a mock that never geocodes never builds it).
   */
  world(): Promise<World>
}

interface EndpointBase {
  /** Its name in usage reports and the log, e.g. `geocoding/forward`. */
  name: string
  host: 'api' | 'tiles'
  method: 'GET' | 'POST'
  /** The path, with `:name` for a parameter segment (`/r-tile/:z/:x/:y`). */
  path: string
  /** The query parameters it reads, `api_key` first: any other is ignored (and the log says so). */
  query: readonly string[]
}

/** An endpoint that answers JSON (`application/json`). */
interface JsonEndpoint extends EndpointBase {
  answers: 'json'
  /** Answers 200 with this JSON, or throws a `ParamError` (400) or `NotFoundError` (404). */
  handle(ctx: EndpointContext): unknown
}

/** An endpoint that answers a picture (`image/png`); its errors are JSON like every other. */
interface PngEndpoint extends EndpointBase {
  answers: 'png'
  /** Answers 200 with these PNG bytes, or throws a `ParamError` (400) or `NotFoundError` (404). */
  handle(ctx: EndpointContext): Promise<Uint8Array<ArrayBuffer>>
}

/** One documented TMaps operation. */
export type Endpoint = JsonEndpoint | PngEndpoint

/** What the endpoint answers on success: the `Content-Type` of each kind. */
export const CONTENT_TYPES = { json: 'application/json', png: 'image/png' } as const
