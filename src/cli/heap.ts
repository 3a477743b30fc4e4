import { setFlagsFromString } from 'node:v8'

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
