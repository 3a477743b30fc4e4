import { boundedCache } from './bounded-cache.ts'
import type { FaultPlan } from './faults.ts'
import type { FetchOptions, Handled, HandleRequest, RequestLike } from './handle-request.ts'
import { PathTarget } from './request-target.ts'

const MEMO_SIZE = 1024
/** Remembered JSON answers, in bytes at most (a 25 x 25 matrix or a long route is ~100 kB). */
const MEMO_BYTES = 16 * 1024 * 1024
/** Remembered pictures, in bytes at most. */
const PICTURE_MEMO_BYTES = 16 * 1024 * 1024
/**
 * Pictures remembered apart, fewer: each holds its bytes (~10-50 kB; the endpoints' cache keeps them too).
 */
const PICTURE_MEMO_SIZE = 64
/** Requests whose key and headers are longer (a long query or Referer) are not remembered. */
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
  const memos = boundedCache<Variants>(MEMO_SIZE, MEMO_BYTES, weight)
  const pictures = boundedCache<Variants>(PICTURE_MEMO_SIZE, PICTURE_MEMO_BYTES, weight)
  const remembered = (request: RequestLike, options: FetchOptions | undefined) => {
    const key = memoKey(request, options)
    if (key === undefined) return undefined
    // One URL's refusals are kept with the JSON answers, its pictures apart: either may hold the variant.
    const found = lookup(memos.get(key), request, options) ?? lookup(pictures.get(key), request, options)
    return found !== undefined && found.generation === generation() ? found : undefined
  }
  const keep = (request: RequestLike, options: FetchOptions | undefined, handled: Handled) => {
    const key = memoKey(request, options)
    if (key === undefined || !handled.repeatable || !handled.entry || handled.entry.fault !== undefined)
      return
    const variant = variantOf(request, options, handled)
    if (key.length + textLength(variant) > MEMO_KEY_LIMIT) return
    const kept = handled.repeatable === 'picture' ? pictures : memos
    Object.freeze(handled.answer.headers)
    Object.freeze(handled.answer)
    kept.set(key, withVariant(kept.get(key), variant))
  }
  const handle = async (request: RequestLike, options?: FetchOptions, drawn?: FaultPlan) => {
    if (drawn || overrides?.size) return handleRequest(request, options, drawn)
    const memo = remembered(request, options)
    if (memo !== undefined) {
      const plan = faults.plan(memo.entry!.endpoint)
      return plan === undefined
        ? { ...memo, started: performance.now() }
        : handleRequest(request, options, plan)
    }
    const handled = await handleRequest(request, options)
    keep(request, options, handled)
    return handled
  }
  return {
    handle,
    atOnce(request: RequestLike, options?: FetchOptions): Handled | undefined {
      // Fault rules draw and count as they apply: with any in force, the request takes the full path.
      if (overrides?.size || faults.size > 0) return undefined
      return remembered(request, options)
    },
  }
}

/**
 * The answers remembered for one URL (one key), one per variant of what else the contract
 * reads: the protocol and host of a `PathTarget`, `Origin`, `Referer`, a picture's
 * `If-None-Match`. Never changed once kept (the cache weighs it when kept and when dropped).
 */
interface Variant {
  readonly protocol: string
  readonly host: string
  readonly origin: string | null
  readonly referer: string | null
  readonly ifNoneMatch: string | null
  readonly handled: Handled
}
type Variants = readonly Variant[]
/** Variants of one URL kept at most (a page asked for from many sites): the oldest goes first. */
const MAX_VARIANTS = 8

/**
 * The weight of one URL's remembered answers: their bodies and a little for their keys, headers and entries.
 */
const weight = (variants: Variants) => {
  let bytes = 0
  for (const v of variants) bytes += (v.handled.answer.body?.byteLength ?? 0) + 512 + 2 * textLength(v)
  return bytes
}

/** The characters a variant holds of its request (its headers). */
const textLength = (v: Variant) =>
  (v.origin?.length ?? 0) + (v.referer?.length ?? 0) + (v.ifNoneMatch?.length ?? 0)

/**
 * A plain GET's memo key: the request target as it came when the runtime gave a `PathTarget`
 * (the HTTPS server: its request line, not built or parsed again), else its URL. Longer keys
 * (see `MEMO_KEY_LIMIT`) are not remembered: memory stays bounded by entries and bytes.
 */
function memoKey(request: RequestLike, options?: FetchOptions): string | undefined {
  if (request.method !== 'GET' || options?.facts !== undefined) return undefined
  const url = options?.url
  const key =
    url instanceof PathTarget
      ? url.path
      : url === undefined
        ? request.url
        : typeof url === 'string'
          ? url
          : url.href
  return key.length <= MEMO_KEY_LIMIT ? key : undefined
}

/** The server's request line, when the runtime gave one: its protocol and host are part of a variant. */
const pathTarget = (options: FetchOptions | undefined) =>
  options?.url instanceof PathTarget ? options.url : undefined

function variantOf(request: RequestLike, options: FetchOptions | undefined, handled: Handled): Variant {
  const target = pathTarget(options)
  return {
    protocol: target?.protocol ?? '',
    host: target?.host ?? '',
    origin: request.headers.get('origin'),
    referer: request.headers.get('referer'),
    ifNoneMatch: request.headers.get('if-none-match'),
    handled,
  }
}

function lookup(
  variants: Variants | undefined,
  request: RequestLike,
  options: FetchOptions | undefined,
): Handled | undefined {
  if (variants === undefined) return undefined
  const target = pathTarget(options)
  const protocol = target?.protocol ?? ''
  const host = target?.host ?? ''
  const origin = request.headers.get('origin')
  const referer = request.headers.get('referer')
  const ifNoneMatch = request.headers.get('if-none-match')
  for (const v of variants)
    if (
      v.protocol === protocol &&
      v.host === host &&
      v.origin === origin &&
      v.referer === referer &&
      v.ifNoneMatch === ifNoneMatch
    )
      return v.handled
  return undefined
}

/** `variants` with `variant` in place of the same one (or added; the oldest dropped past `MAX_VARIANTS`). */
function withVariant(variants: Variants | undefined, variant: Variant): Variants {
  const others = (variants ?? []).filter(
    (v) =>
      v.protocol !== variant.protocol ||
      v.host !== variant.host ||
      v.origin !== variant.origin ||
      v.referer !== variant.referer ||
      v.ifNoneMatch !== variant.ifNoneMatch,
  )
  return [...others.slice(-(MAX_VARIANTS - 1)), variant]
}
