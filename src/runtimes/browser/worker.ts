import { type SetupWorker, type StartOptions, setupWorker } from 'msw/browser'
import type { LogEntry } from '../../console/request-log.ts'
import { createUsage } from '../../console/usage.ts'
import { createCore, type TmapsMockCore, type TmapsMockOptions } from '../../core/create-core.ts'
import type { AnswerSource } from '../../upstream/answer-source.ts'
import { pageHandlers, startPageWorker } from './page-worker.ts'
import { type CallerPreset, simulatedHeaders } from './reconstruct.ts'
import { createTabSync } from './tab-sync.ts'

/**
 * The options of `setupTmapsWorker()`: every `createTmapsMock` option, plus `persist` and `start`.
 * @example
 * ```ts
 * import { setupTmapsWorker, type TmapsWorkerOptions } from 'tmaps-mock/browser'
 *
 * const options: TmapsWorkerOptions = {
 *   persist: 'my-app', // keep the console in localStorage, in step across tabs; default: not kept
 *   start: { quiet: true, onUnhandledFrame: 'bypass' }, // the default
 *   state: 'empty', // and every other createTmapsMock option
 * }
 * const tmaps = setupTmapsWorker(options)
 * await tmaps.start()
 * await tmaps.console.createKey({ name: 'Web' })
 * console.assert(localStorage.getItem('my-app')?.includes('"name":"Web"') === true)
 * tmaps.stop()
 * ```
 */
export interface TmapsWorkerOptions extends TmapsMockOptions {
  /**
   * Keeps the console state (keys, domains, links) in `localStorage` under this name, and the
   * usage counts of all the origin's tabs under `<name>:usage`, in step across the tabs: a change
   * in one tab is seen by the next request in every other tab. A stored state is loaded over
   * `state` by `start()` (requests wait for it); `reset()` goes back to `state` (and `keys`) and
   * stores that in turn. Default: not kept.
   */
  persist?: string
  /** `worker.start()` options. Default `{ quiet: true, onUnhandledFrame: 'bypass' }`. */
  start?: StartOptions
}

/**
 * The TMaps mock in a page: the mock's core plus msw's worker, `start()`, `stop()` and `simulateCaller()`.
 * @example
 * ```ts
 * import { setupTmapsWorker, type TmapsWorker } from 'tmaps-mock/browser'
 *
 * const tmaps: TmapsWorker = setupTmapsWorker({ state: 'empty' })
 * await tmaps.start()
 * const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
 * tmaps.simulateCaller({ kind: 'server' }) // from now on, as a server: no Origin, no Referer
 * await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`)
 * console.assert(tmaps.log.entries()[0]?.rule === 'no-browser-headers')
 * tmaps.simulateCaller(null)
 * tmaps.stop()
 * ```
 */
export interface TmapsWorker extends TmapsMockCore {
  /** The msw worker, for `worker.use()` and the like. */
  readonly worker: SetupWorker
  /** Registers the service worker and waits for the mock's state. */
  start(): Promise<void>
  stop(): void
  /**
   * Pretends every following request comes from another caller (a tile `<img>`, a sandboxed
   * iframe, another site, a server), or `null` to observe the page again. One request can say
   * so itself with the `X-TMaps-Caller` header. The log marks such facts as simulated.
   */
  simulateCaller(caller: CallerPreset | null): void
  /**
   * Calls `listener` after every change of the console state and, with `persist`, whenever the
   * usage counts of the origin's other tabs are loaded. Returns the function that unsubscribes.
   */
  onChange(listener: () => void): () => void
  /**
   * Calls `listener` with each request answered in another tab of this origin that keeps the same
   * `persist` state (the app's tabs and its console at `/__tmaps/`), with the path of that tab's
   * page; returns the function that stops. Without `persist`, no other tab is heard.
   */
  onOtherTabsRequest(listener: (entry: LogEntry, page: string) => void): () => void
}

/** `setupTmapsWorker`, with a source of answers for the accepted requests (a Vitest recording). */
export function createTmapsWorker(options: TmapsWorkerOptions, source?: AnswerSource): TmapsWorker {
  const { persist, start: startOptions, ...mockOptions } = options
  if (persist !== undefined && (typeof persist !== 'string' || persist === '')) {
    throw new TypeError(
      'Failed to set up the TMaps worker: persist must be a non-empty string (a storage name).',
    )
  }
  // The configured state is the core's initial state (what `reset()` goes back to); a stored
  // state is restored over it right after, before any request is answered.
  const usage = createUsage({ maxDays: mockOptions.usageDays })
  const core = createCore(mockOptions, { usage, ...(source && { source }) })

  let caller: CallerPreset | null = null
  const sync = persist === undefined ? undefined : createTabSync(core, usage, persist)
  const worker = setupWorker(...pageHandlers(core, () => caller, sync && { before: sync.catchUp }))

  return {
    ...core,
    worker,
    async start() {
      await startPageWorker(worker, startOptions)
      await core.ready
      await sync?.restored
    },
    stop() {
      worker.stop()
      sync?.stop()
    },
    simulateCaller(next: CallerPreset | null) {
      if (next) simulatedHeaders(next, { origin: location.origin, href: location.href }, core.options.baseUrl)
      caller = next
    },
    onChange(listener) {
      const offChange = core.onChange(listener)
      const offUsage = sync?.onUsageLoaded(listener)
      return () => {
        offChange()
        offUsage?.()
      }
    },
    onOtherTabsRequest: (listener) => sync?.onOtherTabsRequest(listener) ?? (() => {}),
  }
}
