import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { setupTmapsNode, type TmapsNodeOptions } from '../src/runtimes/node/index.ts'
import type { TmapsHar } from '../src/upstream/har.ts'
import { type Drift, REAL_KEY, type StandIn, startStandIn } from './support/stand-in-tmaps.ts'

/**
 * Recording TMaps from Node tests (`setupTmapsNode({ upstream, record })`), as Polly.js does:
 * against a stand-in TMaps on a real HTTPS socket, through msw's own interception of the
 * process's requests. Nothing here reaches the internet.
 */
let standIn: StandIn
const dir = mkdtempSync(join(tmpdir(), 'tmaps-record-'))
let files = 0
const harPath = () => join(dir, `sub-${++files}`, 'tmaps.har') // its folder made on the first entry
const readEntries = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as TmapsHar).log.entries
const DAY = 86_400_000

beforeAll(async () => {
  standIn = await startStandIn()
})
afterAll(() => standIn?.close())
afterEach(() => {
  standIn.drift('none')
  vi.restoreAllMocks()
})

const upstream = () => ({
  key: REAL_KEY as string | undefined,
  api: standIn.url,
  tiles: standIn.url,
  ca: standIn.ca,
})

/** A setupTmapsNode listening (unhandled requests are errors), a local key, and a GET/POST helper. */
async function setUp(options: TmapsNodeOptions) {
  const { server, mock } = setupTmapsNode({ state: 'empty', ...options })
  server.listen({ onUnhandledFrame: 'error' })
  const key = await mock.console.createKey({ name: 'Tests' })
  const call = async (
    path: string,
    { body, keyValue = key.value }: { body?: unknown; keyValue?: string } = {},
  ) => {
    const host = path.startsWith('/r-tile/') ? 'https://tiles.tmaps.tn' : 'https://api.tmaps.tn'
    const url = `${host}${path}${path.includes('?') ? '&' : '?'}api_key=${keyValue}`
    const response = await fetch(
      url,
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
    )
    const answer = {
      status: response.status,
      source: response.headers.get('x-tmaps-mock-source'),
      bytes: Buffer.from(await response.arrayBuffer()),
    }
    return answer
  }
  return { server, mock, key, call }
}

describe("setupTmapsNode's record, mode 'missing'", () => {
  it('forwards what the file lacks with the real key, records it without a key (0600), and replays it after', async () => {
    const har = harPath()
    const { server, mock, key, call } = await setUp({ upstream: upstream(), record: { har } })
    try {
      const before = standIn.seen.length
      const first = await call('/geocoding/forward?q=Sfax&limit=2')
      expect([first.status, first.source]).toEqual([200, 'upstream'])
      expect(JSON.parse(first.bytes.toString()).results.length).toBeGreaterThan(0)
      // The stand-in got the real key, and no trace of msw's pass-through mark.
      const sent = standIn.seen.slice(before)
      expect(sent).toHaveLength(1)
      expect(sent[0]!.path).toContain(`api_key=${REAL_KEY}`)
      expect(String(sent[0]!.headers.accept ?? '')).not.toContain('msw')
      // Recorded: one entry, readable by the user only, no key in it.
      const text = readFileSync(har, 'utf8')
      expect(statSync(har).mode & 0o777).toBe(0o600)
      expect(text).not.toContain(REAL_KEY)
      expect(text).not.toContain(key.value)
      expect(readEntries(har)).toHaveLength(1)
      expect(readEntries(har)[0]!.request.url).toContain('api_key={{api_key}}')
      expect(readEntries(har)[0]!._tmaps?.keyName).toBe('Tests')
      // The same request, its query in another order: replayed, TMaps not asked again.
      const again = await call('/geocoding/forward?limit=2&q=Sfax')
      expect([again.status, again.source]).toEqual([200, 'replay'])
      expect(again.bytes.equals(first.bytes)).toBe(true)
      expect(standIn.seen.length).toBe(before + 1)
      expect(mock.log.entries().map((e) => e.source)).toEqual(['replay', 'upstream'])
    } finally {
      server.close()
    }
  })

  it('records a POST by its body and a tile as its bytes, and replays both from the file in a later run without a key', async () => {
    const har = harPath()
    const route = {
      waypoints: [
        { lat: 36.8065, lng: 10.1815 },
        { lat: 36.8527, lng: 10.3233 },
      ],
    }
    const recording = await setUp({ upstream: upstream(), record: { har } })
    let recorded: { route: Buffer; tile: Buffer }
    try {
      const routed = await recording.call('/routing/direction', { body: route })
      const tile = await recording.call('/r-tile/9/273/201')
      expect([routed.status, tile.status, tile.bytes.subarray(1, 4).toString()]).toEqual([200, 200, 'PNG'])
      recorded = { route: routed.bytes, tile: tile.bytes }
      expect(readEntries(har).map((e) => e.response.content.encoding ?? 'text')).toEqual(['text', 'base64'])
    } finally {
      recording.server.close()
    }
    // CI without the secret: the file is replayed, nothing reaches TMaps, and a request it lacks
    // says how to record it.
    const before = standIn.seen.length
    const replaying = await setUp({ upstream: { ...upstream(), key: undefined }, record: { har } })
    try {
      const reordered = { waypoints: route.waypoints.map(({ lat, lng }) => ({ lng, lat })) }
      const routed = await replaying.call('/routing/direction', { body: reordered })
      const tile = await replaying.call('/r-tile/9/273/201')
      expect([routed.source, tile.source]).toEqual(['replay', 'replay'])
      expect(routed.bytes.equals(recorded.route)).toBe(true)
      expect(tile.bytes.equals(recorded.tile)).toBe(true)
      const missing = await replaying.call('/geocoding/forward?q=Gabes')
      expect([missing.status, missing.source]).toEqual([500, 'replay-miss'])
      expect(JSON.parse(missing.bytes.toString()).error).toBe(
        `not recorded: GET /geocoding/forward (in ${har}); give upstream.key (the real key, e.g. from TMAPS_KEY) to record it`,
      )
      expect(standIn.seen.length).toBe(before)
    } finally {
      replaying.server.close()
    }
  })

  it('keeps the contract in front: a request refused for its key or origin reaches neither TMaps nor the file', async () => {
    const har = harPath()
    const { server, mock, key, call } = await setUp({ upstream: upstream(), record: { har } })
    try {
      const before = standIn.seen.length
      const unkeyed = await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax')
      expect([unkeyed.status, await unkeyed.json()]).toEqual([401, { error: 'missing api_key' }])
      await mock.console.setKeyDomains({ id: key.id }, ['app.example.tn'])
      const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
      const foreign = await fetch(url, { headers: { Origin: 'https://elsewhere.example' } })
      expect(foreign.status).toBe(403)
      await mock.console.disableKey({ id: key.id })
      expect((await call('/geocoding/forward?q=Sfax')).status).toBe(401)
      expect(standIn.seen.length).toBe(before)
      expect(() => statSync(har)).toThrow() // nothing recorded, no file written
    } finally {
      server.close()
    }
  })

  it('records again an answer past maxAge when TMaps answers, and keeps it as it is when TMaps does not', async () => {
    const har = harPath()
    const first = await setUp({ upstream: upstream(), record: { har } })
    try {
      expect((await first.call('/geocoding/forward?q=Sousse')).status).toBe(200)
    } finally {
      first.server.close()
    }
    // Recorded 100 days ago (by the real clock, as the recorder dates entries).
    const old = new Date(Date.now() - 100 * DAY).toISOString()
    const text = JSON.parse(readFileSync(har, 'utf8')) as TmapsHar
    text.log.entries[0]!._tmaps!.recordedAt = old
    writeFileSync(har, JSON.stringify(text))
    const run = async (drift: Drift, work: (s: Awaited<ReturnType<typeof setUp>>) => Promise<void>) => {
      standIn.drift(drift)
      const started = await setUp({ upstream: upstream(), record: { har, maxAge: '90d' } })
      try {
        await work(started)
      } finally {
        started.server.close()
      }
    }
    // TMaps down: the old answer is served, the file untouched, and TMaps not asked again this run.
    await run('reset', async ({ call, mock }) => {
      const kept = await call('/geocoding/forward?q=Sousse')
      expect([kept.status, kept.source]).toEqual([200, 'replay'])
      expect(mock.log.entries()[0]!.reason).toMatch(/TMaps could not be reached, so it is kept\.$/)
      const before = standIn.seen.length
      expect((await call('/geocoding/forward?q=Sousse')).source).toBe('replay')
      expect(standIn.seen.length).toBe(before)
    })
    // TMaps rate-limiting (429, never replayed): kept too, the reason said.
    await run('rate-limited', async ({ call, mock }) => {
      expect((await call('/geocoding/forward?q=Sousse')).source).toBe('replay')
      expect(mock.log.entries()[0]!.reason).toMatch(
        /TMaps answered 429, which is never replayed, so it is kept\.$/,
      )
    })
    expect(readEntries(har).map((e) => e._tmaps?.recordedAt)).toEqual([old])
    // TMaps back: recorded again, in place of the old answer; then replayed.
    await run('none', async ({ call }) => {
      const fresh = await call('/geocoding/forward?q=Sousse')
      expect([fresh.status, fresh.source]).toEqual([200, 'upstream'])
      expect((await call('/geocoding/forward?q=Sousse')).source).toBe('replay')
    })
    const entries = readEntries(har)
    expect(entries).toHaveLength(1)
    expect(entries[0]!._tmaps!.recordedAt > old).toBe(true)
  })

  it('without a key, replays an old recording and warns once that it cannot refresh it', async () => {
    const har = harPath()
    const first = await setUp({ upstream: upstream(), record: { har } })
    try {
      await first.call('/geocoding/forward?q=Sfax')
    } finally {
      first.server.close()
    }
    const text = JSON.parse(readFileSync(har, 'utf8')) as TmapsHar
    text.log.entries[0]!._tmaps!.recordedAt = '2026-01-02T03:04:05.000Z'
    writeFileSync(har, JSON.stringify(text))
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { server, call } = await setUp({ upstream: { ...upstream(), key: undefined }, record: { har } })
    try {
      expect((await call('/geocoding/forward?q=Sfax')).source).toBe('replay')
      expect(warned.mock.calls.map(([m]) => m)).toEqual([
        `tmaps-mock: the recording ${har} holds answers older than 90d (the oldest from 2026-01-02), and there is no key to record them again: give upstream.key (e.g. from TMAPS_KEY) to refresh them.`,
      ])
    } finally {
      server.close()
    }
  })

  it('asks TMaps once for requests made side by side, and two mocks recording one file keep both answers', async () => {
    const har = harPath()
    // b opens the file before a writes to it (two Playwright workers, two test files on one HAR).
    const b = setupTmapsNode({ state: 'empty', upstream: upstream(), record: { har } })
    const a = await setUp({ upstream: upstream(), record: { har } })
    try {
      const before = standIn.seen.length
      const twins = await Promise.all([
        a.call('/geocoding/forward?q=Nabeul'),
        a.call('/geocoding/forward?q=Nabeul'),
      ])
      expect(twins.map((t) => t.status)).toEqual([200, 200])
      expect(twins[1]!.bytes.equals(twins[0]!.bytes)).toBe(true)
      expect(standIn.seen.length).toBe(before + 1)
    } finally {
      a.server.close()
    }
    b.server.listen({ onUnhandledFrame: 'error' })
    try {
      const { value } = await b.mock.console.createKey({ name: 'B' })
      expect((await fetch(`https://api.tmaps.tn/geocoding/forward?q=Gabes&api_key=${value}`)).status).toBe(
        200,
      )
      const queries = readEntries(har).map((e) => new URL(e.request.url).searchParams.get('q'))
      expect(queries).toEqual(['Nabeul', 'Gabes'])
    } finally {
      b.server.close()
    }
  })

  it('does not record an answer replay could not serve (an HTML page with 200, a 500), and says so', async () => {
    const har = harPath()
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const { server, call } = await setUp({ upstream: upstream(), record: { har } })
    try {
      standIn.drift('maintenance')
      const page = await call('/geocoding/forward?q=Tozeur')
      expect([page.status, page.source]).toEqual([200, 'upstream'])
      expect(() => statSync(har)).toThrow()
      const lines = said.mock.calls.map(([text]) => String(text)).join('')
      expect(lines).toContain(`GET /geocoding/forward was not recorded in ${har}:`)
      expect(lines).toContain('is not what TMaps answers')
      // A 500 passes to the test as TMaps gave it, and is not recorded either (never replayed).
      standIn.drift('server-error')
      const failed = await call('/geocoding/forward?q=Tozeur')
      expect([failed.status, JSON.parse(failed.bytes.toString())]).toEqual([500, { error: 'internal error' }])
      expect(said.mock.calls.map(([text]) => String(text)).join('')).toContain(
        `GET /geocoding/forward was not recorded in ${har}: TMaps answered 500, which is never replayed.`,
      )
      // It is asked again next time: not taken for an answer.
      standIn.drift('none')
      expect((await call('/geocoding/forward?q=Tozeur')).source).toBe('upstream')
      expect(readEntries(har)).toHaveLength(1)
    } finally {
      server.close()
    }
  })
})

describe("setupTmapsNode's record, mode 'all'", () => {
  it("forwards every request, records each in place of the file's earlier answers, and keeps the other requests' answers", async () => {
    const har = harPath()
    const first = await setUp({ upstream: upstream(), record: { har } })
    try {
      await first.call('/geocoding/forward?q=Sfax')
      await first.call('/geocoding/forward?q=Monastir')
    } finally {
      first.server.close()
    }
    const [sfax] = readEntries(har)
    const before = standIn.seen.length
    const all = await setUp({ upstream: upstream(), record: { har, mode: 'all' } })
    try {
      const again = await all.call('/geocoding/forward?q=Sfax')
      const twice = await all.call('/geocoding/forward?q=Sfax')
      expect([again.source, twice.source]).toEqual(['upstream', 'upstream'])
      expect(standIn.seen.length).toBe(before + 2)
      // Sfax recorded twice in this run (answers 1 and 2, in order), in place of the old one; Monastir kept.
      const entries = readEntries(har)
      const queries = entries.map((e) => new URL(e.request.url).searchParams.get('q'))
      expect(queries).toEqual(['Monastir', 'Sfax', 'Sfax'])
      const [again1, again2] = entries.slice(1).map((e) => e.startedDateTime)
      expect(again1! < again2! && again1! > sfax!.startedDateTime).toBe(true)
    } finally {
      all.server.close()
    }
  })
})

describe("setupTmapsNode's upstream alone, and its errors", () => {
  it('forwards every accepted request to TMaps and records nothing', async () => {
    const { server, call } = await setUp({ upstream: upstream() })
    try {
      const before = standIn.seen.length
      expect((await call('/geocoding/forward?q=Sfax')).source).toBe('upstream')
      expect((await call('/geocoding/forward?q=Sfax')).source).toBe('upstream')
      expect(standIn.seen.length).toBe(before + 2)
    } finally {
      server.close()
    }
  })

  it('throws at once, saying how to fix it, on a bad option or an unreadable recording', () => {
    const har = harPath()
    const cases: Array<[TmapsNodeOptions, string]> = [
      [
        { upstream: { key: undefined } },
        'Failed to set up setupTmapsNode: upstream key is empty: give the real key (e.g. key: process.env.TMAPS_KEY), or record: { har } to replay a recording without one.',
      ],
      [
        { upstream: { key: REAL_KEY, api: 'http://api.tmaps.tn' } },
        'Failed to set up setupTmapsNode: upstream api must be https:// (TMaps refuses plain HTTP), got http:.',
      ],
      [
        { upstream: upstream(), record: { har, mode: 'sometimes' as 'all' } },
        'Failed to set up setupTmapsNode: record.mode must be "missing" or "all", got "sometimes".',
      ],
      [
        {
          upstream: upstream(),
          record: { har },
          replay: { har: { log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } } },
        },
        'Failed to set up setupTmapsNode: give replay, or upstream and record, not both (record replays its own file).',
      ],
    ]
    for (const [options, message] of cases) expect(() => setupTmapsNode(options)).toThrow(message)
    const broken = join(dir, 'broken.har')
    writeFileSync(broken, '{"log": ')
    expect(() => setupTmapsNode({ upstream: upstream(), record: { har: broken } })).toThrow(
      `Failed to read the recording ${broken}: it is not JSON`,
    )
  })
})
