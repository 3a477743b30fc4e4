import type { TmapsErrorBody } from '../contract/openapi.ts'
import { ENDPOINT_NAMES, type TmapsEndpointAnswers, type TmapsEndpointName } from '../endpoints/registry.ts'

export type { TmapsEndpointAnswers, TmapsEndpointName }

/**
 * What an override's resolver receives: the request, its parameters, and the mock's own answer.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsOverrideContext } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const seen: string[] = []
 * mock.use('geocoding/forward', async ({ params, answer }: TmapsOverrideContext<'geocoding/forward'>) => {
 *   seen.push(params.q ?? '')
 *   return answer() // the mock's own answer, typed
 * })
 * await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`))
 * assert.deepEqual(seen, ['Sfax'])
 * ```
 */
export interface TmapsOverrideContext<E extends TmapsEndpointName> {
  /** The request as the mock received it. */
  request: { method: string; url: string; headers: Pick<Headers, 'get'> }
  /** Its query parameters (the first value of each) and path parameters (`z`, `x`, `y`), as sent; never `api_key`. */
  params: Readonly<Record<string, string | undefined>>
  /** The mock's own answer; rejects as the endpoint would (a 400 for a bad parameter) if left unhandled. */
  answer(): Promise<TmapsEndpointAnswers[E]>
}

/**
 * What an override answers: a typed body (200), a status with a body (an error is `{ error }`), or a `Response`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsOverrideResult } from 'tmaps-mock'
 *
 * const busy: TmapsOverrideResult<'distance-matrix'> = { status: 500, body: { error: 'internal error' } }
 * assert.equal('status' in busy && busy.status, 500)
 * ```
 */
export type TmapsOverrideResult<E extends TmapsEndpointName> =
  | TmapsEndpointAnswers[E]
  | { status: number; body: TmapsEndpointAnswers[E] | TmapsErrorBody }
  | Response

/**
 * An override: called instead of the endpoint, only for requests the contract accepted.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsOverride } from 'tmaps-mock'
 *
 * const noResults: TmapsOverride<'geocoding/forward'> = ({ params }) => ({ query: params.q ?? '', results: [] })
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * mock.use('geocoding/forward', noResults)
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`))
 * assert.deepEqual(await response.json(), { query: 'Sfax', results: [] })
 * ```
 */
export type TmapsOverride<E extends TmapsEndpointName> = (
  context: TmapsOverrideContext<E>,
) => TmapsOverrideResult<E> | Promise<TmapsOverrideResult<E>>

interface Entry {
  endpoint: string
  resolver: TmapsOverride<TmapsEndpointName>
  remaining: number | null
}

const NAMES: readonly string[] = ENDPOINT_NAMES

/** The overrides of one mock: `use` adds one (newest first), `take` hands the one a request gets. */
export function createOverrides() {
  let entries: Entry[] = []
  return {
    use<E extends TmapsEndpointName>(
      endpoint: E,
      resolver: TmapsOverride<E>,
      { times }: { times?: number } = {},
    ): () => void {
      if (!NAMES.includes(endpoint))
        throw new TypeError(
          `Failed to override ${JSON.stringify(endpoint)}: no such endpoint. Use one of ${NAMES.join(', ')}.`,
        )
      if (typeof resolver !== 'function')
        throw new TypeError(`Failed to override ${endpoint}: the resolver is not a function.`)
      if (times !== undefined && !(Number.isInteger(times) && times > 0))
        throw new TypeError(`Failed to override ${endpoint}: times is ${times}. Use a whole number from 1.`)
      const entry: Entry = {
        endpoint,
        resolver: resolver as unknown as TmapsOverride<TmapsEndpointName>,
        remaining: times ?? null,
      }
      entries = [entry, ...entries]
      return () => {
        entries = entries.filter((e) => e !== entry)
      }
    },
    /** The override this request uses up, if any. */
    take(endpoint: string): Entry['resolver'] | undefined {
      const entry = entries.find((e) => e.endpoint === endpoint)
      if (!entry) return undefined
      if (entry.remaining !== null && --entry.remaining === 0) entries = entries.filter((e) => e !== entry)
      return entry.resolver
    },
    get size() {
      return entries.length
    },
    clear() {
      entries = []
    },
  }
}

/** An override's result as a status, a body and its type. */
export async function overrideAnswer(result: TmapsOverrideResult<TmapsEndpointName>): Promise<{
  status: number
  bytes: Uint8Array<ArrayBuffer>
  contentType: string
  headers?: Record<string, string>
}> {
  if (result instanceof Response) {
    // Its own headers (Retry-After, ...) are kept; the mock sets the type, the length and CORS.
    const headers: Record<string, string> = {}
    result.headers.forEach((value, name) => {
      if (!/^(content-type|content-length|access-control-|vary$)/.test(name)) headers[name] = value
    })
    return {
      status: result.status,
      bytes: new Uint8Array(await result.arrayBuffer()),
      contentType: result.headers.get('content-type') ?? 'application/octet-stream',
      headers,
    }
  }
  if (result instanceof Uint8Array) return { status: 200, bytes: result, contentType: 'image/png' }
  const withStatus =
    typeof result === 'object' && result !== null && 'status' in result && 'body' in result
      ? (result as { status: number; body: unknown })
      : undefined
  const body = withStatus ? withStatus.body : result
  const status = withStatus ? withStatus.status : 200
  if (body instanceof Uint8Array)
    return { status, bytes: body as Uint8Array<ArrayBuffer>, contentType: 'image/png' }
  return { status, bytes: new TextEncoder().encode(JSON.stringify(body)), contentType: 'application/json' }
}
