import { runInNewContext } from 'node:vm'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createTmapsCore, type TmapsMockCore } from '../core/create-core.ts'
import { TmapsConsoleError } from './console-error.ts'

let mock: TmapsMockCore
beforeEach(async () => {
  mock = createTmapsCore({
    state: 'empty',
    seed: 'console-test',
    now: () => new Date('2026-11-21T10:00:00Z'),
  })
  await mock.ready
})

const rejection = async (action: Promise<unknown>) => {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TmapsConsoleError)
  return error as TmapsConsoleError
}

describe('createKey', () => {
  it('creates an enabled key, shows its full value once, and lists it by prefix only', async () => {
    const key = await mock.console.createKey({
      name: '  Production frontend ',
      domains: ['mysite.tn', 'LOCALHOST'],
    })
    expect(key).toMatchObject({
      name: 'Production frontend',
      status: 'enabled',
      createdAt: '2026-11-21T10:00:00.000Z',
      domains: ['localhost', 'mysite.tn'],
      actions: ['disable'],
    })
    expect(key.value).toMatch(/^ak_[0-9a-f]{32}$/)
    expect(key.prefix).toBe(key.value.slice(0, 7))
    const listed = mock.console.listKeys()
    expect(listed).toHaveLength(1)
    expect(JSON.stringify(listed)).not.toContain(key.value)
    expect(JSON.stringify(mock.console.getKey(key.id))).not.toContain(key.value)
    expect(mock.console.getKey(key.value)?.id).toBe(key.id)
    expect(mock.console.listDomains().map((d) => d.hostname)).toEqual(['mysite.tn', 'localhost'])
  })

  it('makes the same keys from the same seed, and different keys without one', async () => {
    const other = createTmapsCore({ state: 'empty', seed: 'console-test' })
    await other.ready
    const a = await mock.console.createKey({ name: 'A' })
    const b = await other.console.createKey({ name: 'A' })
    expect(a.value).toBe(b.value)
    const random1 = createTmapsCore({ state: 'empty' })
    const random2 = createTmapsCore({ state: 'empty' })
    await Promise.all([random1.ready, random2.ready])
    const [r1, r2] = await Promise.all([
      random1.console.createKey({ name: 'x' }),
      random2.console.createKey({ name: 'x' }),
    ])
    expect(r1.value).not.toBe(r2.value)
  })

  it('imports a known key value, and refuses a malformed or duplicate one without showing it', async () => {
    const value = `ak_${'ab'.repeat(16)}`
    expect((await mock.console.createKey({ name: 'Imported', value })).value).toBe(value)
    const duplicate = await rejection(mock.console.createKey({ name: 'Again', value }))
    expect(duplicate.code).toBe('conflict')
    expect(duplicate.message).toContain('ak_abab…')
    expect(duplicate.message).not.toContain(value)
    const bad = await rejection(mock.console.createKey({ name: 'Bad', value: `ak_${'AB'.repeat(16)}` }))
    expect(bad.code).toBe('invalid-input')
    expect(bad.message).toMatch(/expected "ak_" followed by 32 lower-case hex/)
    expect(bad.message).not.toContain('AB'.repeat(16))
  })

  it.each([
    [{ name: '' }, /name is empty/],
    [{ name: '   ' }, /name is empty/],
    [{ name: 'x'.repeat(101) }, /longer than 100/],
    [{ name: 'Web', domains: ['*.mysite.tn'] }, /wildcards are not supported/],
    [{ name: 'Web', domains: ['https://mysite.tn'] }, /includes a scheme/],
  ])('refuses %j and creates nothing', async (input, message) => {
    const error = await rejection(mock.console.createKey(input))
    expect(error.code).toBe('invalid-input')
    expect(error.message).toMatch(/^Failed to create key: /)
    expect(error.message).toMatch(message)
    expect(mock.console.listKeys()).toEqual([])
    expect(mock.console.listDomains()).toEqual([])
  })
})

describe('key status', () => {
  it('follows enabled -> disabled -> enabled -> disabled -> revoked', async () => {
    const { id } = await mock.console.createKey({ name: 'K' })
    expect((await mock.console.disableKey(id)).status).toBe('disabled')
    expect((await mock.console.enableKey(id)).status).toBe('enabled')
    expect((await mock.console.disableKey(id)).actions).toEqual(['enable', 'revoke'])
    const revoked = await mock.console.revokeKey({ id })
    expect(revoked).toMatchObject({ status: 'revoked', actions: [] })
  })

  it.each([
    ['revoke an enabled key', async (id: string) => mock.console.revokeKey(id), /Disable it first/],
    ['enable an enabled key', async (id: string) => mock.console.enableKey(id), /already enabled/],
  ])('refuses to %s', async (_, action, message) => {
    const { id, prefix } = await mock.console.createKey({ name: 'K' })
    const error = await rejection(action(id))
    expect(error.code).toBe('forbidden-transition')
    expect(error.message).toMatch(message)
    expect(error.message).toContain(`${prefix}…`)
    expect(mock.console.getKey(id)?.status).toBe('enabled')
  })

  it('treats revocation as final: no status change, no domain change', async () => {
    const { id } = await mock.console.createKey({ name: 'K', domains: ['localhost'] })
    await mock.console.disableKey(id)
    await mock.console.revokeKey(id)
    for (const action of [
      mock.console.enableKey(id),
      mock.console.disableKey(id),
      mock.console.revokeKey(id),
      mock.console.linkDomain(id, 'localhost'),
      mock.console.unlinkDomain(id, 'localhost'),
      mock.console.setKeyDomains(id, []),
    ]) {
      const error = await rejection(action)
      expect(error.code).toBe('forbidden-transition')
    }
    expect(mock.console.getKey(id)).toMatchObject({ status: 'revoked', domains: ['localhost'] })
  })

  it('never lets concurrent actions revive a revoked key', async () => {
    const { id } = await mock.console.createKey({ name: 'K' })
    await mock.console.disableKey(id)
    const results = await Promise.allSettled([mock.console.revokeKey(id), mock.console.enableKey(id)])
    expect(results[0].status).toBe('fulfilled')
    expect(results[1].status).toBe('rejected')
    expect(mock.console.getKey(id)?.status).toBe('revoked')
  })

  it('says which key it cannot find, by prefix, and how to list them', async () => {
    const error = await rejection(mock.console.disableKey(`ak_${'9'.repeat(32)}`))
    expect(error.code).toBe('not-found')
    expect(error.message).toBe(
      'Failed to disable key: no key matches ak_9999…. Name a key by its id or full value; list them with console.listKeys().',
    )
  })
})

describe('authorized domains', () => {
  it('links N:N from both sides and lists the keys of each domain', async () => {
    const prod = await mock.console.createKey({ name: 'Prod' })
    const staging = await mock.console.createKey({ name: 'Staging' })
    await mock.console.addDomain('app.mysite.tn')
    await mock.console.linkDomain(prod.id, 'app.mysite.tn')
    await mock.console.linkDomain(staging.value, 'APP.mysite.tn.')
    expect(mock.console.listDomains()).toEqual([
      {
        hostname: 'app.mysite.tn',
        createdAt: '2026-11-21T10:00:00.000Z',
        keys: [
          { id: prod.id, name: 'Prod', prefix: prod.prefix, status: 'enabled' },
          { id: staging.id, name: 'Staging', prefix: staging.prefix, status: 'enabled' },
        ],
      },
    ])
  })

  it('is idempotent: adding or linking twice changes nothing', async () => {
    const key = await mock.console.createKey({ name: 'K' })
    await mock.console.addDomain('localhost')
    await mock.console.addDomain('localhost')
    await mock.console.linkDomain(key.id, 'localhost')
    await mock.console.linkDomain(key.id, 'localhost')
    expect(mock.console.listDomains()).toHaveLength(1)
    expect(mock.console.getKey(key.id)?.domains).toEqual(['localhost'])
  })

  it('asks to add a domain before linking it', async () => {
    const key = await mock.console.createKey({ name: 'K' })
    const error = await rejection(mock.console.linkDomain(key.id, 'mysite.tn'))
    expect(error.code).toBe('not-found')
    expect(error.message).toMatch(/Add it first with console.addDomain\("mysite.tn"\)/)
  })

  it('sets exactly the given domains, adding the missing ones', async () => {
    const key = await mock.console.createKey({ name: 'K', domains: ['a.tn', 'b.tn'] })
    const updated = await mock.console.setKeyDomains(key.id, ['b.tn', 'c.tn', 'C.TN'])
    expect(updated.domains).toEqual(['b.tn', 'c.tn'])
    expect(mock.console.listDomains().map((d) => d.hostname)).toEqual(['a.tn', 'b.tn', 'c.tn'])
  })

  it('unlinks a removed domain from every key', async () => {
    const a = await mock.console.createKey({ name: 'A', domains: ['x.tn'] })
    const b = await mock.console.createKey({ name: 'B', domains: ['x.tn', 'y.tn'] })
    await mock.console.removeDomain('x.tn')
    expect(mock.console.getKey(a.id)?.domains).toEqual([])
    expect(mock.console.getKey(b.id)?.domains).toEqual(['y.tn'])
    expect((await rejection(mock.console.removeDomain('x.tn'))).code).toBe('not-found')
  })

  it.each([
    ['*.mysite.tn', /wildcards are not supported/],
    ['https://mysite.tn', /includes a scheme/],
    ['mysite.tn/dashboard', /includes a path/],
    ['mysite.tn:443', /includes a port/],
    ['my site.tn', /contains spaces/],
    ['', /empty/],
    ['bad_label.tn', /invalid label/],
  ])('refuses to add %j', async (input, message) => {
    const error = await rejection(mock.console.addDomain(input))
    expect(error.code).toBe('invalid-input')
    expect(error.message).toMatch(message)
    expect(mock.console.listDomains()).toEqual([])
  })
})

describe('in a test runner whose structuredClone returns objects of another realm (Jest ESM)', () => {
  const otherRealmClone = runInNewContext('(value) => JSON.parse(JSON.stringify(value))') as <T>(v: T) => T

  it('runs every console action, keeps the keys in their order, and snapshots what it did', async () => {
    const web = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
    const api = await mock.console.createKey({ name: 'API' })
    vi.stubGlobal('structuredClone', otherRealmClone)
    try {
      expect((await mock.console.disableKey(web.id)).status).toBe('disabled')
      expect((await mock.console.enableKey(web.id)).status).toBe('enabled')
      await mock.console.addDomain('app.example.tn')
      expect((await mock.console.linkDomain(web.id, 'app.example.tn')).domains).toEqual([
        'app.example.tn',
        'localhost',
      ])
      expect((await mock.console.unlinkDomain(web.id, 'localhost')).domains).toEqual(['app.example.tn'])
      expect((await mock.console.setKeyDomains(api.id, ['api.example.tn'])).domains).toEqual([
        'api.example.tn',
      ])
      await mock.console.removeDomain('app.example.tn')
      await mock.console.disableKey(api.id)
      expect((await mock.console.revokeKey(api.id)).status).toBe('revoked')
    } finally {
      vi.unstubAllGlobals()
    }
    expect(mock.console.listKeys().map((k) => [k.name, k.status, k.domains])).toEqual([
      ['Web', 'enabled', []],
      ['API', 'revoked', ['api.example.tn']],
    ])
    expect(mock.snapshot().keys.map((k) => k.name)).toEqual(['Web', 'API'])
    const revoked = await mock.fetch(
      new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${api.value}`),
    )
    expect(revoked.status).toBe(401)
  })
})

describe('key names', () => {
  it.each([
    ['ESC sequences', 'Web\u001b[2J\u001b]0;pwned\u0007'],
    ['a line break', 'Web\nKeys: none'],
    ['a bidirectional override', 'Web \u202Egnirts'],
  ])('refuses a name with %s, which a terminal would obey', async (_what, name) => {
    const error = await rejection(mock.console.createKey({ name }))
    expect(error.code).toBe('invalid-input')
    expect(error.message).toContain('the name contains control characters')
    expect(mock.console.listKeys()).toEqual([])
  })
})

describe('many domains on one key', () => {
  it('links domains one by one without sorting the list each time, and lists them sorted', async () => {
    const key = await mock.console.createKey({ name: 'Many' })
    const hosts = Array.from({ length: 300 }, (_, i) => `app${(i * 7919) % 1000}.example.tn`)
    const sort = vi.spyOn(Array.prototype, 'sort')
    for (const host of hosts) {
      await mock.console.addDomain(host)
      await mock.console.linkDomain(key.id, host)
    }
    const sortsWhileLinking = sort.mock.calls.length
    sort.mockRestore()
    expect(sortsWhileLinking).toBeLessThan(10) // was one per link: 300
    expect(mock.console.getKey(key.id)!.domains).toEqual([...hosts].sort())
  })

  it('refuses more than 1,000 domains on one key with 400 (invalid-input), in every way of linking', async () => {
    const hosts = Array.from({ length: 1001 }, (_, i) => `h${i}.example.tn`)
    expect((await rejection(mock.console.createKey({ name: 'Too many', domains: hosts }))).message).toContain(
      'a key may be linked to at most 1000 domains (this would make 1001)',
    )
    const key = await mock.console.createKey({ name: 'Full', domains: hosts.slice(0, 1000) })
    expect((await rejection(mock.console.setKeyDomains(key.id, hosts))).code).toBe('invalid-input')
    await mock.console.addDomain(hosts[1000]!)
    expect((await rejection(mock.console.linkDomain(key.id, hosts[1000]!))).code).toBe('invalid-input')
    expect(mock.console.getKey(key.id)!.domains).toHaveLength(1000)
    const snapshot = mock.snapshot()
    snapshot.links.push({ keyId: key.id, hostname: hosts[1000]!, createdAt: '2026-11-21T10:00:00.000Z' })
    await expect(mock.restore(snapshot)).rejects.toThrow(/more than 1000 domains, the most one key may have/)
  })
})
