import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { setupTmapsNode } from '../src/runtimes/node/index.ts'
import { startTmapsHttpsServer } from '../src/runtimes/server/https-server.ts'
import type { TmapsHar } from '../src/upstream/har.ts'
import { APP_ORIGIN, REAL_KEY, type StandIn, startStandIn } from './support/stand-in-tmaps.ts'

const dir = mkdtempSync(join(tmpdir(), 'tmaps-replay-'))
const harPath = join(dir, 'tmaps.har')
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
/** What TMaps (the stand-in) answered, by request, as the app received it through the proxy. */
const received = new Map<string, { sha: string; type: string }>()
const KEY = `ak_${'5eed'.repeat(8)}`

const REQUESTS = [
  '/geocoding/forward?q=Sfax&limit=2',
  '/geocoding/reverse?lat=36.8002&lng=10.1815',
  '/r-tile/7/67/50',
  '/maps/static?center=36.8,10.18&zoom=11&size=300x200',
]
const POST = {
  path: '/distance-matrix',
  body: {
    origins: [{ lat: 36.8, lng: 10.18 }],
    destinations: [{ lat: 35.8, lng: 10.6 }],
    profile: 'driving',
  },
}

let standIn: StandIn
beforeAll(async () => {
  // Record through `serve --upstream --record`, as a user would, against the stand-in TMaps.
  standIn = await startStandIn()
  const server = await startTmapsHttpsServer({
    port: 0,
    state: 'empty',
    keys: [{ value: KEY, name: 'Recorder', domains: ['app.example.tn'] }],
    certDir: join(dir, 'certs'),
    upstream: { api: standIn.url, tiles: standIn.url, key: REAL_KEY, ca: standIn.ca, record: harPath },
  })
  const agent = new Agent({ ca: server.ca, keepAlive: true })
  const call = (path: string, body?: unknown) =>
    new Promise<void>((done, fail) => {
      const sep = path.includes('?') ? '&' : '?'
      const outgoing = request(
        `${server.url}${path}${sep}api_key=${KEY}`,
        {
          method: body ? 'POST' : 'GET',
          agent,
          headers: { Origin: APP_ORIGIN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res
            .on('data', (c) => chunks.push(c))
            .on('end', () => {
              received.set(path, {
                sha: sha(Buffer.concat(chunks)),
                type: String(res.headers['content-type']),
              })
              done()
            })
        },
      )
      outgoing.on('error', fail).end(body ? JSON.stringify(body) : undefined)
    })
  for (const path of REQUESTS) await call(path)
  await call(POST.path, POST.body)
  await server.close()
  agent.destroy()
}, 60_000)
afterAll(() => standIn?.close())

const replayed = (onMissing: 'mock' | 'error' = 'mock') =>
  setupTmapsNode({
    state: 'empty',
    keys: [{ value: KEY, domains: ['app.example.tn'] }],
    replay: { har: harPath, onMissing },
  })

describe('replay through setupTmapsNode', () => {
  let server: ReturnType<typeof replayed>['server']
  let mock: ReturnType<typeof replayed>['mock']
  beforeAll(() => {
    ;({ server, mock } = replayed())
    server.listen({ onUnhandledFrame: 'error' })
  })
  afterAll(() => server?.close())

  it('serves the recorded bytes (the same hash and Content-Type) for every recorded request, logged replay', async () => {
    for (const path of REQUESTS) {
      const sep = path.includes('?') ? '&' : '?'
      const host = path.startsWith('/r-tile') ? 'https://tiles.tmaps.tn' : 'https://api.tmaps.tn'
      const response = await fetch(`${host}${path}${sep}api_key=${KEY}`, { headers: { Origin: APP_ORIGIN } })
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect([path, sha(bytes), response.headers.get('content-type')]).toEqual([
        path,
        received.get(path)!.sha,
        received.get(path)!.type,
      ])
      expect(mock.log.entries()[0]).toMatchObject({ source: 'replay', status: 200 })
    }
  })

  it('matches a POST body whatever its key order, and a query whatever its order', async () => {
    const body = { profile: 'driving', destinations: POST.body.destinations, origins: POST.body.origins }
    const response = await fetch(`https://api.tmaps.tn/distance-matrix?api_key=${KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: APP_ORIGIN },
      body: JSON.stringify(body),
    })
    expect(sha(new Uint8Array(await response.arrayBuffer()))).toBe(received.get(POST.path)!.sha)
    const swapped = await fetch(`https://api.tmaps.tn/geocoding/forward?api_key=${KEY}&limit=2&q=Sfax`)
    expect(sha(new Uint8Array(await swapped.arrayBuffer()))).toBe(received.get(REQUESTS[0]!)!.sha)
  })

  it('keeps the contract first: a foreign Origin gets 403, no key 401, a disabled key 401', async () => {
    const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=2&api_key=${KEY}`
    expect((await fetch(url, { headers: { Origin: 'https://evil.example' } })).status).toBe(403)
    expect((await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=2')).status).toBe(401)
    await mock.console.disableKey(KEY)
    expect((await fetch(url)).status).toBe(401)
    await mock.reset()
    expect((await fetch(url)).status).toBe(200)
  })

  it("onMissing 'mock': a request not recorded gets the mock's own answer, logged replay-miss", async () => {
    const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Gabes&api_key=${KEY}`)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { query: string }).query).toBe('Gabes')
    expect(mock.log.entries()[0]).toMatchObject({ source: 'replay-miss', status: 200 })
  })

  it('says where each answer came from in a header a page may read: replay, replay-miss; none for the mock', async () => {
    const headersOf = async (path: string) =>
      (await fetch(`https://api.tmaps.tn${path}&api_key=${KEY}`, { headers: { Origin: APP_ORIGIN } })).headers
    const hit = await headersOf('/geocoding/forward?q=Sfax&limit=2')
    expect(hit.get('x-tmaps-mock-source')).toBe('replay')
    expect(hit.get('access-control-expose-headers')).toBe('X-TMaps-Mock-Source')
    const miss = await headersOf('/geocoding/forward?q=Kairouan&limit=2')
    expect(miss.get('x-tmaps-mock-source')).toBe('replay-miss')
    // The miss's log line names the closest recorded request and how this one differs.
    expect(mock.log.entries()[0]?.reason).toContain(
      'the closest recorded: GET /geocoding/forward?q=Sfax&limit=2 (q: "Kairouan" here, "Sfax" recorded)',
    )
    // A refusal of the contract is the mock's own: no source, no header.
    const refused = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=2&api_key=${KEY}`, {
      headers: { Origin: 'https://evil.example' },
    })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('x-tmaps-mock-source')).toBeNull()
  })
})

it("onMissing 'error': a 500 whose error names the method and path, logged replay-miss", async () => {
  const mock = createTmapsMock({
    state: 'empty',
    keys: [{ value: KEY }],
    replay: { har: harPath, onMissing: 'error' },
  })
  const response = await mock.fetch(
    new Request(`https://api.tmaps.tn/geocoding/nearby?lat=1&lng=2&api_key=${KEY}`),
  )
  expect(response.status).toBe(500)
  expect(await response.json()).toEqual({ error: `not recorded: GET /geocoding/nearby (in ${harPath})` })
  expect(mock.log.entries()[0]).toMatchObject({ source: 'replay-miss', status: 500 })
  // A request whose path was recorded: the 500 names the closest entry and how the request differs.
  const near = await mock.fetch(
    new Request(`https://api.tmaps.tn/geocoding/reverse?lat=36.8002&lng=10.2&lang=fr&api_key=${KEY}`),
  )
  expect(near.headers.get('x-tmaps-mock-source')).toBe('replay-miss')
  const closest =
    'the closest recorded: GET /geocoding/reverse?lat=36.8002&lng=10.1815 (lng: "10.2" here, "10.1815" recorded; lang not recorded)'
  expect(await near.json()).toEqual({
    error: `not recorded: GET /geocoding/reverse (in ${harPath}); ${closest}`,
  })
  expect(mock.log.entries()[0]?.reason).toContain(closest)
  const matrix = await mock.fetch(
    new Request(`https://api.tmaps.tn/distance-matrix?api_key=${KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...POST.body, profile: 'walking' }),
    }),
  )
  expect(((await matrix.json()) as { error: string }).error).toMatch(
    /the closest recorded: POST \/distance-matrix \(the body differs\)$/,
  )
})

it("latency: 'recorded' answers after the time TMaps took (the entry's time), and only a known value is taken", async () => {
  const har = JSON.parse(readFileSync(harPath, 'utf8')) as TmapsHar
  const slow = har.log.entries.map((e) => ({ ...e, time: 400 }))
  const mock = createTmapsMock({
    state: 'empty',
    keys: [{ value: KEY }],
    replay: { har: { log: { ...har.log, entries: slow } }, latency: 'recorded' },
  })
  const started = performance.now()
  const response = await mock.fetch(
    new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=2&api_key=${KEY}`),
  )
  expect(response.status).toBe(200)
  expect(performance.now() - started).toBeGreaterThanOrEqual(390)
  expect(mock.log.entries()[0]?.reason).toMatch(/after the recorded 400 ms\.$/)
  expect(() => createTmapsMock({ replay: { har: harPath, latency: 'real' as 'recorded' } })).toThrow(
    'Failed to set up replay: latency must be "recorded" (each answer after the time TMaps took) or left out, got "real".',
  )
})

it('answers a request recorded several times in recorded order, the last one repeating (and again from the first after reset)', async () => {
  const har = JSON.parse(readFileSync(harPath, 'utf8')) as TmapsHar
  const entry = har.log.entries.find((e) => e.request.url.includes('/geocoding/forward'))!
  const answers = ['first', 'second'].map((q) => ({
    ...entry,
    response: {
      ...entry.response,
      content: { ...entry.response.content, text: JSON.stringify({ query: q, results: [] }) },
    },
  }))
  const mock = createTmapsMock({
    state: 'empty',
    keys: [{ value: KEY }],
    replay: { log: { ...har.log, entries: answers } },
  })
  const ask = async () =>
    (
      (await (
        await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=2&api_key=${KEY}`))
      ).json()) as { query: string }
    ).query
  expect([await ask(), await ask(), await ask()]).toEqual(['first', 'second', 'second'])
  await mock.reset()
  expect(await ask()).toBe('first')
})

it('warns once when the recording is older than maxAge, naming the file and its oldest date', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  const later = () => new Date(Date.now() + 100 * 86_400_000)
  createTmapsMock({ state: 'empty', now: later, replay: harPath })
  createTmapsMock({ state: 'empty', now: later, replay: { har: harPath, maxAge: '365d' } })
  createTmapsMock({ state: 'empty', replay: harPath })
  expect(warn).toHaveBeenCalledTimes(1)
  expect(warn.mock.calls[0]![0]).toMatch(
    new RegExp(
      `recording ${harPath} holds answers older than 90d \\(the oldest from \\d{4}-\\d\\d-\\d\\d\\)`,
    ),
  )
  warn.mockRestore()
})

it('a recording that is not one throws, saying what is wrong', () => {
  const bad = join(dir, 'bad.har')
  writeFileSync(bad, '{"log":{}}')
  expect(() => createTmapsMock({ replay: bad })).toThrow(
    `Failed to read the recording ${bad}: it has no log.entries`,
  )
  expect(() => createTmapsMock({ replay: join(dir, 'none.har') })).toThrow(
    /Failed to read the recording .*none\.har: ENOENT/,
  )
  expect(() => createTmapsMock({ replay: { har: harPath, onMissing: 'ask' as never } })).toThrow(
    /onMissing must be "mock" or "error"/,
  )
  expect(() => createTmapsMock({ replay: { har: harPath, maxAge: 'soon' } })).toThrow(
    /maxAge "soon" is not a duration/,
  )
  const har = JSON.parse(readFileSync(harPath, 'utf8')) as TmapsHar
  const tile = har.log.entries.findIndex((e) => e.response.content.encoding === 'base64')
  har.log.entries[tile]!.response.content.text = 'not base64 at all!'
  expect(() => createTmapsMock({ replay: har })).toThrow(
    `Failed to read the recording: log.entries[${tile}].response.content.text is not base64, though its encoding says so.`,
  )
})

describe('a recording from someone else (issue #45): refused at load, or served inert', () => {
  const recorded = () => JSON.parse(readFileSync(harPath, 'utf8')) as TmapsHar
  const forwardAt = (har: TmapsHar) =>
    har.log.entries.findIndex((e) => e.request.url.includes('/geocoding/forward'))

  it('serves replayed JSON and PNG from serve with nosniff and a policy that runs nothing', async () => {
    const server = await startTmapsHttpsServer({
      port: 0,
      state: 'empty',
      keys: [{ value: KEY }],
      certDir: join(dir, 'certs'),
      replay: harPath,
    })
    try {
      const agent = new Agent({ ca: server.ca })
      const get = (path: string) =>
        new Promise<{ status?: number; headers: Record<string, unknown>; bytes: Buffer }>((done, fail) => {
          request(`${server.url}${path}${path.includes('?') ? '&' : '?'}api_key=${KEY}`, { agent }, (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c) => chunks.push(c))
            res.on('end', () =>
              done({ status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks) }),
            )
          })
            .on('error', fail)
            .end()
        })
      const json = await get('/geocoding/forward?q=Sfax&limit=2')
      const png = await get('/r-tile/7/67/50')
      for (const [answer, path] of [
        [json, REQUESTS[0]!],
        [png, '/r-tile/7/67/50'],
      ] as const) {
        expect(answer.status).toBe(200)
        expect([sha(answer.bytes), answer.headers['content-type']]).toEqual([
          received.get(path)!.sha,
          received.get(path)!.type,
        ])
        expect(answer.headers['x-content-type-options']).toBe('nosniff')
        expect(answer.headers['content-security-policy']).toBe(
          "default-src 'none'; frame-ancestors 'none'; sandbox",
        )
      }
      expect(server.mock.log.entries().map((e) => e.source)).toEqual(['replay', 'replay'])
      agent.destroy()
    } finally {
      await server.close()
    }
  })

  it.each([
    ['text/html', '<script>fetch("/__console/snapshot")</script>'],
    ['text/html; charset=utf-8', '<p>hi</p>'],
    ['application/javascript', 'alert(1)'],
    ['image/svg+xml', '<svg onload="alert(1)"/>'],
    ['application/json, text/html', '{}'],
  ])('refuses an entry that answers %j, naming the entry and what TMaps answers', (type, text) => {
    const har = recorded()
    const at = forwardAt(har)
    har.log.entries[at]!.response.content = { size: text.length, mimeType: type, text }
    expect(() => createTmapsMock({ replay: har })).toThrow(
      `Failed to read the recording: log.entries[${at}].response.content.mimeType ${JSON.stringify(type)} is not what TMaps answers (application/json or image/png); replay serves only those.`,
    )
  })

  it('still loads a recording whose unreplayed answers (a 502 of a proxy) are HTML', () => {
    const har = recorded()
    const at = forwardAt(har)
    har.log.entries.push({
      ...har.log.entries[at]!,
      response: {
        ...har.log.entries[at]!.response,
        status: 502,
        content: { size: 9, mimeType: 'text/html', text: '<b>502</b>' },
      },
    })
    expect(() => createTmapsMock({ replay: har })).not.toThrow()
  })

  it.each([[-1], [99_999], [99], [600], [200.5]])(
    'refuses an entry with response.status %j at load, naming the entry',
    (status) => {
      const har = recorded()
      const at = forwardAt(har)
      har.log.entries[at]!.response.status = status
      expect(() => createTmapsMock({ replay: har })).toThrow(
        `Failed to read the recording: log.entries[${at}].response.status ${status} is not an HTTP status (100 to 599, or 0 for a request that got no answer).`,
      )
    },
  )

  it('refuses a kept header with a line break, and a body on a 204, naming the entry', () => {
    const har = recorded()
    const at = forwardAt(har)
    har.log.entries[at]!.response.headers = [{ name: 'ETag', value: '"1"\r\nSet-Cookie: a=b' }]
    expect(() => createTmapsMock({ replay: har })).toThrow(
      `Failed to read the recording: log.entries[${at}].response.headers[0] (ETag) holds characters no HTTP header may (line breaks, control characters).`,
    )
    har.log.entries[at]!.response.headers = []
    har.log.entries[at]!.response.status = 204
    expect(() => createTmapsMock({ replay: har })).toThrow(
      `Failed to read the recording: log.entries[${at}].response.status 204 answers no body, yet the entry has one.`,
    )
  })

  it('masks a key-shaped value in a replayed body, as the recorder does', async () => {
    const har = recorded()
    const at = forwardAt(har)
    const leaked = `ak_${'c0ffee00'.repeat(4)}`
    const text = JSON.stringify({
      query: 'Sfax',
      results: [],
      note: `key ${leaked} and ${leaked.toUpperCase()}`,
    })
    har.log.entries[at]!.response.content = { size: text.length, mimeType: 'application/json', text }
    const mock = createTmapsMock({ state: 'empty', keys: [{ value: KEY }], replay: har })
    const response = await mock.fetch(
      new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=2&api_key=${KEY}`),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({
      query: 'Sfax',
      results: [],
      note: 'key {{api_key}} and {{api_key}}',
    })
    expect(mock.log.entries()[0]).toMatchObject({ source: 'replay', status: 200 })
  })
})
