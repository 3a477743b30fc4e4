import { afterEach, describe, expect, it, vi } from 'vitest'
import { createUsage } from '../../console/usage.ts'
import { createCore } from '../../core/create-core.ts'
import { createTabSync, type TabEnvironment } from './tab-sync.ts'

/**
 * One origin's `localStorage` as Chromium has it: each tab reads and writes its own copy at once,
 * and another tab's write reaches it (with its `storage` event) only when `deliver()` says so;
 * then every copy holds what was written last.
 */
function createOrigin() {
  const written = new Map<string, string>()
  const views = new Set<{ copy: Map<string, string>; inbox: string[]; heard: Set<(key: string) => void> }>()
  const view = (): TabEnvironment => {
    const me = { copy: new Map(written), inbox: [] as string[], heard: new Set<(key: string) => void>() }
    views.add(me)
    return {
      storage: {
        getItem: (key) => me.copy.get(key) ?? null,
        setItem(key, value) {
          me.copy.set(key, value)
          written.set(key, value)
          for (const other of views) if (other !== me) other.inbox.push(key)
        },
      },
      onStorage(listener) {
        me.heard.add(listener)
        return () => me.heard.delete(listener)
      },
      page: () => '/',
    }
  }
  const deliver = () => {
    for (const v of views) {
      for (const key of v.inbox.splice(0)) {
        v.copy.set(key, written.get(key) ?? '')
        for (const listener of v.heard) listener(key)
      }
    }
  }
  return { view, deliver, read: (key: string) => written.get(key) }
}

const stops: Array<() => void> = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

/** A tab of `origin` with the mock on an empty console, kept under the name `app`. */
async function openTab(origin: ReturnType<typeof createOrigin>) {
  const usage = createUsage()
  const core = createCore({ state: 'empty' }, { usage })
  const sync = createTabSync(core, usage, 'app', origin.view())
  stops.push(sync.stop)
  await core.ready
  await sync.restored
  return { core, sync }
}

type Tab = Awaited<ReturnType<typeof openTab>>
/** A geocode's status from `tab`, which first loads a change it has heard of (as its worker does). */
const geocode = async ({ core, sync }: Tab, key: string) => {
  await sync.catchUp()
  return (await core.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key}`)))
    .status
}

describe('createTabSync', () => {
  it('a tab that has not yet seen another tab’s change writes its usage counts without undoing that change', async () => {
    const origin = createOrigin()
    const consoleTab = await openTab(origin)
    const key = await consoleTab.core.console.createKey({ name: 'App' })
    const app = await openTab(origin)
    origin.deliver()
    expect(await geocode(app, key.value)).toBe(200)
    expect(await geocode(app, key.value)).toBe(200)
    // Disabled in the console; the app's copy of the storage does not have it yet when its
    // usage counts are written (500 ms after its last request).
    await consoleTab.core.console.disableKey(key.id)
    await vi.waitFor(() => expect(origin.read('app:usage')).toContain('"total":2'), { timeout: 10_000 })
    origin.deliver()
    // The change stands: in the storage, in the app's next answer, in the console.
    expect(JSON.parse(origin.read('app') ?? '').snapshot.keys[0].status).toBe('disabled')
    expect(await geocode(app, key.value)).toBe(401)
    expect(consoleTab.core.console.getKey(key.id)?.status).toBe('disabled')
    // And the console has the app's counts (the two 200s; the 401 is not written yet).
    expect(consoleTab.core.usage(key.id).byStatus).toEqual({ 200: 2 })
  })

  it('adds up the counts of every tab, and a tab’s reset clears them in all', async () => {
    const origin = createOrigin()
    const first = await openTab(origin)
    const key = await first.core.console.createKey({ name: 'App' })
    const second = await openTab(origin)
    origin.deliver()
    const loaded = vi.fn()
    stops.push(first.sync.onUsageLoaded(loaded))
    const stored = () => JSON.parse(origin.read('app:usage') ?? '{}').usage
    expect(await geocode(first, key.value)).toBe(200)
    await vi.waitFor(() => expect(stored()[key.id]?.[0]?.total).toBe(1), { timeout: 10_000 })
    origin.deliver()
    expect(await geocode(second, key.value)).toBe(200)
    expect(await geocode(second, 'ak_00000000000000000000000000000000')).toBe(401)
    await vi.waitFor(() => expect(stored()[key.id]?.[0]?.total).toBe(2), { timeout: 10_000 })
    expect(stored().unattributed[0].total).toBe(1)
    origin.deliver()
    await vi.waitFor(() => {
      for (const tab of [first, second]) {
        expect(tab.core.usage(key.id).total).toBe(2)
        expect(tab.core.usage('unattributed').total).toBe(1)
      }
    })
    expect(loaded).toHaveBeenCalled() // the first tab's console shows the second tab's counts
    await second.core.reset()
    origin.deliver()
    await vi.waitFor(() => expect(first.core.console.listKeys()).toEqual([]))
    expect(first.core.usage('unattributed').total).toBe(0)
    expect(stored()).toEqual({})
  })

  it('reads a state stored before the counts had their own entry, and says so when they do not read', async () => {
    const origin = createOrigin()
    const old = createCore({ state: 'empty' })
    const key = await old.console.createKey({ name: 'App' })
    await old.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`))
    const view = origin.view()
    const snapshot = old.snapshot()
    view.storage.setItem('app', JSON.stringify({ version: 'old:1', snapshot }))
    view.storage.setItem('app:usage', '{"usage": {"key_1": "not days"}}')
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const tab = await openTab(origin)
    expect(tab.core.usage(key.id).total).toBe(1) // the snapshot's own counts
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([
      'tmaps-mock: the usage counts stored under "app:usage" were not loaded:',
    ])
    errors.mockRestore()
  })

  it('answers when the stored state does not read (a version, no JSON): said once a load, never a loop', async () => {
    const origin = createOrigin()
    const tab = await openTab(origin)
    const key = await tab.core.console.createKey({ name: 'App' })
    const other = origin.view()
    other.storage.setItem('app', 'not json')
    other.storage.setItem('app:version', 'other:1')
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    origin.deliver()
    expect(await geocode(tab, key.value)).toBe(200) // its own state kept
    expect(await geocode(tab, key.value)).toBe(200)
    expect(errors.mock.calls.length).toBeGreaterThan(0)
    expect(errors.mock.calls.length).toBeLessThanOrEqual(3) // the storage event's load and each request's
    errors.mockRestore()
  })
})
