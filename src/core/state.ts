import { TmapsConsoleError } from '../console/console-error.ts'
import { type CreatedKey, createConsole, type TmapsConsole } from '../console/create-console.ts'
import type { Usage } from '../console/usage.ts'
import type { KeyView } from '../contract/decide.ts'
import { createKeyGenerator } from '../data/seeded.ts'
import { createStore, type TmapsStore } from '../store/create-store.ts'
import { demoSnapshot } from '../store/demo-state.ts'
import { snapshotOf, storeOf, withKeys, writeQueue } from '../store/load.ts'
import {
  type ParsedSnapshot,
  parseSnapshot,
  parseSnapshotInSlices,
  type TmapsSnapshot,
} from '../store/snapshot.ts'
import { must } from '../validate/must.ts'
import { DEFAULT_DEMO_SEED, type ResolvedOptions } from './options.ts'

/**
 * What the initial state created, resolved by `mock.ready` and `mock.reset()`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsReadyInfo } from 'tmaps-mock'
 *
 * const mock = createTmapsMock() // the demo console
 * const { createdKeys }: TmapsReadyInfo = await mock.ready
 * const local = createdKeys.find((key) => key.name === 'Web app (local dev)')
 * assert.deepEqual(local?.domains, ['localhost']) // with its full value: local?.value
 * ```
 */
export interface TmapsReadyInfo {
  /**
   * The keys the initial state created, with their full values: the one time they are shown,
   * as the real console shows a new key once. Empty for `state: 'empty'` and for snapshots.
   */
  createdKeys: CreatedKey[]
}

const EMPTY = { format: 'tmaps-mock/snapshot', version: 1, keys: [], domains: [], links: [] } as const

/**
 * The console's state: a store that is swapped whole on load (so a failed load changes
 * nothing), writes run one at a time, and listeners told after each.
 */
export function createState(opts: ResolvedOptions, usage: Usage) {
  const initial: ParsedSnapshot =
    opts.state === 'demo'
      ? demoSnapshot(opts.seed ?? DEFAULT_DEMO_SEED)
      : parseSnapshot(opts.state === 'empty' ? EMPTY : opts.state)

  // The `keys` option's keys date from the mock's creation, whenever they are added: a reset
  // gives back the very same state.
  const keysCreatedAt = opts.now().toISOString()

  // Every change of the console state, and every load, moves this on (see the pipeline's memo).
  let generation = 0
  const changed = () => {
    generation++
  }
  let store: TmapsStore = createStore(changed)
  let generator = createKeyGenerator(opts.seed)
  let loaded = false
  const listeners = new Set<() => void>()
  const serialize = writeQueue(listeners)

  const consoleApi: TmapsConsole = createConsole({
    store: () => store,
    now: opts.now,
    nextKey: () => generator.next(),
    assertReady: (action) => {
      if (!loaded) {
        throw new TmapsConsoleError(
          'not-ready',
          `Failed to ${action}: the mock is still loading its initial state. Await mock.ready first.`,
        )
      }
    },
    serialize,
  })

  /** Loads a state whole; the `keys` option's keys missing from it are added on the way. */
  const load = async (parsed: ParsedSnapshot): Promise<void> => {
    const nextGenerator = createKeyGenerator(opts.seed, parsed.keyIndex)
    const snapshot = withKeys(parsed, opts.keys, nextGenerator, keysCreatedAt)
    const next = await storeOf(snapshot, changed)
    store = next
    changed()
    generator = nextGenerator
    usage.load(snapshot.usage)
    usage.retain((bucket) => next.byId.has(bucket))
    loaded = true
  }

  // The demo state's keys are new keys: their values are shown once, on ready and on reset.
  const createdKeys = (): TmapsReadyInfo => ({
    createdKeys:
      opts.state === 'demo'
        ? initial.keys.map((k) => ({
            ...must(consoleApi.getKey(k.id), `no demo key ${k.id} in the console`),
            value: k.value,
          }))
        : [],
  })

  const ready = serialize(async () => {
    await load(initial)
    return createdKeys()
  })
  // A failed load surfaces on `ready` and on every request; never as an unhandled rejection.
  ready.catch(() => undefined)

  return {
    ready,
    console: consoleApi,
    /** The key with this full value, as the contract sees it (O(1)). */
    lookup: (value: string): KeyView | undefined => store.byValue.get(value),
    /** Moves on with every change of the state (a key, a domain, a link, a load). */
    generation: () => generation,
    onChange(listener: () => void): () => void {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    /** Back to the initial state; `beforeResolve` runs once it is loaded (the core clears its log). */
    reset(beforeResolve: () => void): Promise<TmapsReadyInfo> {
      return serialize(async () => {
        await load(initial)
        beforeResolve()
        return createdKeys()
      })
    },
    snapshot(): TmapsSnapshot {
      consoleApi.listKeys() // throws the "await mock.ready" error while loading
      return snapshotOf(store, usage.toJSON(), generator.index)
    },
    async restore(snapshot: TmapsSnapshot | string): Promise<void> {
      const parsed = await parseSnapshotInSlices(snapshot)
      await serialize(() => load(parsed))
    },
  }
}
