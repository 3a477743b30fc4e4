import type { DecisionFacts } from '../contract/decide.ts'
import { explainDecision } from '../contract/explain.ts'
import { maskKey, maskSecrets } from '../contract/key-format.ts'
import type { Rule } from '../contract/rejections.ts'
import { must } from '../validate/must.ts'

/**
 * One answered request, as the console's log shows it; it never holds a full key value.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type LogEntry } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * await mock.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax')) // no api_key
 * const entry: LogEntry | undefined = mock.log.entries()[0]
 * assert.equal(entry?.status, 401)
 * assert.equal(entry?.rule, 'key-missing')
 * assert.equal(entry?.path, '/geocoding/forward')
 * assert.equal(entry?.query, '?q=Sfax') // a key in it would be masked: api_key=ak_1a2b…
 * ```
 */
export interface LogEntry {
  /** Increases by one per request since the mock was created. */
  seq: number
  time: string
  method: string
  host: string
  /** The path, any key-shaped text in it masked. */
  path: string
  /**
   * The query string as sent (`?q=Sfax&api_key=ak_1a2b…`, or `''`), every `api_key` value masked
   * as `maskKey` does, and any other key-shaped text too: never a full key.
   */
  query: string
  endpoint: string
  status: number
  outcome: 'accepted' | 'rejected'
  /** The rule that decided the answer, e.g. `domain-not-authorized` or `ok`. */
  rule: Rule
  /** Why, in plain words. */
  reason: string
  facts: DecisionFacts
  /** The answer's body, in bytes (0 for none: a 304, a reset connection). */
  size: number
  /** From the request's arrival to its answer, in milliseconds (injected latency included). */
  durationMs: number
  /**
   * Set when fault rules applied (`mock.faults`): their ids, the delay they added, and what
   * they answered instead (a status, or a reset connection, logged with status 0).
   */
  fault?: { rules: string[]; delayMs: number; status?: number; network?: 'reset' }
  /**
   * Set when an override (`mock.use`) answered instead of the endpoint, after the contract accepted the
   * request.
   */
  overridden?: true
  /**
   * Where an accepted request's answer came from when not from the mock: `upstream` (the real
   * TMaps, through `serve --upstream`), `replay` (a recording), `replay-miss` (the recording
   * lacks it: the mock's own answer, or a 500 with `onMissing: 'error'`).
   */
  source?: 'upstream' | 'replay' | 'replay-miss'
  /**
   * What the mock noticed and ignored, for a client bug to be visible: query parameters the
   * operation does not read (`lang` on directions, options in the query of a POST).
   */
  warnings?: string[]
}

/**
 * A `mock.log.subscribe()` listener, called with every new log entry.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type LogListener } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const statuses: number[] = []
 * const listener: LogListener = (entry) => statuses.push(entry.status)
 * const unsubscribe = mock.log.subscribe(listener)
 * await mock.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
 * unsubscribe()
 * assert.deepEqual(statuses, [401])
 * ```
 */
export type LogListener = (entry: LogEntry) => void

/**
 * The last `logSize` requests (default 500), newest first, with live subscribers.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type RequestLog } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty', logSize: 100 })
 * const log: RequestLog = mock.log
 * await mock.fetch(new Request('http://api.tmaps.tn/geocoding/forward?q=Sfax')) // plain HTTP
 * assert.equal(log.entries()[0]?.rule, 'http-not-allowed')
 * log.clear()
 * assert.deepEqual(log.entries(), [])
 * ```
 */
export interface RequestLog {
  /** The kept entries, newest first. */
  entries(): LogEntry[]
  /** Calls `listener` for every new entry; returns the function that unsubscribes. */
  subscribe(listener: LogListener): () => void
  clear(): void
  readonly size: number
}

/**
 * A query string as the log keeps it: every `api_key` value masked (`api_key=ak_1a2b…`, whatever
 * its shape or spelling), and any other key-shaped text too; the rest as sent.
 * @example maskQuery('?q=Sfax&api_key=ak_1a2b0000000000000000000000000000') // '?q=Sfax&api_key=ak_1a2b…'
 */
export function maskQuery(search: string): string {
  if (search.length <= 1) return search
  return `?${search
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=')
      const name = eq < 0 ? part : part.slice(0, eq)
      if (eq < 0 || decodeName(name) !== 'api_key') return maskSecrets(part)
      return `${name}=${maskKey(decodeName(part.slice(eq + 1)))}`
    })
    .join('&')}`
}

/** A query component as `URLSearchParams` reads it (`+` a space, percent escapes decoded). */
function decodeName(text: string): string {
  return text.includes('%') || text.includes('+') ? (new URLSearchParams(`x=${text}`).get('x') ?? '') : text
}

/**
 * A new entry as the pipeline records it, cheap to make on every request: its time as a `Date`
 * and its reason left out (explained from its rule and facts) or given as text; both are put in
 * words on first read, once.
 */
export type NewLogEntry = Omit<LogEntry, 'seq' | 'reason' | 'time'> & { time: Date; reason?: string }

/**
 * What the pipeline decided of a request, without its time (one object for all the answers the memo gives).
 */
type LoggedRequest = Omit<NewLogEntry, 'time' | 'durationMs'>

/** Reasons worded once per decided request (a remembered answer's entry is logged many times). */
const reasons = new WeakMap<LoggedRequest, string>()
function reasonOf(entry: LoggedRequest): string {
  if (entry.reason !== undefined) return entry.reason
  let reason = reasons.get(entry)
  if (reason === undefined) {
    reason = explainDecision(entry.rule, entry.facts)
    reasons.set(entry, reason)
  }
  return reason
}

/**
 * The last `size` requests in a ring. Recording one copies nothing: the ring keeps a reference to
 * the decided request (the same object for every answer the memo gives, never changed) and its
 * number, time and duration in typed arrays; a `LogEntry` is made when the log is read or a
 * subscriber listens.
 */
export function createRequestLog(size: number): RequestLog & {
  /**
   * Keeps one entry, answered at `timeMs` (milliseconds since the epoch) after `durationMs`;
   * `host`: the host the client asked, when it is not the entry's (the server's own).
   */
  push(entry: LoggedRequest, timeMs: number, durationMs: number, host?: string): void
} {
  const ring: LoggedRequest[] = []
  const hosts: (string | undefined)[] = []
  const seqs = new Float64Array(size)
  const times = new Float64Array(size)
  const durations = new Float64Array(size)
  let next = 0
  let seq = 0
  const listeners = new Set<LogListener>()
  // `i` is a slot written since the last `clear` (the typed arrays' `?? 0` is never taken).
  const entryAt = (i: number): LogEntry => {
    const request = must(ring[i], 'a request log read an empty slot')
    return {
      ...request,
      ...(hosts[i] !== undefined && { host: hosts[i] }),
      seq: seqs[i] ?? 0,
      time: new Date(times[i] ?? 0).toISOString(),
      durationMs: durations[i] ?? 0,
      reason: reasonOf(request),
    }
  }
  return {
    size,
    push(entry, timeMs, durationMs, host) {
      const at = next
      ring[at] = entry
      hosts[at] = host
      seqs[at] = ++seq
      times[at] = timeMs
      durations[at] = durationMs
      next = (next + 1) % size
      if (listeners.size === 0) return
      const logged = entryAt(at)
      for (const listener of listeners) {
        try {
          listener(logged)
        } catch (error) {
          // A faulty subscriber must not break the request it is told about.
          console.error('tmaps-mock: a request-log subscriber threw:', error)
        }
      }
    },
    entries() {
      const out: LogEntry[] = []
      // Newest first: back from the last written, around the ring.
      for (let k = 1; k <= ring.length; k++) out.push(entryAt((next - k + size) % size))
      return out
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear() {
      ring.length = 0
      hosts.length = 0
      next = 0
    },
  }
}
