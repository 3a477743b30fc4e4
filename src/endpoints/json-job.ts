import type { JsonJob } from '../jobs/protocol.ts'
import { utf8Json } from '../text/utf8-json.ts'
import { endpointContext } from './endpoint.ts'
import { NotFoundError, ParamError } from './params.ts'
import { ENDPOINTS } from './registry.ts'

/** A query longer than this makes a forward geocode heavy (a long query costs many searches). */
const LONG_QUERY = 48

/**
 * The requests worth another thread: every routing answer (even a two-point route costs many
 * times the thread's round trip) and long forward geocodes. Reverse and nearby searches and
 * ordinary geocodes (cheap, and the most frequent requests) stay in the answering thread, which
 * then needs no thread of its own for an API-only user who geocodes. The figures:
 * docs/performance.md, "Figures behind choices".
 */
export function isHeavy(endpoint: string, url: URL): boolean {
  if (endpoint.startsWith('routing/') || endpoint === 'distance-matrix') return true
  if (endpoint !== 'geocoding/forward' || url.search.length <= LONG_QUERY) return false
  // The URL's own parameters: parsed once, here or by the endpoint, whichever reads them first.
  return (url.searchParams.get('q')?.length ?? 0) > LONG_QUERY
}

/** What a thread posts back about a job that failed as an endpoint fails: rebuilt into its error. */
export type JobFailure =
  | { type: 'param'; rule: ParamError['rule']; param: string; message: string }
  | { type: 'not-found'; message: string; detail: string | undefined }

/** An endpoint's error as data a thread can post, or `undefined` for any other (a bug). */
export function jobFailure(error: unknown): JobFailure | undefined {
  if (error instanceof ParamError)
    return { type: 'param', rule: error.rule, param: error.param, message: error.message }
  if (error instanceof NotFoundError)
    return { type: 'not-found', message: error.message, detail: error.detail }
  return undefined
}

/** The endpoint's error again, in the answering thread. */
export function fromJobFailure(failure: JobFailure): Error {
  if (failure.type === 'not-found') return new NotFoundError(failure.message, failure.detail)
  const error = new ParamError(failure.rule, failure.param)
  error.message = failure.message
  return error
}

/** A JSON job's renderer: it draws nothing. */
const NO_PICTURES = {
  tile: () => Promise.reject(new Error('a JSON job draws no picture')),
  staticMap: () => Promise.reject(new Error('a JSON job draws no picture')),
}

/**
 * Computes a JSON job in this thread, as the answering thread would: the endpoint's answer as
 * UTF-8 JSON bytes. Throws the endpoint's error (see `jobFailure`).
 * @example
 * const bytes = await answerJsonJob('tmaps', {
 *   endpoint: 'routing/direction',
 *   method: 'GET',
 *   href,
 *   params: {},
 * })
 */
export async function answerJsonJob(seed: string | number, job: JsonJob): Promise<Uint8Array<ArrayBuffer>> {
  const endpoint = ENDPOINTS.find(
    (e) => e.name === job.endpoint && e.method === job.method && e.answers === 'json',
  )
  if (!endpoint) throw new Error(`no JSON endpoint ${job.method} ${job.endpoint}`)
  const ctx = endpointContext(new URL(job.href), job.params, job.body, seed, NO_PICTURES)
  return utf8Json(await endpoint.handle(ctx))
}
