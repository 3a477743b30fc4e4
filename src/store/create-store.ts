import type { KeyView } from '../contract/decide.ts'
import type { KeyStatus } from '../contract/key-status.ts'
import { Collection } from '../vendor/msw-data.ts'
import {
  type DomainRecord,
  domainSchema,
  type KeyRecord,
  keySchema,
  type LinkRecord,
  linkSchema,
} from './schemas.ts'

const NONE: readonly string[] = Object.freeze([])

/**
 * A key's index entry. Its sorted domains are kept in step by binary insertion (no sort per
 * link), or sorted once when first read after a load: linking a domain costs O(log N) to find
 * its place plus one copy of the list, loading a snapshot O(N log N).
 */
class IndexedKey implements KeyEntry {
  id: string
  value: string
  status: KeyStatus
  record: KeyRecord
  readonly domains = new Set<string>()
  #linked: readonly string[] | undefined = NONE
  constructor(record: KeyRecord) {
    this.id = record.id
    this.value = record.value
    this.status = record.status
    this.record = record
  }
  get linked(): readonly string[] {
    this.#linked ??= Object.freeze([...this.domains].sort())
    return this.#linked
  }
  link(hostname: string): void {
    if (this.domains.has(hostname)) return
    this.domains.add(hostname)
    const sorted = this.#linked
    if (sorted === undefined) return
    const at = lowerBound(sorted, hostname)
    this.#linked = Object.freeze([...sorted.slice(0, at), hostname, ...sorted.slice(at)])
  }
  unlink(hostname: string): void {
    if (!this.domains.delete(hostname)) return
    const sorted = this.#linked
    if (sorted === undefined) return
    const at = lowerBound(sorted, hostname)
    this.#linked = Object.freeze([...sorted.slice(0, at), ...sorted.slice(at + 1)])
  }
}

/** The first index of a sorted list whose item is not below `item` (code-unit order, as `sort`). */
function lowerBound(sorted: readonly string[], item: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const at = sorted[mid] // below `high`: never undefined
    if (at !== undefined && at < item) low = mid + 1
    else high = mid
  }
  return low
}

/** The index entry of one key: what a request needs, found in O(1) by value or id. */
export interface KeyEntry extends KeyView {
  readonly id: string
  readonly value: string
  readonly status: KeyStatus
  readonly domains: ReadonlySet<string>
  /** `domains` sorted, once per change (a decision logs them without sorting per request). */
  readonly linked: readonly string[]
  /** The stored record (name, dates): console reads need no scan of the collection. */
  readonly record: KeyRecord
}

/** The console's data: three `@msw/data` collections and an index kept in step by their hooks. */
export interface TmapsStore {
  keys: Collection<typeof keySchema>
  domains: Collection<typeof domainSchema>
  links: Collection<typeof linkSchema>
  /** Key entries by full value (the request path). */
  byValue: ReadonlyMap<string, KeyEntry>
  /** Key entries by id (the console path). */
  byId: ReadonlyMap<string, KeyEntry>
  /** Ids of the keys linked to each domain. */
  keysByDomain: ReadonlyMap<string, ReadonlySet<string>>
  /** Domain records by hostname. */
  domainsByHost: ReadonlyMap<string, DomainRecord>
  /** The key records in the order they were created (a changed key keeps its place). */
  keyRecords(): KeyRecord[]
  /**
   * Changes a key's record (status, dates) and returns the new record. Not `keys.update`: that
   * clones the record with `structuredClone` and hands it to mutative, which refuses an object
   * of another realm, as Jest's vm contexts make it. The key keeps its links and its place.
   */
  changeKey(id: string, change: Partial<Pick<KeyRecord, 'name' | 'status' | 'updatedAt'>>): Promise<KeyRecord>
}

/**
 * Creates an empty store. `@msw/data` queries are linear scans, so every lookup a request makes
 * goes through maps that the collections' create/delete hooks keep exact; each hook
 * also calls `onChange` (the pipeline's memo of decisions holds until it is called).
 * @example const store = createStore(); await store.keys.create(record)
 */
export function createStore(onChange: () => void = () => undefined): TmapsStore {
  const keys = new Collection({ schema: keySchema })
  const domains = new Collection({ schema: domainSchema })
  const links = new Collection({ schema: linkSchema })
  const byValue = new Map<string, IndexedKey>()
  const byId = new Map<string, IndexedKey>()
  const keysByDomain = new Map<string, Set<string>>()
  const domainsByHost = new Map<string, DomainRecord>()

  const indexKey = (record: KeyRecord) => {
    const previous = byId.get(record.id)
    if (previous && previous.value !== record.value) byValue.delete(previous.value)
    const entry = previous ?? new IndexedKey(record)
    entry.value = record.value
    entry.status = record.status
    entry.record = record
    byId.set(record.id, entry)
    byValue.set(record.value, entry)
  }
  for (const collection of [keys, domains, links] as const)
    for (const hook of ['create', 'update', 'delete'] as const) collection.hooks.on(hook, onChange)
  keys.hooks.on('create', ({ data }) => indexKey(data.record))
  let changing: string | undefined
  keys.hooks.on('delete', ({ data }) => {
    const entry = byId.get(data.deletedRecord.id)
    if (!entry || entry.id === changing) return
    byId.delete(entry.id)
    byValue.delete(entry.value)
  })

  const link = ({ keyId, hostname }: LinkRecord) => {
    byId.get(keyId)?.link(hostname)
    const set = keysByDomain.get(hostname) ?? new Set()
    set.add(keyId)
    keysByDomain.set(hostname, set)
  }
  const unlink = ({ keyId, hostname }: LinkRecord) => {
    byId.get(keyId)?.unlink(hostname)
    keysByDomain.get(hostname)?.delete(keyId)
  }
  links.hooks.on('create', ({ data }) => link(data.record))
  links.hooks.on('delete', ({ data }) => unlink(data.deletedRecord))
  domains.hooks.on('create', ({ data }) => {
    if (!keysByDomain.has(data.record.hostname)) keysByDomain.set(data.record.hostname, new Set())
    domainsByHost.set(data.record.hostname, data.record)
  })
  domains.hooks.on('delete', ({ data }) => {
    keysByDomain.delete(data.deletedRecord.hostname)
    domainsByHost.delete(data.deletedRecord.hostname)
  })

  const changeKey = async (id: string, change: Partial<KeyRecord>): Promise<KeyRecord> => {
    const entry = byId.get(id)
    if (!entry) throw new Error(`Failed to change key ${id}: it is not in the store.`)
    const next = { ...entry.record, ...change }
    changing = id
    try {
      keys.delete((q) => q.where({ id }))
      return await keys.create(next)
    } catch (error) {
      if (!keys.findFirst((q) => q.where({ id }))) await keys.create(entry.record) // as it was
      throw error
    } finally {
      changing = undefined
    }
  }
  const keyRecords = () => [...byId.values()].map((entry) => entry.record)

  return { keys, domains, links, byValue, byId, keysByDomain, domainsByHost, keyRecords, changeKey }
}
