import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** V8's options about the young generation's size (the semi-spaces), as a user would spell them. */
const YOUNG_GENERATION_FLAGS = /--(?:max-|min-)?semi-space|--semi-space-growth-factor/

/**
 * Keeps V8's young generation at its first size in `tmaps-mock serve`: it otherwise grows on the
 * first burst of requests and keeps the memory it reserved when the server idles, for no gain in
 * CPU a request (figures: docs/performance.md, the idle RSS row; `npm run bench` measures the
 * server with it).
 *
 * `--max-semi-space-size` would do it too but must be given at start: V8 reads it when it sets
 * the heap up, so set from here it does nothing. The growth factor is read each
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
 * How long after its last request an idle server has given its memory back at the latest (the
 * check that saw the work, then the quiet ones), plus the collection's time: what a bench waits.
 */
export const IDLE_COLLECTED_AFTER_MS = IDLE_CHECK_MS * (QUIET_CHECKS + 1) + 1500

/**
 * Decides when an idle server gives its memory back: after work (a second in which the process
 * used CPU: it answered requests) come two seconds in a row in which it used almost none: then
 * once, until it is busy again. `cpuMs` is the CPU time used since the last check.
 *
 * Two, not one: a collection costs the next requests something (its own CPU, and the young
 * generation it shrinks grows back over the next few thousand requests: `growBack`), and
 * collecting in the first quiet second did it in every pause of a client that pauses about a
 * second between bursts (the cost measured: docs/performance.md); a pause of two seconds is idle.
 * @example
 * const next = idleCollector(); next(250) // false: busy; next(1) // false; next(0) // true: collect now
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
 * Gives memory back to the system once `tmaps-mock serve` goes idle after work: one full
 * collection of V8's "last resort" kind, which also frees the pages the heap kept for its next
 * burst (an ordinary collection frees objects but keeps the pages), after two seconds in which
 * no request came. Never while requests come (a busy second), never twice in a row idle. What it
 * gives back and costs: docs/server.md, "Memory".
 *
 * That collection also shrinks V8's young generation to its least, which
 * `keepYoungGenerationSmall` would then keep from growing: every later load would pay many more
 * scavenges and more CPU a request. So when the young generation was kept small
 * (`youngKeptSmall`), it grows back under the next load to the size it had before the first
 * collection, and no further (`growBack`).
 *
 * `gc` comes from a context of its own (`--expose-gc` set here does not add `gc` to the
 * process's globals). Only the CLI and its bench call this: the library never changes a user's
 * process.
 * @example giveMemoryBackWhenIdle(keepYoungGenerationSmall()) // in the CLI, once the server listens
 */
export function giveMemoryBackWhenIdle(youngKeptSmall: boolean): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as (options: {
    type: 'major'
    execution: 'sync'
    flavor: 'last-resort'
  }) => void
  const collectNow = idleCollector()
  /** The young generation's size before the first collection: what it grows back to. */
  let youngSize = 0
  let last = process.cpuUsage()
  setInterval(() => {
    const used = process.cpuUsage(last)
    last = process.cpuUsage()
    if (!collectNow((used.user + used.system) / 1000)) return
    youngSize ||= youngGenerationSize()
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' })
    if (youngKeptSmall) growBack(youngSize)
    last = process.cpuUsage() // the collection's own CPU is not work
  }, IDLE_CHECK_MS).unref()
}

/** The young generation's size (V8's `new_space`), in bytes. */
export const youngGenerationSize = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0

let growing: PerformanceObserver | undefined

/**
 * Lets the young generation grow back to `size` bytes, then keeps it there (growth factor 1
 * again). V8 grows it, when a scavenge finds too much of it survived, by its growth factor; after
 * the last-resort collection its first growth doubles it whatever the factor (measured, Node 24:
 * 1 -> 2 MB), so the factor starts at half the ratio to `size` and is set again after each
 * growth to what takes it the rest of the way (2 -> 16 MB with 8). Looked at after every
 * collection (a `gc` performance observer, until it is back): at `size` (or past it, bounded by
 * V8's maximum) it stops growing. Tested in a child process: `heap.test.ts`.
 * @example growBack(16 * 1024 * 1024) // after a collection that shrank it to 1 MB
 */
export function growBack(size: number): void {
  growing?.disconnect()
  let now = youngGenerationSize()
  if (now === 0 || now >= size) return // no young generation of V8's usual kind, or not shrunk
  setFlagsFromString(`--semi-space-growth-factor=${Math.max(2, Math.ceil(size / now / 2))}`)
  growing = new PerformanceObserver(() => {
    const grown = youngGenerationSize()
    if (grown >= size) {
      setFlagsFromString('--semi-space-growth-factor=1')
      growing?.disconnect()
      growing = undefined
    } else if (grown > now) {
      now = grown
      setFlagsFromString(`--semi-space-growth-factor=${Math.max(2, Math.ceil(size / now))}`)
    }
  })
  growing.observe({ entryTypes: ['gc'] })
}
