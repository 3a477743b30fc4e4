import type { LogEntry } from '../../console/request-log.ts'
import { createUsage, type Usage } from '../../console/usage.ts'
import type { TmapsMockCore } from '../../core/create-core.ts'
import { UNATTRIBUTED, type UsageDay } from '../../store/schemas.ts'
import { parseSnapshot, type TmapsSnapshot } from '../../store/snapshot.ts'

/** What a tab keeps under the `persist` name: the console state, with a version per write. */
interface StoredState {
  version: string
  snapshot: TmapsSnapshot
}

/** What a tab keeps under `<persist>:usage`: every tab's usage counts, added up. */
interface StoredUsage {
  usage: Record<string, UsageDay[]>
}

/** What a tab posts to the others for each request it answered. */
interface TabPost {
  entry: LogEntry
  page: string
}

/** The page's `localStorage` and its `storage` event, or a stand-in (tests). */
export interface TabEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem'>
  /** Calls `listener` with the storage key each other tab's write names; returns the function that stops. */
  onStorage(listener: (key: string | null) => void): () => void
  /** The page's path, told to the other tabs with each request. */
  page(): string
}

/** This page's `localStorage`, `storage` event and path. */
function pageEnvironment(): TabEnvironment {
  return {
    storage: localStorage,
    onStorage(listener) {
      const heard = (event: StorageEvent) => listener(event.key)
      addEventListener('storage', heard)
      return () => removeEventListener('storage', heard)
    },
    page: () => location.pathname,
  }
}

/** Usage counts are written at most this often (ms after a tab's last request). */
const USAGE_DELAY_MS = 500

/**
 * Keeps one origin's tabs in step through `localStorage`, in two entries:
 * - `<name>`: the console state (keys, domains, links) with a version, written by a tab on each
 *   change it makes; before answering a request (and on the `storage` event) a tab that sees a
 *   version it did not write loads that state first;
 * - `<name>:usage`: the usage counts of every tab, added up. Each tab counts its own requests
 *   apart (`pending`) and, at most every 500 ms, adds them to what is stored.
 *
 * A usage write never writes the console state: a tab that has not yet seen another tab's change
 * (`localStorage` reaches the other tabs' processes a little later) cannot undo it with its counts.
 * A change writes the counts as its tab has them (a reset clears them); another tab's counts of
 * the last moment before it may be lost, never a key or a domain.
 */
export function createTabSync(
  core: TmapsMockCore,
  usage: Usage,
  name: string,
  env: TabEnvironment = pageEnvironment(),
) {
  const { storage } = env
  const versionKey = `${name}:version`
  const tab = crypto.randomUUID().slice(0, 8)
  let seen: string | null = null
  let counter = 0
  let applying = 0
  let usageTimer: ReturnType<typeof setTimeout> | undefined
  const counts = sharedUsage(
    core,
    usage,
    `${name}:usage`,
    storage,
    () => storage.getItem(versionKey) === seen,
  )

  const saveState = () => {
    if (applying > 0) return
    const version = `${tab}:${++counter}`
    const text = JSON.stringify({ version, snapshot: core.snapshot() } satisfies StoredState)
    if (!writeItem(storage, name, text) || !writeItem(storage, versionKey, version)) return
    seen = version
    counts.write()
  }
  const saveUsage = () => {
    if (applying > 0) {
      usageTimer = setTimeout(saveUsage, USAGE_DELAY_MS) // once the other tab's state is loaded
      return
    }
    counts.load()
    counts.write()
  }
  const load = async () => {
    const latest = storage.getItem(versionKey)
    if (latest !== null && latest === seen) return
    const stored = readState(storage, name)
    if (!stored) return
    seen = stored.version
    applying++
    try {
      await core.restore(stored.snapshot)
      counts.load(stored.snapshot.usage ?? {})
    } catch (error) {
      console.error(`tmaps-mock: the state stored under "${name}" was not loaded:`, error)
    } finally {
      applying--
    }
  }
  // Queued now, so that it runs right after the initial state's load and before any write.
  const restored = load()
  /** The last load started: a request waits for it even when another caller started it. */
  let loading = restored
  const catchUp = async () => {
    // Waits for the loads others began, then begins at most one (an unreadable state: no loop).
    let current = loading
    await current
    while (current !== loading) {
      current = loading
      await current
    }
    if (storage.getItem(versionKey) === seen) return
    loading = load()
    await loading
  }
  const offChange = core.onChange(saveState)
  const offLog = core.log.subscribe((entry) => {
    counts.record(entry)
    clearTimeout(usageTimer)
    usageTimer = setTimeout(saveUsage, USAGE_DELAY_MS)
  })
  const offStorage = env.onStorage((key) => {
    if (key !== versionKey && key !== counts.key) return
    const usage = key === counts.key
    void catchUp()
      .then(() => core.ready)
      .then(
        () => usage && applying === 0 && counts.load(),
        () => undefined,
      )
  })
  const tabs = otherTabsLog(core, name, env)
  void core.ready.then(() => {
    if (storage.getItem(name) === null) saveState()
  })
  return {
    restored,
    catchUp,
    onUsageLoaded: counts.onLoaded,
    onOtherTabsRequest: tabs.listen,
    stop() {
      for (const off of [offChange, offLog, offStorage, tabs.stop]) off()
      clearTimeout(usageTimer)
    },
  }
}

/**
 * The usage counts of all the tabs, under `key`: this tab's requests are counted apart
 * (`pending`) until written; `load` makes this tab's usage the stored counts plus those.
 */
function sharedUsage(
  core: TmapsMockCore,
  usage: Usage,
  key: string,
  storage: TabEnvironment['storage'],
  hasLatestState: () => boolean,
) {
  const pending = createUsage()
  const listeners = new Set<() => void>()
  return {
    key,
    record(entry: LogEntry): void {
      pending.record(entry.facts.keyId ?? UNATTRIBUTED, entry.endpoint, entry.status, Date.parse(entry.time))
    },
    /** This tab's usage: the stored counts (or `base` when none are stored) plus its own pending. */
    load(base?: Record<string, UsageDay[]>): void {
      const stored = readUsage(storage, key) ?? base
      if (stored === undefined) return
      usage.load(stored)
      usage.add(pending.toJSON())
      // A bucket of a key gone is dropped, once this tab has the latest state (else the key may be new).
      if (hasLatestState()) {
        const keys = new Set(core.console.listKeys().map((k) => k.id))
        usage.retain((bucket) => keys.has(bucket))
      }
      for (const listener of listeners) listener()
    },
    /** Writes this tab's usage as the counts of all (its pending ones are then written). */
    write(): void {
      if (writeItem(storage, key, JSON.stringify({ usage: usage.toJSON() } satisfies StoredUsage)))
        pending.clear()
    },
    /** Calls `listener` when the counts are loaded; returns the function that stops. */
    onLoaded(listener: () => void): () => void {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

/**
 * Each answered request, told to this origin's other tabs on the same state (a channel does not
 * hear its own posts): an app's requests show in its console's log, and the reverse.
 */
function otherTabsLog(core: TmapsMockCore, name: string, env: TabEnvironment) {
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(`${name}:log`)
  const off =
    channel &&
    core.log.subscribe((entry) => channel.postMessage({ entry, page: env.page() } satisfies TabPost))
  return {
    listen(listener: (entry: LogEntry, page: string) => void): () => void {
      if (!channel) return () => {}
      const heard = (event: MessageEvent<TabPost>) => listener(event.data.entry, event.data.page)
      channel.addEventListener('message', heard)
      return () => channel.removeEventListener('message', heard)
    },
    stop() {
      off?.()
      channel?.close()
    },
  }
}

/** Writes `text` under `key`; false (and said on the console) when the storage refuses it. */
function writeItem(storage: TabEnvironment['storage'], key: string, text: string): boolean {
  try {
    storage.setItem(key, text)
    return true
  } catch (error) {
    console.error('tmaps-mock: could not keep the state in localStorage:', error)
    return false
  }
}

function readState(storage: TabEnvironment['storage'], name: string): StoredState | undefined {
  const text = storage.getItem(name)
  if (text === null) return undefined
  try {
    return JSON.parse(text) as StoredState
  } catch {
    console.error(
      `tmaps-mock: the state stored under "${name}" is not JSON; starting from the initial state.`,
    )
    return undefined
  }
}

/** The stored usage counts, checked as a snapshot's; undefined when none or not readable. */
function readUsage(storage: TabEnvironment['storage'], key: string): Record<string, UsageDay[]> | undefined {
  const text = storage.getItem(key)
  if (text === null) return undefined
  try {
    const { usage } = JSON.parse(text) as StoredUsage
    return parseSnapshot({
      format: 'tmaps-mock/snapshot',
      version: 1,
      keys: [],
      domains: [],
      links: [],
      usage,
    }).usage
  } catch (error) {
    console.error(`tmaps-mock: the usage counts stored under "${key}" were not loaded:`, error)
    return undefined
  }
}
