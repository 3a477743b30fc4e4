import type { DecisionFacts } from '../contract/decide.ts'
import { explainDecision } from '../contract/explain.ts'
import type { Rule } from '../contract/rejections.ts'

/** One answered request, as the console's log shows it. Never holds a full key value. */
export interface LogEntry {
  /** Increases by one per request since the mock was created. */
  seq: number
  time: string
  method: string
  host: string
  /** The path only: the query string (where the key travels) is never logged. */
  path: string
  endpoint: string
  status: number
  outcome: 'accepted' | 'rejected'
  /** The rule that decided the answer, e.g. `domain-not-authorized` or `ok`. */
  rule: Rule
  /** Why, in plain words. */
  reason: string
  facts: DecisionFacts
  /**
   * Set when fault rules applied (`mock.faults`): their ids, the delay they added, and what
   * they answered instead (a status, or a reset connection, logged with status 0).
   */
  fault?: { rules: string[]; delayMs: number; status?: number; network?: 'reset' }
}

export type LogListener = (entry: LogEntry) => void

/**
 * The last `size` requests, newest first, with live subscribers.
 * @example const off = mock.log.subscribe((e) => console.info(e.status, e.reason)); off()
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
 * A new entry as the pipeline records it, cheap to make on every request: its time as a `Date`
 * and its reason left out (explained from its rule and facts) or given as text; both are put in
 * words on first read, once.
 */
export type NewLogEntry = Omit<LogEntry, 'seq' | 'reason' | 'time'> & { time: Date; reason?: string }

type Stored = Omit<LogEntry, 'reason' | 'time'> & { time: string | Date; reason?: string }

/** The entry in words: its ISO time and its reason (worded once, then kept). */
function worded(entry: Stored): LogEntry {
  if (typeof entry.time !== 'string') entry.time = entry.time.toISOString()
  entry.reason ??= explainDecision(entry.rule, entry.facts)
  return entry as LogEntry
}

export function createRequestLog(size: number): RequestLog & { push(entry: NewLogEntry): void } {
  const ring: Stored[] = []
  let next = 0
  let seq = 0
  const listeners = new Set<LogListener>()
  return {
    size,
    push(partial) {
      // The pipeline hands over a fresh object: numbered in place, not copied.
      const entry = partial as Stored
      entry.seq = ++seq
      if (ring.length < size) ring.push(entry)
      else ring[next] = entry
      next = (next + 1) % size
      if (listeners.size === 0) return
      worded(entry)
      for (const listener of listeners) {
        try {
          listener(entry as LogEntry)
        } catch (error) {
          // A faulty subscriber must not break the request it is told about.
          console.error('tmaps-mock: a request-log subscriber threw:', error)
        }
      }
    },
    entries() {
      const ordered = ring.length < size ? ring.slice() : [...ring.slice(next), ...ring.slice(0, next)]
      return ordered.reverse().map(worded)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear() {
      ring.length = 0
      next = 0
    },
  }
}
