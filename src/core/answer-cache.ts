import { boundedCache } from './bounded-cache.ts'

/** The answers kept at most: endpoints' answers and remembered requests together. */
const ANSWER_CACHE_ENTRIES = 2048
/** The bytes they hold at most (a 1280 x 1280 static map is ~0.8 MB, a geocode ~1 kB). */
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024

/** What the answer cache holds, each with what it weighs in bytes (its body, and a little for the rest). */
export interface CachedAnswer {
  readonly weight: number
}

/** An endpoint's answer as bytes, with an ETag for pictures: deterministic, so it is kept. */
export interface ComputedAnswer extends CachedAnswer {
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly etag?: string
}

/**
 * The mock's one cache of answers, bounded in entries and in bytes, the oldest dropped first:
 * the endpoints' answers under `computedKey` (whatever the key or console state that asked) and
 * the memo's remembered requests under their URL. A remembered answer whose body is an
 * endpoint's answer holds no bytes of its own: it names the computed answer, so each body is
 * kept and weighed once.
 */
export interface AnswerCache {
  get(key: string): CachedAnswer | undefined
  set(key: string, value: CachedAnswer): void
  /** An endpoint's answer kept under `key` (from `computedKey`), if it still is. */
  computed(key: string): ComputedAnswer | undefined
  /** The bytes held, as the entries weigh themselves. */
  readonly bytes: number
  readonly size: number
}

/** The answer cache of one mock (see `AnswerCache`); smaller bounds for tests. */
export function createAnswerCache(entries = ANSWER_CACHE_ENTRIES, bytes = ANSWER_CACHE_BYTES): AnswerCache {
  const cache = boundedCache<CachedAnswer>(entries, bytes, (value) => value.weight)
  return {
    get: cache.get,
    set: cache.set,
    computed: (key) => {
      const value = cache.get(key)
      return value !== undefined && 'bytes' in value ? (value as ComputedAnswer) : undefined
    },
    get bytes() {
      return cache.bytes
    },
    get size() {
      return cache.size
    },
  }
}

/**
 * The key of an endpoint's answer: the path and the query without `api_key` (`answerCacheKey`),
 * and a POST's body. It starts with a space, which no request target or URL the memo keys by holds.
 */
export function computedKey(answerKey: string, body?: string): string {
  return body === undefined ? ` ${answerKey}` : ` ${answerKey}\n${body}`
}
