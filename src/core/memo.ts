import { boundedCache } from './bounded-cache.ts'
import type { FaultPlan } from './faults.ts'
import type { FetchOptions, Handled, HandleRequest, RequestLike } from './handle-request.ts'

const MEMO_SIZE = 1024
/** Remembered JSON answers, in bytes at most (a 25 x 25 matrix or a long route is ~100 kB). */
export const MEMO_BYTES = 16 * 1024 * 1024
/** Remembered pictures, in bytes at most. */
export const PICTURE_MEMO_BYTES = 16 * 1024 * 1024
/** Pictures remembered apart, fewer: each holds its bytes (~10-50 kB; the endpoints' cache keeps them too). */
const PICTURE_MEMO_SIZE = 64
/** Longer memo keys (a long Referer) are not kept: memory stays bounded by MEMO_SIZE entries. */
const MEMO_KEY_LIMIT = 2048

/**
 * A speed layer over `handleRequest`: a plain GET answered before under the same console state
 * (`generation`), whose answer depended on nothing but the request (`repeatable`: a refusal of
 * the contract, a JSON answer or a picture), is answered from memory without deciding again. It is still
 * faulted, counted and logged like any other (the caller records every `Handled`). Off while an
 * override is in force.
 */
export function memoize(
  handleRequest: HandleRequest,
  {
    generation,
    faults,
    overrides,
  }: {
    generation: () => number
    faults: { plan(endpoint: string): FaultPlan | undefined; readonly size: number }
    overrides?: { readonly size: number }
  },
): {
  /** `handleRequest` behind the memo. */
  handle: HandleRequest
  /**
   * The memo's answer to this request, at once, when it has one and no fault applies; else
   * `undefined`. The remembered `Handled` itself (its `started` is its first request's).
   */
  atOnce(request: RequestLike, options?: FetchOptions): Handled | undefined
} {
  // A remembered answer's weight: its body and a little for its key, headers and entry.
  const weight = (h: Handled) => (h.answer.body?.byteLength ?? 0) + 512
  const memos = boundedCache<Handled>(MEMO_SIZE, MEMO_BYTES, weight)
  const pictures = boundedCache<Handled>(PICTURE_MEMO_SIZE, PICTURE_MEMO_BYTES, weight)
  const remembered = (key: string) => {
    const memo = memos.get(key) ?? pictures.get(key)
    return memo !== undefined && memo.generation === generation() ? memo : undefined
  }
  const handle = async (request: RequestLike, options?: FetchOptions, drawn?: FaultPlan) => {
    const key = drawn || overrides?.size ? undefined : memoKey(request, options)
    if (key === undefined) return handleRequest(request, options, drawn)
    const memo = remembered(key)
    if (memo !== undefined) {
      const plan = faults.plan(memo.entry!.endpoint)
      return plan === undefined
        ? { ...memo, started: performance.now() }
        : handleRequest(request, options, plan)
    }
    const handled = await handleRequest(request, options)
    if (handled.repeatable && handled.entry && handled.entry.fault === undefined) {
      const kept = handled.repeatable === 'picture' ? pictures : memos
      Object.freeze(handled.answer.headers)
      Object.freeze(handled.answer)
      kept.set(key, handled)
    }
    return handled
  }
  return {
    handle,
    atOnce(request: RequestLike, options?: FetchOptions): Handled | undefined {
      // Fault rules draw and count as they apply: with any in force, the request takes the full path.
      if (overrides?.size || faults.size > 0) return undefined
      const key = memoKey(request, options)
      return key === undefined ? undefined : remembered(key)
    },
  }
}

/** The memo key of a plain GET: its URL, the two headers the contract reads and a picture's `If-None-Match`. */
function memoKey(request: RequestLike, options?: FetchOptions): string | undefined {
  if (request.method !== 'GET' || options?.facts !== undefined) return undefined
  const url = options?.url
  const href = url === undefined ? request.url : typeof url === 'string' ? url : url.href
  const key = `${href}\n${request.headers.get('origin') ?? '\0'}\n${request.headers.get('referer') ?? '\0'}\n${request.headers.get('if-none-match') ?? '\0'}`
  return key.length <= MEMO_KEY_LIMIT ? key : undefined
}
