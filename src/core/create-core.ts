import { TmapsConsoleError } from '../console/console-error.ts'
import type { KeyRef, TmapsConsole } from '../console/create-console.ts'
import { createRequestLog, type RequestLog } from '../console/request-log.ts'
import { createUsage, type Usage, type UsageReport } from '../console/usage.ts'
import type { TmapsOverride, TmapsScenario } from '../endpoints/override-types.ts'
import { ENDPOINT_NAMES } from '../endpoints/registry.ts'
import { UNATTRIBUTED } from '../store/schemas.ts'
import type { TmapsSnapshot } from '../store/snapshot.ts'
import type { AnswerSource } from '../upstream/answer-source.ts'
import { createReplay } from '../upstream/replay.ts'
import { type AnswerCache, createAnswerCache } from './answer-cache.ts'
import { type TmapsAnswer, toResponse } from './answers.ts'
import { createFaults, type TmapsFaults } from './faults.ts'
import { createRequestHandler, type FetchOptions, type Handled, type RequestLike } from './handle-request.ts'
import { memoize } from './memo.ts'
import type { TmapsMockOptions } from './options.ts'
import { validateOptions } from './options.ts'
import { createOverrides, type TmapsEndpointName } from './override-registry.ts'
import { createState, type TmapsReadyInfo } from './state.ts'

export type {
  TmapsOverride,
  TmapsOverrideContext,
  TmapsOverrideResult,
  TmapsScenario,
} from '../endpoints/override-types.ts'
export type { TmapsAnswer } from './answers.ts'
export type { FaultInput, FaultRule, FaultStatus, TmapsFaults } from './faults.ts'
export type { FetchOptions, RequestLike } from './handle-request.ts'
export { DEFAULT_BASE_URL, DEFAULT_TILES_URL, type TmapsMockOptions } from './options.ts'
export type { TmapsEndpointAnswers, TmapsEndpointName } from './override-registry.ts'
export type { RequestTarget } from './request-target.ts'
export type { TmapsReadyInfo } from './state.ts'

/**
 * The runtime-free mock of `createTmapsCore`: console, log, faults, usage, the pipeline; no msw.
 *
 * `TmapsMock` (from `createTmapsMock`) is the same plus msw's handlers.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsCore, type TmapsMockCore } from 'tmaps-mock'
 *
 * async function keyCount(mock: TmapsMockCore): Promise<number> {
 *   await mock.ready
 *   return mock.console.listKeys().length
 * }
 * assert.equal(await keyCount(createTmapsCore()), 5) // the demo console's five keys
 * ```
 */
export interface TmapsMockCore {
  /** Resolves once the initial state is loaded; requests wait for it by themselves. */
  readonly ready: Promise<TmapsReadyInfo>
  readonly console: TmapsConsole
  readonly log: RequestLog
  /**
   * Infrastructure faults on demand, answered before the auth check: the docs' 429 (with
   * `Retry-After`) and 5xx, latency, and reset connections, per endpoint, a number of times or
   * with a seeded probability.
   * @example mock.faults.add({ endpoint: '/geocoding/forward', status: 429, times: 2 })
   */
  readonly faults: TmapsFaults
  /**
   * Overrides one endpoint's answer, keeping the contract: the resolver runs only for requests the
   * key, status, domain and HTTPS checks accepted (a disabled key still gets 401, a foreign
   * `Origin` 403), gets `{ request, params, answer }` (`answer()` is the mock's own answer, typed)
   * and returns a typed body, `{ status, body }` or a `Response`; the log marks the entry
   * `overridden`. The newest override of an endpoint wins; `times` uses it up after that many
   * requests. Returns the function that removes it.
   * @example
   * mock.use('geocoding/forward', ({ params }) => ({ query: params.q ?? '', results: [] }), { times: 1 })
   */
  use<E extends TmapsEndpointName>(
    endpoint: E,
    resolver: TmapsOverride<E> | TmapsScenario<E>,
    options?: { times?: number },
  ): () => void
  /**
   * Answers a request to a TMaps host exactly as TMaps would (a fetch handler): `answer`, as a `Response`.
   */
  fetch(request: Request, options?: FetchOptions): Promise<Response>
  /**
   * The one door into the mock: the answer as plain data, for runtimes that write it their own way
   * (the HTTPS server to Node without a `Response`, Playwright to its route). An answer the mock
   * remembers (a repeated plain GET under the same console state, no fault rule or override in
   * force) comes at once, counted and logged, without a turn of the event loop; any other as a
   * promise: `await` both alike. A remembered answer may be shared: it is then frozen.
   */
  answer(request: RequestLike, options?: FetchOptions): TmapsAnswer | Promise<TmapsAnswer>
  /** Usage of one key (id, full value or `{ id }`), or `'unattributed'`. */
  usage(ref: KeyRef | typeof UNATTRIBUTED): UsageReport
  /**
   * Calls `listener` after every change of the console state (a console write, `reset`,
   * `restore`); not for usage counts, which change with every request (watch `log` for those).
   * Returns the function that unsubscribes.
   */
  onChange(listener: () => void): () => void
  /** Back to the initial state, `state` with its `keys` (keys, domains, usage; the log is cleared). */
  reset(): Promise<TmapsReadyInfo>
  /** The whole console state as JSON. */
  snapshot(): TmapsSnapshot
  /** Replaces the state with a snapshot; an invalid snapshot throws and changes nothing. */
  restore(snapshot: TmapsSnapshot | string): Promise<void>
  /** The normalized options in force. */
  readonly options: {
    baseUrl: string
    tilesUrl: string
    seed: string | number | undefined
    dataSeed: string | number
  }
}

/** The endpoint names a fault rule may name (`geocoding/forward`, `r-tile`, ...). */
const FAULT_ENDPOINTS = ENDPOINT_NAMES

/**
 * Builds the runtime-free mock (no msw): console, log, usage, faults and a `fetch` handler.
 *
 * Runtimes wrap its `fetch` (MSW handlers, the HTTPS server, Playwright routes). Takes the
 * options of {@link TmapsMockOptions}, all optional: `state` `'demo'`, `keys` none, `seed` none,
 * `logSize` 500, `usageDays` 90, `baseUrl` `https://api.tmaps.tn`, `tilesUrl` `https://tiles.tmaps.tn`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsCore } from 'tmaps-mock'
 *
 * const core = createTmapsCore({ state: 'empty' }) // no msw: a fetch handler for any runtime
 * const key = await core.console.createKey({ name: 'Backend' })
 * const response = await core.fetch(
 *   new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`),
 * )
 * assert.equal(response.status, 200)
 * ```
 */
export function createTmapsCore(options: TmapsMockOptions = {}): TmapsMockCore {
  return createCore(options)
}

/**
 * `createTmapsCore` with a source of answers for the accepted requests (the HTTPS server's
 * upstream; not public: `replay` is the option users give), another answer cache (tests), or
 * usage counters the caller keeps in step with others (the browser runtime's tabs).
 */
export function createCore(
  options: TmapsMockOptions,
  internal: { source?: AnswerSource; cache?: AnswerCache; usage?: Usage } = {},
): TmapsMockCore {
  const opts = validateOptions(options)
  const source =
    internal.source ??
    (options.replay === undefined ? undefined : createReplay(options.replay, { now: opts.now }))
  const usage = internal.usage ?? createUsage({ maxDays: opts.usageDays })
  const log = createRequestLog(opts.logSize)
  const faults = createFaults(opts.dataSeed, FAULT_ENDPOINTS)
  const overrides = createOverrides()
  const state = createState(opts, usage)
  const cache = internal.cache ?? createAnswerCache()
  const memo = memoize(
    createRequestHandler({
      opts,
      cache,
      ready: state.ready,
      lookup: state.lookup,
      generation: state.generation,
      faults,
      overrides,
      ...(source && { source }),
    }),
    { cache, generation: state.generation, faults, overrides },
  )
  /** The one exit: every answered request is counted and logged here, once. */
  // The clock of the log and the usage: the user's `now`, or the real one without a `Date` a request.
  const clock = options.now === undefined ? Date.now : () => opts.now().getTime()
  const record = ({ answer, entry }: Handled, started: number, host?: string) => {
    if (entry) {
      const time = clock()
      usage.record(entry.facts.keyId ?? UNATTRIBUTED, entry.endpoint, entry.status, time)
      log.push(entry, time, performance.now() - started, host)
    }
    return answer
  }
  const answer = (request: RequestLike, fetchOptions?: FetchOptions): TmapsAnswer | Promise<TmapsAnswer> => {
    const started = performance.now()
    const remembered = memo.recall(request, fetchOptions)
    const host = fetchOptions?.host
    return remembered === undefined
      ? memo.handle(request, fetchOptions).then((handled) => record(handled, handled.started, host))
      : record(remembered, started, host)
  }

  const resolveBucket = (ref: KeyRef | typeof UNATTRIBUTED): string => {
    if (ref === UNATTRIBUTED) return UNATTRIBUTED
    const info = state.console.getKey(ref)
    if (!info) {
      throw new TmapsConsoleError(
        'not-found',
        'Failed to read usage: no key matches. Name a key by its id or full value, or pass "unattributed".',
      )
    }
    return info.id
  }

  const core: TmapsMockCore = {
    ready: state.ready,
    console: state.console,
    log,
    faults: { add: faults.add, list: faults.list, remove: faults.remove, clear: faults.clear },
    use: overrides.use,
    options: { baseUrl: opts.baseUrl, tilesUrl: opts.tilesUrl, seed: opts.seed, dataSeed: opts.dataSeed },
    answer,
    fetch: async (request, fetchOptions) => toResponse(await answer(request, fetchOptions)),
    usage: (ref) => usage.report(resolveBucket(ref)),
    onChange: state.onChange,
    reset: () =>
      state.reset(() => {
        log.clear()
        source?.reset?.()
      }),
    snapshot: state.snapshot,
    restore: state.restore,
  }
  return core
}
