import type { createKeyGenerator } from '../data/seeded.ts'
import { createStore, type TmapsStore } from './create-store.ts'
import type { UsageDay } from './schemas.ts'
import { nextTurn, type ParsedSnapshot, SLICE_MS, type TmapsSnapshot } from './snapshot.ts'

/**
 * The console's state between a snapshot and a store, both ways: a store built from a snapshot a
 * few milliseconds at a time, a snapshot copied from a store, the `keys` option's keys added to a
 * snapshot, and the queue that runs the state's writes one at a time (core/state.ts wires these
 * to the console).
 */

/** A key of the `keys` option, validated: its hostnames normalized. */
export interface InitialKey {
  value: string
  name: string
  domains: string[]
}

/**
 * A new store holding a snapshot's records, built aside (the caller swaps it in whole) a few
 * milliseconds at a time: requests go on meanwhile, even for 100,000 keys.
 */
export async function storeOf(snapshot: ParsedSnapshot, changed: () => void): Promise<TmapsStore> {
  const next = createStore(changed)
  const records = [
    ...snapshot.keys.map((key) => () => next.keys.create(key)),
    ...snapshot.domains.map((domain) => () => next.domains.create(domain)),
    ...snapshot.links.map((link) => () => next.links.create(link)),
  ]
  let since = performance.now()
  for (const create of records) {
    await create()
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn()
      since = performance.now()
    }
  }
  return next
}

/** The whole console state as a snapshot (copies: later changes do not show in it). */
export function snapshotOf(
  store: TmapsStore,
  usage: Record<string, UsageDay[]>,
  keyIndex: number,
): TmapsSnapshot {
  return {
    format: 'tmaps-mock/snapshot',
    version: 1,
    keys: store.keyRecords().map((k) => ({ ...k })),
    domains: store.domains.all().map((d) => ({ ...d })),
    links: store.links.all().map((l) => ({ ...l })),
    usage,
    keyIndex,
  }
}

/**
 * `snapshot` with each key of `keys` that it lacks (by value) added: enabled, with a new id,
 * linked to its domains (added too when missing). A key already there is left as it is.
 */
export function withKeys(
  snapshot: ParsedSnapshot,
  keys: readonly InitialKey[],
  generator: ReturnType<typeof createKeyGenerator>,
  at: string,
): ParsedSnapshot {
  const values = new Set(snapshot.keys.map((k) => k.value))
  const missing = keys.filter((k) => !values.has(k.value))
  if (missing.length === 0) return snapshot
  const ids = new Set(snapshot.keys.map((k) => k.id))
  const hostnames = new Set(snapshot.domains.map((d) => d.hostname))
  const added = { keys: [...snapshot.keys], domains: [...snapshot.domains], links: [...snapshot.links] }
  for (const { value, name, domains } of missing) {
    let id = generator.next().id
    while (ids.has(id)) id = generator.next().id
    ids.add(id)
    added.keys.push({ id, name, value, status: 'enabled', createdAt: at, updatedAt: at })
    for (const hostname of domains) {
      if (!hostnames.has(hostname)) added.domains.push({ hostname, createdAt: at })
      hostnames.add(hostname)
      added.links.push({ keyId: id, hostname, createdAt: at })
    }
  }
  return { ...snapshot, ...added, keyIndex: generator.index }
}

/** Runs writes one at a time; once one has run, tells the listeners (before its caller resumes). */
export function writeQueue(listeners: ReadonlySet<() => void>) {
  let writes: Promise<unknown> = Promise.resolve()
  return <T>(write: () => Promise<T>): Promise<T> => {
    const run = writes.then(write, write).then((result) => {
      for (const listener of listeners) {
        try {
          listener()
        } catch (error) {
          console.error('tmaps-mock: a change listener threw:', error)
        }
      }
      return result
    })
    writes = run.catch(() => undefined)
    return run
  }
}
