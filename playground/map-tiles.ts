import { type LogEntry, maskQuery } from '../src/console/request-log.ts'
import type { PlaygroundMock } from './server-console.ts'

/** How long a tile the map asked for may take to reach the mock before it is forgotten. */
const WAIT_MS = 15_000
const KEEP = 5000

/**
 * A tile request as the log names it: its path and its query, keys masked
 * (`/r-tile/6/33/25?api_key=ak_1a2b…&v=1`). The query tells two loads of one tile apart: after a
 * console change the map asks again with a new `v`, and a late answer to the old one is not it.
 */
export function tileRequest(url: string): string {
  const parsed = URL.parse(url)
  return parsed ? `${parsed.pathname}${maskQuery(parsed.search)}` : ''
}
const requestOf = (entry: LogEntry) => `${entry.path}${entry.query}`

/**
 * Tells the map's own tile requests apart in the mock's log (so the log can fold them away):
 * the map says which tile it is about to load; the next log entry of that request is the map's.
 * A request the browser answers from its image cache never reaches the mock and is forgotten.
 */
export interface MapTiles {
  /** The map starts loading a tile of this URL. */
  expect(url: string): void
  /** The log entry of this `seq` was one of the map's tiles. */
  isMine(seq: number): boolean
  /** The newest log entry of the map's tile at this URL (the answer it got), if any. */
  entryFor(url: string): LogEntry | undefined
  stop(): void
}

export function createMapTiles(tmaps: PlaygroundMock): MapTiles {
  const pending = new Map<string, number[]>()
  const mine = new Set<number>()
  const claim = (entry: LogEntry) => {
    const request = requestOf(entry)
    const waiting = pending.get(request)
    if (!waiting) return
    const now = Date.now()
    while (waiting[0] !== undefined && waiting[0] < now) waiting.shift()
    if (waiting.length === 0) {
      pending.delete(request)
      return
    }
    waiting.shift()
    if (waiting.length === 0) pending.delete(request)
    mine.add(entry.seq)
    // Oldest first (insertion order): forget the oldest, by the thousand, beyond what the log can
    // still show.
    if (mine.size > KEEP + 1000) for (const seq of [...mine].slice(0, 1000)) mine.delete(seq)
  }
  const stop = tmaps.log.subscribe(claim)
  return {
    expect(url) {
      const request = tileRequest(url)
      if (pending.size > 2000) {
        // Tiles the browser drew from its cache never reach the mock: forget them.
        const now = Date.now()
        for (const [key, times] of pending) if (times.every((t) => t < now)) pending.delete(key)
      }
      const waiting = pending.get(request) ?? []
      waiting.push(Date.now() + WAIT_MS)
      pending.set(request, waiting)
    },
    isMine: (seq) => mine.has(seq),
    entryFor(url) {
      const request = tileRequest(url)
      const entries = tmaps.log.entries()
      return (
        entries.find((e) => requestOf(e) === request && mine.has(e.seq)) ??
        entries.find((e) => requestOf(e) === request)
      )
    },
    stop,
  }
}
