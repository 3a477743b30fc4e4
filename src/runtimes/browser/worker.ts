import { type SetupWorker, type StartOptions, setupWorker } from 'msw/browser'
import type { LogEntry } from '../../console/request-log.ts'
import { createCore, type TmapsMockCore, type TmapsMockOptions } from '../../core/create-core.ts'
import type { TmapsSnapshot } from '../../store/snapshot.ts'
import type { AnswerSource } from '../../upstream/answer-source.ts'
import { pageHandlers, startPageWorker } from './page-worker.ts'
import { type CallerPreset, simulatedHeaders } from './reconstruct.ts'

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
   * Keeps the console state (keys, domains, links, usage) in `localStorage` under this name, and
   * in step across the tabs of the origin: a change in one tab is seen by the next request in
   * every other tab. A stored state is loaded over `state` by `start()` (requests wait for it);
   * `reset()` goes back to `state` (and `keys`) and stores that in turn. Default: not kept.
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
   * Calls `listener` with each request answered in another tab of this origin that keeps the same
   * `persist` state (the app's tabs and its console at `/__tmaps/`), with the path of that tab's
   * page; returns the function that stops. Without `persist`, no other tab is heard.
   */
  onOtherTabsRequest(listener: (entry: LogEntry, page: string) => void): () => void
}

interface Stored {
  version: string
  snapshot: TmapsSnapshot
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
  const core = createCore(mockOptions, source && { source })

  let caller: CallerPreset | null = null
  const sync = persist === undefined ? undefined : createSync(core, persist)
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
    onOtherTabsRequest: (listener) => sync?.onOtherTabsRequest(listener) ?? (() => {}),
  }
}

function readStored(name: string): Stored | undefined {
  const text = localStorage.getItem(name)
  if (text === null) return undefined
  try {
    return JSON.parse(text) as Stored
  } catch {
    console.error(
      `tmaps-mock: the state stored under "${name}" is not JSON; starting from the initial state.`,
    )
    return undefined
  }
}

/**
 * Keeps one origin's tabs in step through `localStorage`: the stored state is loaded over the
 * initial one at once (`restored`); every change is written with a new version; before
 * answering a request (and on the `storage` event) a tab that sees a version it did not write
 * loads that state first. Usage counts are written at most every 500 ms.
 */
function createSync(core: TmapsMockCore, name: string) {
  const versionKey = `${name}:version`
  const tab = crypto.randomUUID().slice(0, 8)
  let seen: string | null = null
  let counter = 0
  let applying = 0
  let usageTimer: ReturnType<typeof setTimeout> | undefined

  const save = (reason: 'change' | 'usage') => {
    if (applying > 0) return
    // Another tab wrote since we last looked: load its state rather than overwrite it with counts.
    if (reason === 'usage' && localStorage.getItem(versionKey) !== seen) return void catchUp()
    const version = `${tab}:${++counter}`
    try {
      const text = JSON.stringify({ version, snapshot: core.snapshot() } satisfies Stored)
      // Looked at again once the state is written out (that takes a while on a busy machine): a
      // change another tab wrote meanwhile is loaded, not overwritten with these counts.
      if (reason === 'usage' && localStorage.getItem(versionKey) !== seen) return void catchUp()
      localStorage.setItem(name, text)
      localStorage.setItem(versionKey, version)
      seen = version
    } catch (error) {
      console.error('tmaps-mock: could not keep the state in localStorage:', error)
    }
  }
  const load = async () => {
    const latest = localStorage.getItem(versionKey)
    if (latest !== null && latest === seen) return
    const stored = readStored(name)
    if (!stored) return
    seen = stored.version
    applying++
    try {
      await core.restore(stored.snapshot)
    } catch (error) {
      console.error(`tmaps-mock: the state stored under "${name}" was not loaded:`, error)
    } finally {
      applying--
    }
  }
  // Queued now, so that it runs right after the initial state's load and before any write.
  const restored = load()
  const catchUp = async () => {
    await restored
    if (localStorage.getItem(versionKey) !== seen) await load()
  }
  const offChange = core.onChange(() => save('change'))
  const offLog = core.log.subscribe(() => {
    clearTimeout(usageTimer)
    usageTimer = setTimeout(() => save('usage'), 500)
  })
  const onStorage = (event: StorageEvent) => {
    if (event.key === versionKey) void catchUp()
  }
  // Each answered request, told to this origin's other tabs on the same state (a channel does not
  // hear its own posts): an app's requests show in its console's log, and the reverse.
  const tabs = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(`${name}:log`)
  const offTabs =
    tabs &&
    core.log.subscribe((entry) => tabs.postMessage({ entry, page: location.pathname } satisfies TabPost))
  addEventListener('storage', onStorage)
  void core.ready.then(() => {
    if (localStorage.getItem(name) === null) save('change')
  })
  return {
    restored,
    catchUp,
    onOtherTabsRequest(listener: (entry: LogEntry, page: string) => void) {
      if (!tabs) return () => {}
      const heard = (event: MessageEvent<TabPost>) => listener(event.data.entry, event.data.page)
      tabs.addEventListener('message', heard)
      return () => tabs.removeEventListener('message', heard)
    },
    stop() {
      offChange()
      offLog()
      offTabs?.()
      tabs?.close()
      clearTimeout(usageTimer)
      removeEventListener('storage', onStorage)
    },
  }
}

/** What a tab posts to the others for each request it answered. */
interface TabPost {
  entry: LogEntry
  page: string
}
