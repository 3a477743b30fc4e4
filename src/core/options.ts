import { parseDomainInput } from '../contract/hostname.ts'
import { isKeyValue, maskKey } from '../contract/key-format.ts'
import type { TmapsRenderer } from '../jobs/protocol.ts'
import { inThread } from '../offload/renderer.ts'
import type { InitialKey } from '../store/load.ts'
import type { TmapsSnapshot } from '../store/snapshot.ts'
import { hasControlCharacters } from '../text/control-characters.ts'
import type { TmapsHar } from '../upstream/har.ts'
import type { TmapsReplayOptions } from '../upstream/replay.ts'
import { failure, isObject, SEED } from '../validate/validate.ts'

/**
 * The options of `createTmapsMock()` and every runtime's setup; each is optional and says its default.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsMockOptions } from 'tmaps-mock'
 *
 * const options: TmapsMockOptions = {
 *   state: 'empty', // default 'demo'
 *   seed: 'my-tests', // reproducible key values and data
 *   logSize: 50, // default 500
 *   now: () => new Date('2025-01-01T00:00:00Z'), // default the real clock
 * }
 * const key = await createTmapsMock(options).console.createKey({ name: 'Web' })
 * assert.equal(key.createdAt, '2025-01-01T00:00:00.000Z')
 * ```
 */
export interface TmapsMockOptions {
  /** Origin of the REST API. Default `https://api.tmaps.tn`. */
  baseUrl?: string
  /** Origin of the raster tiles. Default `https://tiles.tmaps.tn`. */
  tilesUrl?: string
  /**
   * Makes everything reproducible: generated key values and ids, and the generated data
   * (streets, POIs). Without it, new keys come from a secure random source and the data from
   * the default data seed.
   */
  seed?: string | number
  /** The initial console: `'demo'` (default), `'empty'`, or a snapshot (object or JSON text). */
  state?: 'demo' | 'empty' | TmapsSnapshot | string
  /**
   * Keys that are part of the initial state whatever `state` is, such as your app's own key from
   * `.env`: each one missing from a state as it loads (on creation, `reset()`, `restore()`) is
   * added, enabled and linked to its `domains`; one already there is left as it is (unlinked,
   * disabled...). `name` defaults to `'Your app'`. Default: none.
   */
  keys?: ReadonlyArray<{ value: string; name?: string; domains?: readonly string[] }>
  /** How many requests the log keeps. Default 500. */
  logSize?: number
  /** How many days of usage each key keeps. Default 90. */
  usageDays?: number
  /** The clock, for usage days and creation dates. Default `() => new Date()`. */
  now?: () => Date
  /**
   * Where raster tiles and static maps are drawn. Default: in the thread that answers, the
   * renderer loaded on the first picture. In a page, `createWorkerRenderer(new Worker(...))`
   * (from `tmaps-mock/browser`) draws them in a Web Worker: the page and the other answers never wait.
   */
  renderer?: TmapsRenderer
  /**
   * Answers accepted requests from a recording of the real TMaps (`tmaps-mock serve --upstream
   * --record tmaps.har`), after the contract decided as always (a disabled key still gets 401).
   * A HAR file's path (Node), its text or object, or `{ har, onMissing, maxAge }`. Default: none.
   */
  replay?: string | TmapsHar | TmapsReplayOptions
}

/**
 * The origin of the TMaps REST API the mock answers unless `baseUrl` says otherwise.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, DEFAULT_BASE_URL } from 'tmaps-mock'
 *
 * assert.equal(DEFAULT_BASE_URL, 'https://api.tmaps.tn')
 * assert.equal(createTmapsMock().options.baseUrl, DEFAULT_BASE_URL)
 * ```
 */
export const DEFAULT_BASE_URL = 'https://api.tmaps.tn'
/**
 * The origin of the TMaps raster tiles the mock answers unless `tilesUrl` says otherwise.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, DEFAULT_TILES_URL } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Map' })
 * const tile = await mock.fetch(
 *   new Request(`${DEFAULT_TILES_URL}/r-tile/6/33/25?api_key=${key.value}`),
 * )
 * assert.equal(tile.headers.get('content-type'), 'image/png')
 * ```
 */
export const DEFAULT_TILES_URL = 'https://tiles.tmaps.tn'
/** The data seed when none is given: the default data is the same for everyone. */
export const DEFAULT_DATA_SEED = 'tmaps'
/** The demo keys' seed when none is given: the demo console is the same for everyone. */
export const DEFAULT_DEMO_SEED = 'tmaps-demo'

/** The options in force, validated, with their defaults. */
export type ResolvedOptions = ReturnType<typeof validateOptions>

/** The most keys the `keys` option takes: a handful of apps' own keys, not a console. */
const MAX_INITIAL_KEYS = 100
const MAX_KEY_NAME_LENGTH = 100

/**
 * Validates the options of `createTmapsCore` and fills in the defaults; a bad option throws a
 * `TypeError` that says what failed and how to fix it.
 * @example validateOptions({ state: 'empty' }).baseUrl // 'https://api.tmaps.tn'
 */
export function validateOptions(options: TmapsMockOptions) {
  const fail = failure('Failed to create the TMaps mock')
  if (!isObject(options)) fail('options must be an object, e.g. createTmapsMock({ state: "empty" })')
  const origin = (name: string, value: string | undefined, fallback: string) => {
    if (value === undefined) return fallback
    if (typeof value !== 'string' || !URL.canParse(value))
      fail(`${name} ${JSON.stringify(value)} is not an absolute URL. Use an origin such as "${fallback}"`)
    const url = new URL(value)
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      fail(`${name} must use https:// (got ${url.protocol})`)
    if (url.pathname !== '/' || url.search || url.hash || url.username) {
      fail(
        `${name} must be an origin without path, query or credentials, such as "${url.protocol}//${url.host}"`,
      )
    }
    return url.origin
  }
  const {
    seed,
    state = 'demo',
    logSize = 500,
    usageDays = 90,
    now = () => new Date(),
    renderer = inThread,
  } = options
  if (seed !== undefined && !SEED.test(seed)) fail(`seed must be ${SEED.says}`)
  if (
    !(
      state === 'demo' ||
      state === 'empty' ||
      typeof state === 'string' ||
      (typeof state === 'object' && state !== null)
    )
  ) {
    fail('state must be "demo", "empty" or a snapshot from mock.snapshot()')
  }
  if (!Number.isInteger(logSize) || logSize < 1 || logSize > 100_000)
    fail('logSize must be an integer from 1 to 100000')
  if (!Number.isInteger(usageDays) || usageDays < 1 || usageDays > 3660)
    fail('usageDays must be an integer from 1 to 3660')
  if (typeof now !== 'function') fail('now must be a function that returns a Date')
  const keys = initialKeys(options.keys, fail)
  if (
    renderer === null ||
    typeof renderer !== 'object' ||
    typeof renderer.tile !== 'function' ||
    typeof renderer.staticMap !== 'function'
  )
    fail('renderer must have tile() and staticMap() methods, e.g. createWorkerRenderer(new Worker(...))')
  return {
    baseUrl: origin('baseUrl', options.baseUrl, DEFAULT_BASE_URL),
    tilesUrl: origin('tilesUrl', options.tilesUrl, DEFAULT_TILES_URL),
    seed,
    dataSeed: seed ?? DEFAULT_DATA_SEED,
    state,
    keys,
    logSize,
    usageDays,
    now,
    renderer,
  }
}

/** Validates the `keys` option: each a TMaps key value, a plain name, hostnames as the console takes them. */
function initialKeys(input: TmapsMockOptions['keys'], fail: (why: string) => never): InitialKey[] {
  if (input === undefined) return []
  if (!Array.isArray(input)) fail('keys must be an array such as [{ value: "ak_…", domains: ["localhost"] }]')
  if (input.length > MAX_INITIAL_KEYS)
    fail(`keys holds ${input.length} keys; it takes at most ${MAX_INITIAL_KEYS}`)
  const values = new Set<string>()
  return input.map((key, i) => {
    const at = `keys[${i}]`
    if (key === null || typeof key !== 'object') fail(`${at} must be an object such as { value: "ak_…" }`)
    const { value, name = 'Your app', domains = [] } = key
    if (typeof value !== 'string' || !isKeyValue(value))
      fail(
        `${at}.value must be a TMaps key: "ak_" and 32 lower-case hexadecimal characters (got ${typeof value === 'string' ? `${value.length} characters` : typeof value})`,
      )
    if (values.has(value)) fail(`${at}.value repeats ${maskKey(value)}; name each key once`)
    values.add(value)
    if (typeof name !== 'string' || name.trim() === '' || name.trim().length > MAX_KEY_NAME_LENGTH)
      fail(`${at}.name must be a label of 1 to ${MAX_KEY_NAME_LENGTH} characters, such as "Your app"`)
    if (hasControlCharacters(name)) fail(`${at}.name contains control characters. Use plain text`)
    if (!Array.isArray(domains)) fail(`${at}.domains must be an array of hostnames, e.g. ["localhost"]`)
    const hostnames = domains.map((domain, j) => {
      const parsed = parseDomainInput(domain)
      return parsed.ok ? parsed.hostname : fail(`${at}.domains[${j}]: ${parsed.error}`)
    })
    return { value, name: name.trim(), domains: [...new Set(hostnames)] }
  })
}
