import type { LogEntry } from '../src/console/request-log.ts'
import type { TmapsWorker } from '../src/runtimes/browser/index.ts'

/** How long a tile the map asked for may take to reach the mock before it is forgotten. */
const WAIT_MS = 15_000
const KEEP = 5000

/**
 * Tells the map's own tile requests apart in the mock's log (so the log can fold them away):
 * the map says which tile path it is about to load; the next log entry of that path is the map's.
 * A request the browser answers from its image cache never reaches the mock and is forgotten.
 */
export interface MapTiles {
  /** The map starts loading a tile of this path (`/r-tile/6/33/25`). */
  expect(path: string): void
  /** The log entry of this `seq` was one of the map's tiles. */
  isMine(seq: number): boolean
  /** The newest log entry of the map's tile at `path` (the answer it got), if any. */
  entryFor(path: string): LogEntry | undefined
  stop(): void
}

export function createMapTiles(tmaps: TmapsWorker): MapTiles {
  const pending = new Map<string, number[]>()
  const mine = new Set<number>()
  const claim = (entry: LogEntry) => {
    const waiting = pending.get(entry.path)
    if (!waiting) return
    const now = Date.now()
    while (waiting.length > 0 && waiting[0]! < now) waiting.shift()
    if (waiting.length === 0) {
      pending.delete(entry.path)
      return
    }
    waiting.shift()
    if (waiting.length === 0) pending.delete(entry.path)
    mine.add(entry.seq)
    // Oldest first (insertion order): forget the oldest, by the thousand, beyond what the log can
    // still show.
    if (mine.size > KEEP + 1000) for (const seq of [...mine].slice(0, 1000)) mine.delete(seq)
  }
  const stop = tmaps.log.subscribe(claim)
  return {
    expect(path) {
      if (pending.size > 2000) {
        // Tiles the browser drew from its cache never reach the mock: forget them.
        const now = Date.now()
        for (const [key, times] of pending) if (times.every((t) => t < now)) pending.delete(key)
      }
      const waiting = pending.get(path) ?? []
      waiting.push(Date.now() + WAIT_MS)
      pending.set(path, waiting)
    },
    isMine: (seq) => mine.has(seq),
    entryFor(path) {
      const entries = tmaps.log.entries()
      return entries.find((e) => e.path === path && mine.has(e.seq)) ?? entries.find((e) => e.path === path)
    },
    stop,
  }
}
