import { parseDomainInput } from '../contract/hostname.ts'
import { isKeyValue, keyPrefix, maskKey } from '../contract/key-format.ts'
import { allowedKeyActions, type KeyAction, type KeyStatus, nextKeyStatus } from '../contract/key-status.ts'
import type { KeyMaterial } from '../data/seeded.ts'
import type { KeyEntry, TmapsStore } from '../store/create-store.ts'
import type { KeyRecord } from '../store/schemas.ts'
import { MAX_DOMAINS_PER_KEY, MAX_KEYS } from '../store/schemas.ts'
import { hasControlCharacters } from '../text/control-characters.ts'
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

export interface ConsoleContext {
  store: () => TmapsStore
  now: () => Date
  nextKey: () => KeyMaterial
  /** Throws the "await mock.ready" error while the initial state is loading. */
  assertReady: (action: string) => void
  /** Runs one write at a time, in call order. */
  serialize: <T>(write: () => Promise<T>) => Promise<T>
}

const MAX_NAME_LENGTH = 100

/**
 * Builds the console over a store. Every write is validated completely before anything changes,
 * so a refused action never leaves half its work behind.
 * @example const console = createConsole(context); await console.createKey({ name: 'Web' })
 */
export function createConsole(ctx: ConsoleContext): TmapsConsole {
  const fail = (code: TmapsConsoleError['code'], action: string, reason: string): never => {
    throw new TmapsConsoleError(code, `Failed to ${action}: ${reason}.`)
  }

  const describeRef = (ref: unknown): string => {
    if (typeof ref === 'string')
      return ref.startsWith('ak_') ? maskKey(ref) : JSON.stringify(ref.slice(0, 40))
    if (ref && typeof ref === 'object' && 'id' in ref) return JSON.stringify(String(ref.id).slice(0, 40))
    return String(ref)
  }

  const findEntry = (ref: KeyRef): KeyEntry | undefined => {
    const store = ctx.store()
    if (typeof ref === 'string') return isKeyValue(ref) ? store.byValue.get(ref) : store.byId.get(ref)
    if (ref && typeof ref === 'object' && typeof ref.id === 'string') return store.byId.get(ref.id)
    return undefined
  }

  const requireEntry = (ref: KeyRef, action: string): KeyEntry => {
    const entry = findEntry(ref)
    if (!entry) {
      return fail(
        'not-found',
        action,
        `no key matches ${describeRef(ref)}. Name a key by its id or full value; list them with console.listKeys()`,
      )
    }
    return entry
  }

  const recordOf = (entry: KeyEntry): KeyRecord => entry.record

  const info = (record: KeyRecord): KeyInfo => {
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

  const normalizeAll = (hostnames: readonly string[], action: string): string[] => {
    if (!Array.isArray(hostnames))
      fail('invalid-input', action, 'domains must be an array of hostnames, e.g. ["localhost", "mysite.tn"]')
    return [
      ...new Set(
        hostnames.map((h) => {
          const parsed = parseDomainInput(h)
          return parsed.ok ? parsed.hostname : fail('invalid-input', action, parsed.error)
        }),
      ),
    ]
  }

  const assertDomainCount = (count: number, action: string) => {
    if (count > MAX_DOMAINS_PER_KEY)
      fail(
        'invalid-input',
        action,
        `a key may be linked to at most ${MAX_DOMAINS_PER_KEY} domains (this would make ${count}). Link the hosts your apps run on`,
      )
  }

  const ensureDomain = async (hostname: string) => {
    const store = ctx.store()
    if (!store.keysByDomain.has(hostname)) {
      await store.domains.create({ hostname, createdAt: ctx.now().toISOString() })
    }
  }

  const assertMutable = (entry: KeyEntry, action: string) => {
    if (entry.status === 'revoked') {
      fail(
        'forbidden-transition',
        action,
        `key ${maskKey(entry.value)} is revoked, and revocation is final. Create a new key instead`,
      )
    }
  }

  const touch = async (entry: KeyEntry) => {
    await ctx.store().changeKey(entry.id, { updatedAt: ctx.now().toISOString() })
  }

  const transition = (action: KeyAction) => (ref: KeyRef) =>
    ctx.serialize(async () => {
      const label = `${action} key`
      ctx.assertReady(label)
      const entry = requireEntry(ref, label)
      const next = nextKeyStatus(entry.status, action)
      if (!next.ok)
        return fail(
          'forbidden-transition',
          label,
          `key ${maskKey(entry.value)} cannot be ${action}d: ${next.reason}`,
        )
      const changed = await ctx.store().changeKey(entry.id, {
        status: next.status,
        updatedAt: ctx.now().toISOString(),
      })
      return info(changed)
    })

  const setLinks = async (entry: KeyEntry, wanted: readonly string[]) => {
    const store = ctx.store()
    for (const hostname of wanted) await ensureDomain(hostname)
    const wantedSet = new Set(wanted)
    for (const hostname of [...entry.domains]) {
      if (!wantedSet.has(hostname)) store.links.delete((q) => q.where({ keyId: entry.id, hostname }))
    }
    for (const hostname of wanted) {
      if (!entry.domains.has(hostname)) {
        await store.links.create({ keyId: entry.id, hostname, createdAt: ctx.now().toISOString() })
      }
    }
  }

  return {
    createKey(input) {
      return ctx.serialize(async () => {
        const action = 'create key'
        ctx.assertReady(action)
        if (!input || typeof input !== 'object')
          fail('invalid-input', action, 'pass an object such as { name: "Production frontend" }')
        const name = typeof input.name === 'string' ? input.name.trim() : ''
        if (name === '')
          fail(
            'invalid-input',
            action,
            'the name is empty. Give the key a label such as "Production frontend"',
          )
        if (name.length > MAX_NAME_LENGTH)
          fail('invalid-input', action, `the name is longer than ${MAX_NAME_LENGTH} characters`)
        if (hasControlCharacters(name))
          fail(
            'invalid-input',
            action,
            'the name contains control characters (such as ESC or a line break), which would be printed raw in a terminal. Use plain text',
          )
        const domains = normalizeAll(input.domains ?? [], action)
        assertDomainCount(domains.length, action)
        const store = ctx.store()
        if (store.byId.size >= MAX_KEYS)
          fail(
            'conflict',
            action,
            `the console holds ${MAX_KEYS} keys, its limit. Revoke and delete some, or reset`,
          )
        let material: KeyMaterial
        if (input.value !== undefined) {
          if (typeof input.value !== 'string' || !isKeyValue(input.value)) {
            fail(
              'invalid-input',
              action,
              `${describeRef(String(input.value))} is not a TMaps key value (expected "ak_" followed by 32 lower-case hex characters)`,
            )
          }
          if (store.byValue.has(input.value))
            fail('conflict', action, `a key with the value ${maskKey(input.value)} already exists`)
          material = { id: ctx.nextKey().id, value: input.value }
        } else {
          do material = ctx.nextKey()
          while (store.byValue.has(material.value) || store.byId.has(material.id))
        }
        while (store.byId.has(material.id)) material = { ...material, id: ctx.nextKey().id }
        const now = ctx.now().toISOString()
        const record = await store.keys.create({
          ...material,
          name,
          status: 'enabled',
          createdAt: now,
          updatedAt: now,
        })
        await setLinks(store.byId.get(record.id)!, domains)
        return { ...info(record), value: record.value }
      })
    },

    getKey(ref) {
      ctx.assertReady('get key')
      const entry = findEntry(ref)
      return entry ? info(recordOf(entry)) : undefined
    },

    listKeys() {
      ctx.assertReady('list keys')
      return ctx.store().keyRecords().map(info)
    },

    disableKey: transition('disable'),
    enableKey: transition('enable'),
    revokeKey: transition('revoke'),

    addDomain(hostname) {
      return ctx.serialize(async () => {
        const action = 'add domain'
        ctx.assertReady(action)
        const [normalized] = normalizeAll([hostname], action)
        await ensureDomain(normalized!)
        return domainInfo(normalized!)
      })
    },

    removeDomain(hostname) {
      return ctx.serialize(async () => {
        const action = 'remove domain'
        ctx.assertReady(action)
        const [normalized] = normalizeAll([hostname], action)
        const store = ctx.store()
        if (!store.keysByDomain.has(normalized!)) {
          fail(
            'not-found',
            action,
            `"${normalized}" is not an authorized domain. List them with console.listDomains()`,
          )
        }
        store.links.deleteMany((q) => q.where({ hostname: normalized! }))
        store.domains.delete((q) => q.where({ hostname: normalized! }))
      })
    },

    listDomains() {
      ctx.assertReady('list domains')
      return ctx
        .store()
        .domains.all()
        .map((d) => domainInfo(d.hostname))
    },

    linkDomain(ref, hostname) {
      return changeKeyDomains('link domain', ref, [hostname], async (entry, [normalized]) => {
        if (!ctx.store().keysByDomain.has(normalized!)) {
          fail(
            'not-found',
            'link domain',
            `"${normalized}" is not an authorized domain yet. Add it first with console.addDomain("${normalized}"), or use console.setKeyDomains()`,
          )
        }
        if (entry.domains.has(normalized!)) return
        assertDomainCount(entry.domains.size + 1, 'link domain')
        await ctx
          .store()
          .links.create({ keyId: entry.id, hostname: normalized!, createdAt: ctx.now().toISOString() })
        await touch(entry)
      })
    },

    unlinkDomain(ref, hostname) {
      return changeKeyDomains('unlink domain', ref, [hostname], async (entry, [normalized]) => {
        if (!entry.domains.has(normalized!)) return
        ctx.store().links.delete((q) => q.where({ keyId: entry.id, hostname: normalized! }))
        await touch(entry)
      })
    },

    setKeyDomains(ref, hostnames) {
      return changeKeyDomains('set key domains', ref, hostnames, async (entry, wanted) => {
        assertDomainCount(wanted.length, 'set key domains')
        await setLinks(entry, wanted)
        await touch(entry)
      })
    },
  }

  /** One write to a key's domains: validated whole (key, hostnames, not revoked) before it runs. */
  function changeKeyDomains(
    action: string,
    ref: KeyRef,
    hostnames: readonly string[],
    change: (entry: KeyEntry, normalized: string[]) => Promise<void>,
  ): Promise<KeyInfo> {
    return ctx.serialize(async () => {
      ctx.assertReady(action)
      const entry = requireEntry(ref, action)
      const normalized = normalizeAll(hostnames, action)
      assertMutable(entry, action)
      await change(entry, normalized)
      return info(recordOf(entry))
    })
  }

  function domainInfo(hostname: string): DomainInfo {
    const store = ctx.store()
    const record = store.domainsByHost.get(hostname)!
    const keys = [...(store.keysByDomain.get(hostname) ?? [])].flatMap((id) => {
      const entry = store.byId.get(id)
      if (!entry) return []
      const key = recordOf(entry)
      return [{ id: key.id, name: key.name, prefix: keyPrefix(key.value), status: key.status }]
    })
    return { hostname, createdAt: record.createdAt, keys }
  }
}
