import type { FaultPlan } from './faults.ts'
import type { FetchOptions, Handled, HandleRequest, RequestLike } from './handle-request.ts'

const MEMO_SIZE = 1024
/** Longer memo keys (a long Referer) are not kept: memory stays bounded by MEMO_SIZE entries. */
const MEMO_KEY_LIMIT = 2048

/**
 * A speed layer over `handleRequest`: a plain GET answered before under the same console state
 * (`generation`), whose answer depended on nothing but the request (`repeatable`: a refusal of
 * the contract or a JSON answer), is answered from memory without deciding again. It is still
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
    faults: { plan(endpoint: string): FaultPlan | undefined }
    overrides?: { readonly size: number }
  },
): HandleRequest {
  const memos = new Map<string, Handled>()
  return async (request, options, drawn) => {
    const key = drawn || overrides?.size ? undefined : memoKey(request, options)
    if (key === undefined) return handleRequest(request, options, drawn)
    const memo = memos.get(key)
    if (memo !== undefined && memo.generation === generation()) {
      const plan = faults.plan(memo.entry!.endpoint)
      return plan === undefined
        ? { ...memo, started: performance.now() }
        : handleRequest(request, options, plan)
    }
    const handled = await handleRequest(request, options)
    if (handled.repeatable && handled.entry && handled.entry.fault === undefined) {
      if (memos.size >= MEMO_SIZE) memos.delete(memos.keys().next().value!)
      Object.freeze(handled.answer.headers)
      Object.freeze(handled.answer)
      memos.set(key, handled)
    }
    return handled
  }
}

/** The memo key of a plain GET: its URL and the two headers the contract reads. */
function memoKey(request: RequestLike, options?: FetchOptions): string | undefined {
  if (request.method !== 'GET' || options?.facts !== undefined) return undefined
  const url = options?.url
  const href = url === undefined ? request.url : typeof url === 'string' ? url : url.href
  const key = `${href}\n${request.headers.get('origin') ?? '\0'}\n${request.headers.get('referer') ?? '\0'}`
  return key.length <= MEMO_KEY_LIMIT ? key : undefined
}
