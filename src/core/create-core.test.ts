import { describe, expect, it } from 'vitest'
import { TmapsConsoleError } from '../console/console-error.ts'
import { createTmapsCore, type TmapsAnswer } from './create-core.ts'
import { PathTarget } from './request-target.ts'

const API = 'https://api.tmaps.tn'
const get = (core: ReturnType<typeof createTmapsCore>, path: string, headers?: Record<string, string>) =>
  core.fetch(new Request(`${API}${path}`, { headers }))

describe('options', () => {
  it.each([
    [{ baseUrl: 'api.tmaps.tn' }, /baseUrl "api.tmaps.tn" is not an absolute URL/],
    [{ baseUrl: 'https://api.tmaps.tn/v1' }, /must be an origin without path/],
    [{ tilesUrl: 'ftp://tiles.tmaps.tn' }, /must use https/],
    [{ seed: '' }, /seed must be a non-empty string/],
    [{ seed: Number.NaN }, /seed must be/],
    [{ logSize: 0 }, /logSize must be an integer from 1/],
    [{ usageDays: 1.5 }, /usageDays must be an integer/],
    [{ state: 42 }, /state must be "demo", "empty" or a snapshot/],
    [{ state: '{"format":"nope"}' }, /Failed to restore the snapshot/],
    [{ state: 'not json' }, /not valid JSON/],
  ])('refuses %j at creation with a message that says how to fix it', (options, message) => {
    expect(() => createTmapsCore(options as never)).toThrow(message)
  })

  it('accepts a custom origin and answers on it', async () => {
    const core = createTmapsCore({ baseUrl: 'https://localhost:8443/', state: 'empty' })
    expect(core.options.baseUrl).toBe('https://localhost:8443')
    const response = await core.fetch(new Request('https://localhost:8443/geocoding/forward?q=x'))
    expect(response.status).toBe(401)
  })
})

describe('initial state', () => {
  it('throws a clear error on sync reads before the state is loaded, and waits on requests', async () => {
    const core = createTmapsCore({ state: 'empty' })
    expect(() => core.console.listKeys()).toThrow(/still loading its initial state\. Await mock\.ready first/)
    expect(() => core.console.listKeys()).toThrow(TmapsConsoleError)
    const response = await get(core, '/geocoding/forward?q=Tunis')
    expect(response.status).toBe(401)
    expect(core.console.listKeys()).toEqual([])
  })

  it('builds the same demo console every time, and shows its key values once, on ready', async () => {
    const a = createTmapsCore()
    const b = createTmapsCore()
    const [infoA, infoB] = await Promise.all([a.ready, b.ready])
    expect(infoA.createdKeys.map((k) => k.value)).toEqual(infoB.createdKeys.map((k) => k.value))
    expect(infoA.createdKeys.map((k) => [k.name, k.status, k.domains])).toEqual([
      ['Web app (local dev)', 'enabled', ['localhost']],
      ['Backend (server-side)', 'enabled', []],
      ['Production frontend', 'enabled', ['app.jasmin-delivery.tn', 'www.jasmin-delivery.tn']],
      ['Staging frontend', 'disabled', ['staging.jasmin-delivery.tn']],
      ['Old mobile app', 'revoked', []],
    ])
    expect(JSON.stringify(a.console.listKeys())).not.toContain(infoA.createdKeys[0]!.value)
  })

  it('lets the demo keys behave as their names say', async () => {
    const core = createTmapsCore()
    const { createdKeys } = await core.ready
    const [web, backend, , staging, old] = createdKeys.map((k) => k.value)
    const forward = (key: string | undefined, origin?: string) =>
      get(core, `/geocoding/forward?q=Sfax&api_key=${key}`, origin ? { Origin: origin } : undefined).then(
        (r) => r.status,
      )
    expect(await forward(web, 'http://localhost:5173')).toBe(200)
    expect(await forward(web, 'http://127.0.0.1:5173')).toBe(403)
    expect(await forward(backend)).toBe(200)
    expect(await forward(backend, 'http://localhost:5173')).toBe(403)
    expect(await forward(staging)).toBe(401)
    expect(await forward(old)).toBe(401)
  })

  it('starts empty with state "empty" and shows no created keys', async () => {
    const core = createTmapsCore({ state: 'empty' })
    expect(await core.ready).toEqual({ createdKeys: [] })
    expect(core.console.listKeys()).toEqual([])
  })
})

describe('reset, snapshot and restore', () => {
  it('resets to the initial state: keys, domains and usage; the log is cleared', async () => {
    const core = createTmapsCore({ seed: 'reset' })
    const { createdKeys } = await core.ready
    const before = core.snapshot()
    await core.console.createKey({ name: 'Extra', domains: ['extra.tn'] })
    await core.console.disableKey(createdKeys[0]!.id)
    await get(core, `/geocoding/forward?q=x&api_key=${createdKeys[1]!.value}`)
    const info = await core.reset()
    expect(info.createdKeys.map((k) => k.value)).toEqual(createdKeys.map((k) => k.value))
    expect(core.snapshot()).toEqual(before)
    expect(core.log.entries()).toEqual([])
    expect(core.usage(createdKeys[1]!.id).total).toBe(0)
  })

  it('restores a JSON round trip of a snapshot exactly, into another mock', async () => {
    const a = createTmapsCore({ state: 'empty', seed: 'snap' })
    await a.ready
    const key = await a.console.createKey({ name: 'K', domains: ['localhost', 'mysite.tn'] })
    await a.console.addDomain('unused.tn')
    await get(a, `/geocoding/forward?q=Tunis&api_key=${key.value}`)
    const b = createTmapsCore({ state: 'empty', seed: 'snap' })
    await b.ready
    await b.restore(JSON.stringify(a.snapshot()))
    expect(b.snapshot()).toEqual(a.snapshot())
    expect(b.usage(key.id).total).toBe(1)
    expect(
      (await get(b, `/geocoding/forward?q=Tunis&api_key=${key.value}`, { Origin: 'https://mysite.tn' }))
        .status,
    ).toBe(200)
    // The seeded generator goes on where the snapshot left it: the next keys match too.
    expect((await b.console.createKey({ name: 'N' })).value).toBe(
      (await a.console.createKey({ name: 'N' })).value,
    )
  })

  it('loads a snapshot saved before 0.2, whose enabled keys say "active"', async () => {
    const a = createTmapsCore({ state: 'empty', seed: 'old' })
    await a.ready
    const key = await a.console.createKey({ name: 'Old' })
    const old = JSON.parse(JSON.stringify(a.snapshot()).replace('"status":"enabled"', '"status":"active"'))
    expect(old.keys[0].status).toBe('active')
    const b = createTmapsCore({ state: old, seed: 'old' })
    await b.ready
    expect(b.console.getKey(key.id)?.status).toBe('enabled')
    expect((await get(b, `/geocoding/forward?q=Tunis&api_key=${key.value}`)).status).toBe(200)
  })

  it('names at most 10 problems of an invalid snapshot, and refuses more than 100,000 keys before reading them', async () => {
    const core = createTmapsCore({ state: 'empty', seed: 'caps' })
    await core.ready
    const bad = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `key_${i}`,
        name: 'k',
        value: 'ak_nope',
        status: 'enabled',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }))
    const snapshot = (keys: unknown[]) => ({
      format: 'tmaps-mock/snapshot',
      version: 1,
      keys,
      domains: [],
      links: [],
    })
    const error = await core.restore(snapshot(bad(50)) as never).catch((e: Error) => e)
    // 50 malformed values and 49 duplicates of one value: 10 named, the rest counted.
    expect((error as Error).message.match(/✖/g)).toHaveLength(10)
    expect((error as Error).message).toMatch(/\(and 89 more problems\)$/)
    await expect(core.restore(snapshot(bad(100_001)) as never)).rejects.toThrow(
      'Failed to restore the snapshot: it has 100001 keys; a tmaps-mock console holds at most 100000.',
    )
    expect(core.console.listKeys()).toEqual([])
  })

  it('refuses an invalid snapshot, names the problem, and changes nothing', async () => {
    const core = createTmapsCore({ seed: 'x' })
    await core.ready
    const before = core.snapshot()
    const bad = structuredClone(before) as ReturnType<typeof core.snapshot> & {
      keys: Array<{ value: string }>
      links: Array<{ keyId: string }>
    }
    bad.keys[1]!.value = 'ak_nope'
    bad.links[0]!.keyId = 'key_missing'
    await expect(core.restore(bad)).rejects.toThrow(
      /not a TMaps key[\s\S]*at keys\[1\]\.value[\s\S]*links a key that is not in keys[\s\S]*at links\[0\]\.keyId/,
    )
    expect(core.snapshot()).toEqual(before)
  })
})

describe('the keys option', () => {
  const APP_KEY = `ak_${'5f1c0e9a'.repeat(4)}`

  it('adds its keys to the initial state, enabled and linked, and again on reset', async () => {
    const core = createTmapsCore({
      state: 'demo',
      seed: 'keys',
      keys: [{ value: APP_KEY, name: 'My app', domains: ['LocalHost', 'app.mysite.tn'] }],
    })
    await core.ready
    const added = core.console.getKey(APP_KEY)
    expect(added).toMatchObject({
      name: 'My app',
      status: 'enabled',
      domains: ['app.mysite.tn', 'localhost'],
    })
    expect(core.console.listKeys()).toHaveLength(6) // the demo's five, and this one
    const origin = { Origin: 'http://localhost:5173' }
    expect((await get(core, `/geocoding/forward?q=Sfax&api_key=${APP_KEY}`, origin)).status).toBe(200)
    await core.console.unlinkDomain(APP_KEY, 'localhost')
    expect((await get(core, `/geocoding/forward?q=Sfax&api_key=${APP_KEY}`, origin)).status).toBe(403)
    await core.reset()
    expect(core.console.getKey(APP_KEY)).toEqual(added)
    expect((await get(core, `/geocoding/forward?q=Sfax&api_key=${APP_KEY}`, origin)).status).toBe(200)
  })

  it('leaves a key the state already has as it is (unlinked stays unlinked), and adds one it lacks on restore', async () => {
    const core = createTmapsCore({
      state: 'empty',
      seed: 'keys',
      keys: [{ value: APP_KEY, domains: ['localhost'] }],
    })
    await core.ready
    await core.console.unlinkDomain(APP_KEY, 'localhost')
    const unlinked = core.snapshot()
    await core.restore(unlinked)
    expect(core.console.getKey(APP_KEY)).toMatchObject({ name: 'Your app', domains: [] })
    const other = createTmapsCore({ state: 'empty', seed: 'other' })
    await other.ready
    await other.console.createKey({ name: 'Backend' })
    await core.restore(other.snapshot())
    expect(core.console.listKeys().map((k) => [k.name, k.domains])).toEqual([
      ['Backend', []],
      ['Your app', ['localhost']],
    ])
  })

  it.each([
    [{ keys: 'ak_x' }, 'keys must be an array'],
    [
      { keys: [{ value: 'ak_123' }] },
      'keys[0].value must be a TMaps key: "ak_" and 32 lower-case hexadecimal characters (got 6 characters)',
    ],
    [
      { keys: [{ value: APP_KEY }, { value: APP_KEY }] },
      'keys[1].value repeats ak_5f1c…; name each key once',
    ],
    [{ keys: [{ value: APP_KEY, name: ' ' }] }, 'keys[0].name must be a label of 1 to 100 characters'],
    [
      { keys: [{ value: APP_KEY, domains: ['https://mysite.tn'] }] },
      'keys[0].domains[0]: "https://mysite.tn" includes a scheme',
    ],
  ])('refuses %j at creation, saying which key and why', (options, message) => {
    expect(() => createTmapsCore(options as never)).toThrow(`Failed to create the TMaps mock: ${message}`)
  })
})

describe('usage', () => {
  it('counts per key by day, status and endpoint; unknown keys count as unattributed', async () => {
    let now = new Date('2026-11-20T23:59:00Z')
    const core = createTmapsCore({ state: 'empty', now: () => now })
    await core.ready
    const key = await core.console.createKey({ name: 'K', domains: ['localhost'] })
    await get(core, `/geocoding/forward?q=Tunis&api_key=${key.value}`)
    await get(core, `/geocoding/forward?q=Tunis&api_key=${key.value}`, { Origin: 'https://evil.tn' })
    now = new Date('2026-11-21T00:01:00Z')
    await get(core, `/nope?api_key=${key.value}`)
    await get(core, `/geocoding/forward?q=Tunis&api_key=ak_${'0'.repeat(32)}`)
    await core.fetch(new Request(`http://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=${key.value}`))
    expect(core.usage(key.value)).toEqual({
      key: key.id,
      total: 4,
      byStatus: { '200': 1, '403': 2, '404': 1 },
      byEndpoint: { 'geocoding/forward': 3, unknown: 1 },
      days: [
        {
          date: '2026-11-20',
          total: 2,
          byStatus: { '200': 1, '403': 1 },
          byEndpoint: { 'geocoding/forward': 2 },
        },
        {
          date: '2026-11-21',
          total: 2,
          byStatus: { '404': 1, '403': 1 },
          byEndpoint: { unknown: 1, 'geocoding/forward': 1 },
        },
      ],
    })
    expect(core.usage('unattributed').total).toBe(1)
    expect(() => core.usage('key_nope')).toThrow(/no key matches/)
  })

  it('keeps at most usageDays days per key', async () => {
    let day = 1
    const core = createTmapsCore({
      state: 'empty',
      usageDays: 3,
      now: () => new Date(Date.UTC(2026, 0, day)),
    })
    await core.ready
    const key = await core.console.createKey({ name: 'K' })
    for (day = 1; day <= 10; day++) await get(core, `/geocoding/forward?q=Sfax&api_key=${key.value}`)
    expect(core.usage(key.id).days.map((d) => d.date)).toEqual(['2026-01-08', '2026-01-09', '2026-01-10'])
  })
})

describe('log', () => {
  it('keeps the last logSize requests, newest first, tells subscribers, and never holds a key', async () => {
    const core = createTmapsCore({ state: 'empty', logSize: 3 })
    await core.ready
    const key = await core.console.createKey({ name: 'K' })
    const seen: number[] = []
    const off = core.log.subscribe((entry) => seen.push(entry.seq))
    for (let i = 0; i < 5; i++)
      await get(core, `/geocoding/forward?q=Tunis&limit=${i + 1}&api_key=${key.value}`)
    off()
    await get(core, `/geocoding/forward?q=Tunis&api_key=${key.value}`)
    expect(seen).toEqual([1, 2, 3, 4, 5])
    expect(core.log.entries().map((e) => e.seq)).toEqual([6, 5, 4])
    const entry = core.log.entries()[0]!
    expect(entry).toMatchObject({
      method: 'GET',
      host: 'api.tmaps.tn',
      path: '/geocoding/forward',
      status: 200,
      rule: 'no-browser-headers',
    })
    expect(entry.facts.key).toBe(`${key.prefix}…`)
    expect(JSON.stringify(core.log.entries())).not.toContain(key.value)
  })

  it('survives a subscriber that throws', async () => {
    const core = createTmapsCore({ state: 'empty' })
    core.log.subscribe(() => {
      throw new Error('boom')
    })
    const errors: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => errors.push(args)
    try {
      expect((await get(core, '/geocoding/forward?q=x')).status).toBe(401)
    } finally {
      console.error = original
    }
    expect(errors).toHaveLength(1)
  })
})

describe('the renderer option', () => {
  it('draws tiles and static maps where it is told, and is checked', async () => {
    const png = new Uint8Array([137, 80, 78, 71])
    const calls: string[] = []
    const core = createTmapsCore({
      state: 'empty',
      renderer: {
        tile: async (seed, z, x, y) => {
          calls.push(`tile ${seed} ${z}/${x}/${y}`)
          return png
        },
        staticMap: async (seed, spec) => {
          calls.push(`static ${seed} ${spec.width}x${spec.height}`)
          return png
        },
      },
    })
    await core.ready
    const { value } = await core.console.createKey({ name: 'k' })
    const tile = await core.fetch(new Request(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${value}`))
    expect(new Uint8Array(await tile.arrayBuffer())).toEqual(png)
    expect(tile.headers.get('content-type')).toBe('image/png')
    const map = await core.fetch(
      new Request(`https://api.tmaps.tn/maps/static?center=36.8,10.18&zoom=12&size=400x300&api_key=${value}`),
    )
    expect(map.status).toBe(200)
    expect(calls).toEqual(['tile tmaps 6/33/25', 'static tmaps 400x300'])
    expect(() => createTmapsCore({ renderer: {} as never })).toThrow(
      'Failed to create the TMaps mock: renderer must have tile() and staticMap() methods',
    )
  })
})

describe('one door: core.answer gives a remembered answer at once (the HTTPS server’s path for a repeated request)', () => {
  it('gives a remembered answer at once, counted and logged, never past a fault rule or a change', async () => {
    const core = createTmapsCore({ state: 'empty', seed: 'at-once' })
    const key = await core.console.createKey({ name: 'server' })
    const request = () => new Request(`${API}/geocoding/forward?q=Sfax&api_key=${key.value}`)
    const atOnce = (given: TmapsAnswer | Promise<TmapsAnswer>) =>
      given instanceof Promise ? undefined : given
    const first = core.answer(request())
    expect(first).toBeInstanceOf(Promise) // nothing remembered yet
    const body = (await first).body
    const again = atOnce(core.answer(request()))
    expect(again?.status).toBe(200)
    expect(again?.body).toEqual(body)
    expect(core.log.entries()).toHaveLength(2)
    expect(core.usage(key.id).total).toBe(2)
    // A copy of the mock (a spread, as runtimes make) keeps the door: there is no other.
    expect(atOnce({ ...core }.answer(request()))?.status).toBe(200)
    // A fault rule draws and counts as it applies: the full path takes the request, the rule
    // is used once, not twice.
    const rule = core.faults.add({ status: 503, times: 1 })
    const faulted = core.answer(request())
    expect(faulted).toBeInstanceOf(Promise)
    expect((await faulted).status).toBe(503)
    expect(core.faults.list().find((r) => r.id === rule.id)).toBeUndefined()
    // A console change: the key disabled, the remembered 200 no longer holds.
    await core.console.disableKey(key.id)
    const refused = core.answer(request())
    expect(refused).toBeInstanceOf(Promise)
    expect((await refused).status).toBe(401)
  })

  it('remembers a server’s request by its path as it came, apart for each scheme, Origin and Referer', async () => {
    const core = createTmapsCore({ state: 'empty', seed: 'by-path' })
    const key = await core.console.createKey({ name: 'web', domains: ['localhost'] })
    const path = `/geocoding/forward?q=Sfax&api_key=${key.value}`
    const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null })
    const ask = (protocol: 'https:' | 'http:', h: Record<string, string>, at = path) => {
      const target = new PathTarget(protocol, at)
      return core.answer(
        {
          method: 'GET',
          get url() {
            return target.href
          },
          headers: headers(h),
          text: async () => '',
        },
        { url: target },
      )
    }
    const statusOf = async (given: TmapsAnswer | Promise<TmapsAnswer>) => (await given).status
    const cases = [
      { protocol: 'https:', h: { origin: 'https://localhost' }, status: 200 },
      { protocol: 'http:', h: { origin: 'https://localhost' }, status: 403 }, // plain HTTP
      { protocol: 'https:', h: { origin: 'https://evil.example' }, status: 403 },
      { protocol: 'https:', h: { referer: 'https://evil.example/' }, status: 403 },
      { protocol: 'https:', h: {}, status: 200 }, // a server: no Origin
    ] as const
    // One tile's path: refused from another site (kept with the JSON answers), drawn for its own (a picture).
    const tile = `/r-tile/6/33/25?api_key=${key.value}`
    for (const round of [1, 2])
      for (const [origin, status] of [
        ['https://evil.example', 403],
        ['https://localhost', 200],
      ] as const) {
        const given = ask('https:', { origin }, tile)
        if (round === 2) expect(given).not.toBeInstanceOf(Promise)
        expect(await statusOf(given)).toBe(status)
      }
    for (const round of [1, 2])
      for (const c of cases) {
        const given = ask(c.protocol, c.h)
        if (round === 2) expect(given).not.toBeInstanceOf(Promise) // each remembered apart
        expect(await statusOf(given)).toBe(c.status)
      }
    // Two spellings of one URL: each remembered under its own path, both decided on the parsed URL.
    for (const round of [1, 2]) {
      const dotted = ask('https:', {}, `/x/..${path}`)
      if (round === 2) expect(dotted).not.toBeInstanceOf(Promise)
      expect(await statusOf(dotted)).toBe(200)
    }
    // A long Referer is answered, not remembered: memory stays bounded whatever the headers weigh.
    const long = { referer: `https://localhost/${'a'.repeat(4000)}` }
    expect(await statusOf(ask('https:', long))).toBe(200)
    const again = ask('https:', long)
    expect(again).toBeInstanceOf(Promise)
    expect(await statusOf(again)).toBe(200)
    expect(core.log.entries()).toHaveLength(2 * cases.length + 4 + 2 + 2)
    // Each path decided on the TMaps host it routes to: the tile's on the tiles host.
    const hosts = new Set(core.log.entries().map((e) => `${e.host} ${e.endpoint}`))
    expect([...hosts].sort()).toEqual(['api.tmaps.tn geocoding/forward', 'tiles.tmaps.tn r-tile'])
  })
})
