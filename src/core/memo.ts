import type { AnswerCache, CachedAnswer } from './answer-cache.ts'
import type { TmapsAnswer } from './answers.ts'
import type { FaultPlan } from './faults.ts'
import type { FetchOptions, Handled, HandledEntry, HandleRequest, RequestLike } from './handle-request.ts'
import { PathTarget } from './request-target.ts'

/** Requests whose key and headers are longer (a long query or Referer) are not remembered. */
const MEMO_KEY_LIMIT = 2048

/** The memo: `handleRequest` behind it, and its answer at once when it has one. */
interface Memo {
  /** `handleRequest` behind the memo. */
  handle: HandleRequest
  /**
   * The memo's answer to this request, at once, when it has one and no fault applies; else
   * `undefined`. Its `started` is its first request's.
   */
  recall(request: RequestLike, options?: FetchOptions): Handled | undefined
}

/**
 * A speed layer over `handleRequest`: a plain GET answered before under the same console state
 * (`generation`), whose answer depended on nothing but the request (`repeatable`: a refusal of
 * the contract, a JSON answer or a picture), is answered from memory without deciding again. It
 * is still faulted, counted and logged like any other (the caller records every `Handled`). Off
 * while an override is in force. Remembered requests live in the mock's one answer cache; one
 * whose body is an endpoint's answer names it there instead of holding its bytes, and is
 * forgotten with it.
 */
export function memoize(
  handleRequest: HandleRequest,
  {
    cache,
    generation,
    faults,
    overrides,
  }: {
    cache: AnswerCache
    generation: () => number
    faults: { plan(endpoint: string): FaultPlan | undefined; readonly size: number }
    overrides?: { readonly size: number }
  },
): Memo {
  const recall = (request: RequestLike, options: FetchOptions | undefined): Remembered | undefined => {
    const key = memoKey(request, options)
    if (key === undefined) return undefined
    const found = variantFor(cache.get(key), request, options)
    if (found === undefined || found.handled.generation !== generation()) return undefined
    if (found.bodyKey === undefined) return found.handled
    const computed = cache.computed(found.bodyKey)
    if (computed === undefined) return undefined
    return { ...found.handled, answer: { ...found.handled.answer, body: computed.bytes } }
  }
  const remember = (request: RequestLike, options: FetchOptions | undefined, handled: Handled) => {
    const key = memoKey(request, options)
    const { entry } = handled
    if (key === undefined || !handled.repeatable || !entry || entry.fault !== undefined) return
    const variant = variantOf(request, options, handled, entry)
    if (key.length + textLength(variant) > MEMO_KEY_LIMIT) return
    Object.freeze(handled.answer.headers)
    cache.set(key, withVariant(cache.get(key), variant))
  }
  const handle = async (request: RequestLike, options?: FetchOptions, plan?: FaultPlan) => {
    if (plan || overrides?.size) return handleRequest(request, options, plan)
    const memo = recall(request, options)
    if (memo !== undefined) {
      const planned = faults.plan(memo.entry.endpoint)
      return planned === undefined
        ? { ...memo, started: performance.now() }
        : handleRequest(request, options, planned)
    }
    const handled = await handleRequest(request, options)
    remember(request, options, handled)
    return handled
  }
  return {
    handle,
    recall(request, options) {
      // Fault rules draw and count as they apply: with any in force, the request takes the full path.
      if (overrides?.size || faults.size > 0) return undefined
      return recall(request, options)
    },
  }
}

/** A remembered answer has its log entry (a preflight, never logged, is never remembered). */
type Remembered = Handled & { entry: HandledEntry }

/**
 * One answer remembered for a URL (one key), for one variant of what else the contract reads:
 * the protocol of a `PathTarget` (its host follows from its path), `Origin`, `Referer`, a
 * picture's `If-None-Match`. Its answer's body, when an endpoint's answer, stays in the cache
 * under `bodyKey` and is `null` here. Never changed once kept (the cache weighs it when kept).
 */
interface Variant {
  readonly protocol: string
  readonly origin: string | null
  readonly referer: string | null
  readonly ifNoneMatch: string | null
  readonly handled: Remembered
  readonly bodyKey: string | undefined
}
/** The answers remembered for one URL, and what they weigh. */
interface Variants extends CachedAnswer {
  readonly variants: readonly Variant[]
}
/** Variants of one URL kept at most (a page asked for from many sites): the oldest goes first. */
const MAX_VARIANTS = 8

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

/** The protocol of the server's request line, when the runtime gave one; else `''` (the URL has it). */
const protocolOf = (options: FetchOptions | undefined) =>
  options?.url instanceof PathTarget ? options.url.protocol : ''

function variantOf(
  request: RequestLike,
  options: FetchOptions | undefined,
  handled: Handled,
  entry: HandledEntry,
): Variant {
  const { bodyKey } = handled
  const answer: TmapsAnswer = bodyKey === undefined ? handled.answer : { ...handled.answer, body: null }
  return {
    protocol: protocolOf(options),
    origin: request.headers.get('origin'),
    referer: request.headers.get('referer'),
    ifNoneMatch: request.headers.get('if-none-match'),
    handled: { ...handled, entry, answer: Object.freeze(answer) },
    bodyKey,
  }
}

function variantFor(
  cached: CachedAnswer | undefined,
  request: RequestLike,
  options: FetchOptions | undefined,
): Variant | undefined {
  if (cached === undefined || !('variants' in cached)) return undefined
  const protocol = protocolOf(options)
  const origin = request.headers.get('origin')
  const referer = request.headers.get('referer')
  const ifNoneMatch = request.headers.get('if-none-match')
  for (const v of (cached as Variants).variants)
    if (
      v.protocol === protocol &&
      v.origin === origin &&
      v.referer === referer &&
      v.ifNoneMatch === ifNoneMatch
    )
      return v
  return undefined
}

/**
 * `cached`'s variants with `variant` in place of the same one (or added; the oldest dropped past
 * `MAX_VARIANTS`), weighed: the bodies they hold (not those kept as endpoint answers) and a little
 * for their keys, headers and entries.
 */
function withVariant(cached: CachedAnswer | undefined, variant: Variant): Variants {
  const before = cached !== undefined && 'variants' in cached ? (cached as Variants).variants : []
  const others = before.filter(
    (v) =>
      v.protocol !== variant.protocol ||
      v.origin !== variant.origin ||
      v.referer !== variant.referer ||
      v.ifNoneMatch !== variant.ifNoneMatch,
  )
  const variants = [...others.slice(-(MAX_VARIANTS - 1)), variant]
  let weight = 0
  for (const v of variants) weight += (v.handled.answer.body?.byteLength ?? 0) + 512 + 2 * textLength(v)
  return { variants, weight }
}
