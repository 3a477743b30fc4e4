import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** V8's options about the young generation's size (the semi-spaces), as a user would spell them. */
const YOUNG_GENERATION_FLAGS = /--(?:max-|min-)?semi-space|--semi-space-growth-factor/

/**
 * Keeps V8's young generation at its first size in `tmaps-mock serve` (issue #22): it otherwise
 * grows on the first burst of requests (16 -> 64 MB reserved after 100 geocodes) and stays that
 * size when the server idles.
 * Measured after 100 geocodes: 128-132 MB RSS by default, 113-114 MB with it (bare `node:https`
 * ~55 MB), with the same CPU time per request (cached geocode ~65 µs either way, uncached
 * 1.4-1.6 ms, tiles drawn in the pool alike; `npm run bench` measures the server with it).
 *
 * `--max-semi-space-size` would do it too (107 MB with 4) but must be given at start: V8 reads
 * it when it sets the heap up, so set from here it does nothing. The growth factor is read each
 * time the young generation would grow, so setting it here, before the first request, works.
 * Left alone when the user chose their own young-generation options (NODE_OPTIONS or flags).
 * Only the CLI and its bench call this: the library never changes a user's process.
 * @example keepYoungGenerationSmall() // first thing in the CLI
 */
export function keepYoungGenerationSmall(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): boolean {
  if ([...execArgv, nodeOptions].some((option) => YOUNG_GENERATION_FLAGS.test(option))) return false
  setFlagsFromString('--semi-space-growth-factor=1')
  return true
}

/** How often `tmaps-mock serve` looks whether it is idle, and how much CPU a second counts as busy. */
const IDLE_CHECK_MS = 1000
const BUSY_CPU_MS = 10
/** Quiet seconds in a row that make a server idle (one was not enough: below). */
const QUIET_CHECKS = 2

/**
 * Decides when an idle server gives its memory back: after work (a second in which the process
 * used CPU: it answered requests) come two seconds in a row in which it used almost none: then
 * once, until it is busy again. `cpuMs` is the CPU time used since the last check.
 *
 * Two, not one: after the collection a saturated load costs ~15-25% more CPU a request (cause
 * not found: docs/server.md, "Memory"), and collecting in the first quiet second set it off in
 * every pause of a client that pauses about a second between bursts (the bench's paired loader:
 * 0.72x instead of 0.87x of bare `node:https`); a pause of two seconds is idle.
 * @example const next = idleCollector(); next(250) // false: busy; next(1) // false; next(0) // true: collect now
 */
export function idleCollector(): (cpuMs: number) => boolean {
  let worked = false
  let quiet = 0
  return (cpuMs) => {
    if (cpuMs > BUSY_CPU_MS) {
      worked = true
      quiet = 0
      return false
    }
    if (!worked || ++quiet < QUIET_CHECKS) return false
    worked = false
    quiet = 0
    return true
  }
}

/**
 * Gives memory back to the system once `tmaps-mock serve` goes idle after work (issue #22): one
 * full collection of V8's "last resort" kind, which also frees the pages the heap kept for its
 * next burst (an ordinary collection frees objects but keeps the pages). Measured after 100
 * geocodes: 102-107 MB RSS instead of 117-119 MB; a collection takes ~15-40 ms, after two seconds in
 * which no request came. Never while requests come (a busy second), never twice in a row idle.
 * `gc` comes from a context of its own (`--expose-gc` set here does not add `gc` to the
 * process's globals). Only the CLI and its bench call this: the library never changes a user's
 * process.
 * @example giveMemoryBackWhenIdle() // in the CLI, once the server listens
 */
export function giveMemoryBackWhenIdle(): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as (options: {
    type: 'major'
    execution: 'sync'
    flavor: 'last-resort'
  }) => void
  const collectNow = idleCollector()
  let last = process.cpuUsage()
  setInterval(() => {
    const used = process.cpuUsage(last)
    last = process.cpuUsage()
    if (!collectNow((used.user + used.system) / 1000)) return
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' })
    last = process.cpuUsage() // the collection's own CPU is not work
  }, IDLE_CHECK_MS).unref()
}
