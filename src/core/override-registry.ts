import type { TmapsOverride, TmapsOverrideResult, TmapsScenario } from '../endpoints/override-types.ts'
import { ENDPOINT_NAMES, type TmapsEndpointAnswers, type TmapsEndpointName } from '../endpoints/registry.ts'
import { TIMES } from '../validate/validate.ts'

export type { TmapsEndpointAnswers, TmapsEndpointName, TmapsOverride }

interface Entry {
  endpoint: string
  resolver: TmapsOverride<TmapsEndpointName>
  remaining: number | null
}

const NAMES: readonly string[] = ENDPOINT_NAMES

/**
 * What `override` answers `endpoint` with: itself (a resolver) or its resolver of that endpoint (a
 * scenario, `TmapsScenario`); `undefined` when it is neither. Where a typed resolver is kept
 * beside the others, whatever its endpoint (its type then says no more than "an override").
 */
export function resolverFor(
  endpoint: TmapsEndpointName,
  override: unknown,
): TmapsOverride<TmapsEndpointName> | undefined {
  const resolver =
    typeof override === 'object' && override !== null && Object.hasOwn(override, endpoint)
      ? (override as Record<string, unknown>)[endpoint]
      : override
  return typeof resolver === 'function' ? (resolver as TmapsOverride<TmapsEndpointName>) : undefined
}

/** The overrides of one mock: `use` adds one (newest first), `take` hands the one a request gets. */
export function createOverrides() {
  let entries: Entry[] = []
  return {
    use<E extends TmapsEndpointName>(
      endpoint: E,
      resolver: TmapsOverride<E> | TmapsScenario<E>,
      { times }: { times?: number } = {},
    ): () => void {
      if (!NAMES.includes(endpoint))
        throw new TypeError(
          `Failed to override ${JSON.stringify(endpoint)}: no such endpoint. Use one of ${NAMES.join(', ')}.`,
        )
      const run = resolverFor(endpoint, resolver)
      if (run === undefined)
        throw new TypeError(
          `Failed to override ${endpoint}: the resolver is neither a function nor a scenario of ${endpoint} (see SCENARIO_ENDPOINTS).`,
        )
      if (times !== undefined && !TIMES.test(times))
        throw new TypeError(`Failed to override ${endpoint}: times is ${times}. Use ${TIMES.says}.`)
      const entry: Entry = { endpoint, resolver: run, remaining: times ?? null }
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
