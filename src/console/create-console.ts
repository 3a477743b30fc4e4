import { parseDomainInput } from '../contract/hostname.ts'
import { isKeyValue, keyPrefix, maskKey } from '../contract/key-format.ts'
import { allowedKeyActions, type KeyAction, type KeyStatus, nextKeyStatus } from '../contract/key-status.ts'
import type { KeyMaterial } from '../data/seeded.ts'
import type { KeyEntry, TmapsStore } from '../store/create-store.ts'
import type { KeyRecord } from '../store/schemas.ts'
import { keyNameProblem, MAX_DOMAINS_PER_KEY, MAX_KEY_NAME_LENGTH, MAX_KEYS } from '../store/schemas.ts'
import { must } from '../validate/must.ts'
import { TmapsConsoleError } from './console-error.ts'

/**
 * A key as the console lists it: by prefix, never by full value.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type KeyInfo } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const { id } = await mock.console.createKey({ name: 'Web' })
 * const info: KeyInfo = await mock.console.disableKey(id)
 * assert.equal(info.status, 'disabled')
 * assert.deepEqual(info.actions, ['enable', 'revoke']) // what a UI should offer now
 * ```
 */
export interface KeyInfo {
  id: string
  name: string
  /** The first characters of the key (`ak_1a2b`), to recognize it without showing it. */
  prefix: string
  status: KeyStatus
  createdAt: string
  updatedAt: string
  /** The authorized domains linked to the key. */
  domains: string[]
  /** The status actions the console offers for this key now. */
  actions: KeyAction[]
}

/**
 * A key just created: the only time its full value is shown, as in the real console.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { type CreatedKey, createTmapsMock, isKeyValue } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key: CreatedKey = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * assert.ok(isKeyValue(key.value)) // the full value, shown this once
 * assert.equal(mock.console.getKey(key.id)?.prefix, key.value.slice(0, 7)) // later: a prefix
 * ```
 */
export interface CreatedKey extends KeyInfo {
  value: string
}

/**
 * An authorized domain with the keys linked to it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DomainInfo } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const domains: DomainInfo[] = mock.console.listDomains()
 * assert.equal(domains[0]?.hostname, 'localhost')
 * assert.equal(domains[0]?.keys[0]?.name, 'Web')
 * ```
 */
export interface DomainInfo {
  hostname: string
  createdAt: string
  keys: Array<Pick<KeyInfo, 'id' | 'name' | 'prefix' | 'status'>>
}

/**
 * A key named by its id (`key_…`), its full value, or any object with its id.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type KeyRef } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Web' })
 * const refs: KeyRef[] = [key.id, key.value, key] // three names for the same key
 * for (const ref of refs) assert.equal(mock.console.getKey(ref)?.id, key.id)
 * ```
 */
export type KeyRef = string | { id: string }

/**
 * What `console.createKey()` takes: a name, the domains to link, and optionally a known value.
 *
 * `domains` defaults to none (the key then works server-side only); `value` defaults to a new
 * random key (or a seeded one with the `seed` option).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { type CreateKeyInput, createTmapsMock } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const input: CreateKeyInput = {
 *   name: 'Production frontend',
 *   domains: ['www.mysite.tn', 'MySite.tn'],
 * }
 * const key = await mock.console.createKey(input)
 * assert.deepEqual(key.domains, ['mysite.tn', 'www.mysite.tn']) // added, normalized and linked
 * ```
 */
export interface CreateKeyInput {
  /** A label, e.g. "Production frontend". It has no technical effect. */
  name: string
  /** Hostnames to link; missing authorized domains are added. */
  domains?: readonly string[]
  /** Import a known key value instead of generating one (`ak_` + 32 lower-case hex). */
  value?: string
}

/**
 * The provider's console as an API: keys, authorized domains and their links.
 *
 * Every write is validated completely before anything changes; a refused action throws a
 * `TmapsConsoleError` and leaves nothing half done.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsConsole } from 'tmaps-mock'
 *
 * // Links a preview deployment's host to every enabled key.
 * async function linkPreview(tmapsConsole: TmapsConsole, hostname: string) {
 *   await tmapsConsole.addDomain(hostname) // an authorized domain first, then its links
 *   for (const key of tmapsConsole.listKeys()) {
 *     if (key.status === 'enabled') await tmapsConsole.linkDomain(key, hostname)
 *   }
 * }
 *
 * const mock = createTmapsMock() // the demo console
 * await mock.ready
 * await linkPreview(mock.console, 'preview.mysite.tn')
 * const preview = mock.console.listDomains().find((d) => d.hostname === 'preview.mysite.tn')
 * assert.ok(preview && preview.keys.length > 0)
 * ```
 */
export interface TmapsConsole {
  createKey(input: CreateKeyInput): Promise<CreatedKey>
  getKey(ref: KeyRef): KeyInfo | undefined
  listKeys(): KeyInfo[]
  disableKey(ref: KeyRef): Promise<KeyInfo>
  enableKey(ref: KeyRef): Promise<KeyInfo>
  revokeKey(ref: KeyRef): Promise<KeyInfo>
  addDomain(hostname: string): Promise<DomainInfo>
  removeDomain(hostname: string): Promise<void>
  listDomains(): DomainInfo[]
  linkDomain(ref: KeyRef, hostname: string): Promise<KeyInfo>
  unlinkDomain(ref: KeyRef, hostname: string): Promise<KeyInfo>
  setKeyDomains(ref: KeyRef, hostnames: readonly string[]): Promise<KeyInfo>
}

interface ConsoleContext {
  store: () => TmapsStore
  now: () => Date
  nextKey: () => KeyMaterial
  /** Throws the "await mock.ready" error while the initial state is loading. */
  assertReady: (action: string) => void
  /** Runs one write at a time, in call order. */
  serialize: <T>(write: () => Promise<T>) => Promise<T>
}

/**
 * Builds the console over a store: each action below is a function of its own, given the
 * context. Every write is validated completely before anything changes, so a refused action
 * never leaves half its work behind.
 * @example const console = createConsole(context); await console.createKey({ name: 'Web' })
 */
export function createConsole(ctx: ConsoleContext): TmapsConsole {
  return {
    createKey: (input) => createKey(ctx, input),
    getKey: (ref) => getKey(ctx, ref),
    listKeys: () => listKeys(ctx),
    disableKey: (ref) => changeStatus(ctx, 'disable', ref),
    enableKey: (ref) => changeStatus(ctx, 'enable', ref),
    revokeKey: (ref) => changeStatus(ctx, 'revoke', ref),
    addDomain: (hostname) => addDomain(ctx, hostname),
    removeDomain: (hostname) => removeDomain(ctx, hostname),
    listDomains: () => listDomains(ctx),
    linkDomain: (ref, hostname) => linkDomain(ctx, ref, hostname),
    unlinkDomain: (ref, hostname) => unlinkDomain(ctx, ref, hostname),
    setKeyDomains: (ref, hostnames) => setKeyDomains(ctx, ref, hostnames),
  }
}

// The console's actions.

function createKey(ctx: ConsoleContext, input: CreateKeyInput): Promise<CreatedKey> {
  return ctx.serialize(async () => {
    const action = 'create key'
    ctx.assertReady(action)
    if (!input || typeof input !== 'object')
      fail('invalid-input', action, 'pass an object such as { name: "Production frontend" }')
    const name = checkedName(input.name, action)
    const domains = normalizeAll(input.domains ?? [], action)
    assertDomainCount(domains.length, action)
    const store = ctx.store()
    if (store.byId.size >= MAX_KEYS)
      fail(
        'conflict',
        action,
        `the console holds ${MAX_KEYS} keys, its limit. Revoke and delete some, or reset`,
      )
    const material = newKeyMaterial(ctx, input.value, action)
    const now = ctx.now().toISOString()
    const record = await store.keys.create({
      ...material,
      name,
      status: 'enabled',
      createdAt: now,
      updatedAt: now,
    })
    await setLinks(
      ctx,
      must(store.byId.get(record.id), `no store entry for the key just created, ${record.id}`),
      domains,
    )
    return { ...info(ctx, record), value: record.value }
  })
}

function getKey(ctx: ConsoleContext, ref: KeyRef): KeyInfo | undefined {
  ctx.assertReady('get key')
  const entry = findEntry(ctx, ref)
  return entry ? info(ctx, entry.record) : undefined
}

function listKeys(ctx: ConsoleContext): KeyInfo[] {
  ctx.assertReady('list keys')
  return ctx
    .store()
    .keyRecords()
    .map((record) => info(ctx, record))
}

/** Disables, enables or revokes a key: the documented transitions only. */
function changeStatus(ctx: ConsoleContext, action: KeyAction, ref: KeyRef): Promise<KeyInfo> {
  return ctx.serialize(async () => {
    const label = `${action} key`
    ctx.assertReady(label)
    const entry = requireEntry(ctx, ref, label)
    const next = nextKeyStatus(entry.status, action)
    if (!next.ok)
      return fail(
        'forbidden-transition',
        label,
        `key ${maskKey(entry.value)} cannot be ${action}d: ${next.reason}`,
      )
    const changed = await ctx
      .store()
      .changeKey(entry.id, { status: next.status, updatedAt: ctx.now().toISOString() })
    return info(ctx, changed)
  })
}

function addDomain(ctx: ConsoleContext, hostname: string): Promise<DomainInfo> {
  return ctx.serialize(async () => {
    const action = 'add domain'
    ctx.assertReady(action)
    const normalized = normalizeOne(hostname, action)
    await ensureDomain(ctx, normalized)
    return domainInfo(ctx, normalized)
  })
}

function removeDomain(ctx: ConsoleContext, hostname: string): Promise<void> {
  return ctx.serialize(async () => {
    const action = 'remove domain'
    ctx.assertReady(action)
    const normalized = normalizeOne(hostname, action)
    const store = ctx.store()
    if (!store.keysByDomain.has(normalized))
      fail(
        'not-found',
        action,
        `"${normalized}" is not an authorized domain. List them with console.listDomains()`,
      )
    store.links.deleteMany((q) => q.where({ hostname: normalized }))
    store.domains.delete((q) => q.where({ hostname: normalized }))
  })
}

function listDomains(ctx: ConsoleContext): DomainInfo[] {
  ctx.assertReady('list domains')
  return ctx
    .store()
    .domains.all()
    .map((d) => domainInfo(ctx, d.hostname))
}

function linkDomain(ctx: ConsoleContext, ref: KeyRef, hostname: string): Promise<KeyInfo> {
  const normalize = (action: string) => normalizeOne(hostname, action)
  return changeKeyDomains(ctx, 'link domain', ref, normalize, async (entry, normalized) => {
    if (!ctx.store().keysByDomain.has(normalized))
      fail(
        'not-found',
        'link domain',
        `"${normalized}" is not an authorized domain yet. Add it first with console.addDomain("${normalized}"), or use console.setKeyDomains()`,
      )
    if (entry.domains.has(normalized)) return
    assertDomainCount(entry.domains.size + 1, 'link domain')
    await ctx
      .store()
      .links.create({ keyId: entry.id, hostname: normalized, createdAt: ctx.now().toISOString() })
    await touch(ctx, entry)
  })
}

function unlinkDomain(ctx: ConsoleContext, ref: KeyRef, hostname: string): Promise<KeyInfo> {
  const normalize = (action: string) => normalizeOne(hostname, action)
  return changeKeyDomains(ctx, 'unlink domain', ref, normalize, async (entry, normalized) => {
    if (!entry.domains.has(normalized)) return
    ctx.store().links.delete((q) => q.where({ keyId: entry.id, hostname: normalized }))
    await touch(ctx, entry)
  })
}

function setKeyDomains(ctx: ConsoleContext, ref: KeyRef, hostnames: readonly string[]): Promise<KeyInfo> {
  const normalize = (action: string) => normalizeAll(hostnames, action)
  return changeKeyDomains(ctx, 'set key domains', ref, normalize, async (entry, wanted) => {
    assertDomainCount(wanted.length, 'set key domains')
    await setLinks(ctx, entry, wanted)
    await touch(ctx, entry)
  })
}

// What the actions share.

const fail = (code: TmapsConsoleError['code'], action: string, reason: string): never => {
  throw new TmapsConsoleError(code, `Failed to ${action}: ${reason}.`)
}

/** A key reference as an error names it: a value masked, an id cut short. */
function describeRef(ref: unknown): string {
  if (typeof ref === 'string') return ref.startsWith('ak_') ? maskKey(ref) : JSON.stringify(ref.slice(0, 40))
  if (ref && typeof ref === 'object' && 'id' in ref) return JSON.stringify(String(ref.id).slice(0, 40))
  return String(ref)
}

/**
 * A key's name, trimmed: not empty, not too long, no control characters (`keyNameProblem`, as a snapshot's).
 */
function checkedName(given: unknown, action: string): string {
  const name = typeof given === 'string' ? given.trim() : ''
  const problem = keyNameProblem(name)
  if (problem === 'empty')
    fail('invalid-input', action, 'the name is empty. Give the key a label such as "Production frontend"')
  if (problem === 'too-long')
    fail('invalid-input', action, `the name is longer than ${MAX_KEY_NAME_LENGTH} characters`)
  if (problem === 'control-characters')
    fail(
      'invalid-input',
      action,
      'the name contains control characters (such as ESC or a line break), which would be printed raw in a terminal. Use plain text',
    )
  return name
}

/**
 * A new key's id and value: the imported value (checked, not already there) or a fresh one, with an id no key
 * has.
 */
function newKeyMaterial(ctx: ConsoleContext, value: unknown, action: string): KeyMaterial {
  const store = ctx.store()
  let material: KeyMaterial
  if (value !== undefined) {
    if (typeof value !== 'string' || !isKeyValue(value))
      fail(
        'invalid-input',
        action,
        `${describeRef(String(value))} is not a TMaps key value (expected "ak_" followed by 32 lower-case hex characters)`,
      )
    if (store.byValue.has(value as string))
      fail('conflict', action, `a key with the value ${maskKey(value as string)} already exists`)
    material = { id: ctx.nextKey().id, value: value as string }
  } else {
    do material = ctx.nextKey()
    while (store.byValue.has(material.value) || store.byId.has(material.id))
  }
  while (store.byId.has(material.id)) material = { ...material, id: ctx.nextKey().id }
  return material
}

function findEntry(ctx: ConsoleContext, ref: KeyRef): KeyEntry | undefined {
  const store = ctx.store()
  if (typeof ref === 'string') return isKeyValue(ref) ? store.byValue.get(ref) : store.byId.get(ref)
  if (ref && typeof ref === 'object' && typeof ref.id === 'string') return store.byId.get(ref.id)
  return undefined
}

function requireEntry(ctx: ConsoleContext, ref: KeyRef, action: string): KeyEntry {
  return (
    findEntry(ctx, ref) ??
    fail(
      'not-found',
      action,
      `no key matches ${describeRef(ref)}. Name a key by its id or full value; list them with console.listKeys()`,
    )
  )
}

function info(ctx: ConsoleContext, record: KeyRecord): KeyInfo {
  const entry = ctx.store().byId.get(record.id)
  return {
    id: record.id,
    name: record.name,
    prefix: keyPrefix(record.value),
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    domains: entry ? [...entry.linked] : [],
    actions: allowedKeyActions(record.status),
  }
}

function normalizeAll(hostnames: readonly string[], action: string): string[] {
  if (!Array.isArray(hostnames))
    fail('invalid-input', action, 'domains must be an array of hostnames, e.g. ["localhost", "mysite.tn"]')
  return [...new Set(hostnames.map((h) => normalizeOne(h, action)))]
}

/** A hostname as the console keeps it (`parseDomainInput`), or the console's error in its words. */
function normalizeOne(hostname: string, action: string): string {
  const parsed = parseDomainInput(hostname)
  return parsed.ok ? parsed.hostname : fail('invalid-input', action, parsed.error)
}

function assertDomainCount(count: number, action: string): void {
  if (count > MAX_DOMAINS_PER_KEY)
    fail(
      'invalid-input',
      action,
      `a key may be linked to at most ${MAX_DOMAINS_PER_KEY} domains (this would make ${count}). Link the hosts your apps run on`,
    )
}

async function ensureDomain(ctx: ConsoleContext, hostname: string): Promise<void> {
  const store = ctx.store()
  if (!store.keysByDomain.has(hostname))
    await store.domains.create({ hostname, createdAt: ctx.now().toISOString() })
}

function assertMutable(entry: KeyEntry, action: string): void {
  if (entry.status === 'revoked')
    fail(
      'forbidden-transition',
      action,
      `key ${maskKey(entry.value)} is revoked, and revocation is final. Create a new key instead`,
    )
}

async function touch(ctx: ConsoleContext, entry: KeyEntry): Promise<void> {
  await ctx.store().changeKey(entry.id, { updatedAt: ctx.now().toISOString() })
}

async function setLinks(ctx: ConsoleContext, entry: KeyEntry, wanted: readonly string[]): Promise<void> {
  const store = ctx.store()
  for (const hostname of wanted) await ensureDomain(ctx, hostname)
  const wantedSet = new Set(wanted)
  for (const hostname of [...entry.domains]) {
    if (!wantedSet.has(hostname)) store.links.delete((q) => q.where({ keyId: entry.id, hostname }))
  }
  for (const hostname of wanted) {
    if (!entry.domains.has(hostname))
      await store.links.create({ keyId: entry.id, hostname, createdAt: ctx.now().toISOString() })
  }
}

/** One write to a key's domains: validated whole (key, hostnames, not revoked) before it runs. */
function changeKeyDomains<T>(
  ctx: ConsoleContext,
  action: string,
  ref: KeyRef,
  /** The hostnames to write, checked and normalized (one or a list). */
  normalize: (action: string) => T,
  change: (entry: KeyEntry, normalized: T) => Promise<void>,
): Promise<KeyInfo> {
  return ctx.serialize(async () => {
    ctx.assertReady(action)
    const entry = requireEntry(ctx, ref, action)
    const normalized = normalize(action)
    assertMutable(entry, action)
    await change(entry, normalized)
    return info(ctx, entry.record)
  })
}

function domainInfo(ctx: ConsoleContext, hostname: string): DomainInfo {
  const store = ctx.store()
  const record = must(store.domainsByHost.get(hostname), `no domain record for ${hostname}`)
  const keys = [...(store.keysByDomain.get(hostname) ?? [])].flatMap((id) => {
    const entry = store.byId.get(id)
    if (!entry) return []
    const key = entry.record
    return [{ id: key.id, name: key.name, prefix: keyPrefix(key.value), status: key.status }]
  })
  return { hostname, createdAt: record.createdAt, keys }
}
