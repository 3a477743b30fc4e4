import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOwnRequests } from '../src/cli/verify/own-requests.ts'
import { checkRecording } from '../src/cli/verify/recording.ts'
import { runVerify, toJunit } from '../src/cli/verify/verify.ts'
import { createTmapsCore } from '../src/core/create-core.ts'
import type { HarEntry, TmapsHar } from '../src/upstream/har.ts'
import { APP_ORIGIN, REAL_KEY, type StandIn, startStandIn } from './support/stand-in-tmaps.ts'

/**
 * `tmaps-mock verify` with a team's own requests: a JSON list or a HAR of its app sent to TMaps
 * beside the docs' examples (`--requests`), and a recording checked offline against the spec and
 * the mock (`--har`). Against a stand-in TMaps the test starts; nothing reaches the internet.
 */
const root = resolve(import.meta.dirname, '..')
const node = join(root, 'node_modules/.bin/node')
const cli = join(root, 'src/cli/tmaps-mock.ts')
const dir = mkdtempSync(join(tmpdir(), 'tmaps-verify-own-'))
const instant = () => Promise.resolve()
/** A key value a team might leave in its file: never sent, never written. */
const STALE_KEY = `ak_${'5ca1ab1e'.repeat(4)}`

let standIn: StandIn
beforeAll(async () => {
  standIn = await startStandIn()
})
afterAll(async () => {
  await standIn?.close()
  rmSync(dir, { recursive: true, force: true })
})

const verifyCli = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      node,
      [cli, 'verify', ...args],
      { env: { ...process.env, TMAPS_KEY: REAL_KEY }, cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })

const OWN = [
  {
    id: 'search-box',
    url: `https://api.tmaps.tn/geocoding/forward?q=La%20Marsa&limit=2&api_key=${STALE_KEY}`,
  },
  {
    id: 'delivery-route',
    url: '/routing/direction',
    body: {
      waypoints: [
        { lat: 36.8065, lng: 10.1815 },
        { lat: 36.8782, lng: 10.3247 },
      ],
      profile: 'driving',
    },
  },
  { url: '/r-tile/10/541/400' },
  { id: 'anonymous', url: '/geocoding/reverse?lat=36.8&lng=10.18', key: 'none' },
]

describe('verify --requests: the app’s own requests, beside the docs’ examples', () => {
  it('sends each with the real key (never one left in the file), from the app’s origin, and checks it as a probe', async () => {
    standIn.drift('none')
    const own = readOwnRequests(JSON.stringify(OWN), 'mine.json')
    expect(own.kind).toBe('list')
    const probes = own.kind === 'list' ? own.probes : []
    const before = standIn.seen.length
    const report = await runVerify({
      ...{ key: REAL_KEY, api: standIn.url, tiles: standIn.url, ca: standIn.ca, rate: 50, sleep: instant },
      origin: APP_ORIGIN,
      only: ['geocoding/forward', 'routing/direction', 'r-tile', 'geocoding/reverse'],
      requests: probes,
    })
    const mine = report.probes.filter((p) => p.source.startsWith('mine.json'))
    expect(mine.map((p) => [p.id, p.endpoint, p.method, p.real.status, p.mock.status])).toEqual([
      ['search-box', 'geocoding/forward', 'GET', 200, 200],
      ['delivery-route', 'routing/direction', 'POST', 200, 200],
      ['own-3', 'r-tile', 'GET', 200, 200],
      ['anonymous', 'geocoding/reverse', 'GET', 401, 401],
    ])
    expect(mine.flatMap((p) => p.findings.filter((f) => f.severity !== 'info'))).toEqual([])
    // What reached TMaps: the real key (none for "anonymous"), the app's Origin, the body as written.
    const sent = standIn.seen
      .slice(before)
      .filter((s) => /La\+Marsa|541\/400|lat=36.8&/.test(s.path) || s.body.includes('36.8782'))
    expect(sent).toHaveLength(4)
    for (const request of sent) expect(request.path).not.toContain(STALE_KEY)
    expect(sent.filter((s) => s.path.includes(`api_key=${REAL_KEY}`))).toHaveLength(3)
    expect(sent.find((s) => s.path.includes('direction'))?.headers.origin).toBe(APP_ORIGIN)
    expect(JSON.parse(sent.find((s) => s.path.includes('direction'))?.body ?? '')).toEqual(OWN[1]?.body)
    expect(JSON.stringify(report)).not.toContain(REAL_KEY)
    expect(JSON.stringify(report)).not.toContain(STALE_KEY)
  })

  it('finds a drift on the app’s own request, named by its file and place', async () => {
    standIn.drift('renamed-field')
    const own = readOwnRequests(JSON.stringify([OWN[0]]), 'mine.json')
    const report = await runVerify({
      ...{ key: REAL_KEY, api: standIn.url, tiles: standIn.url, ca: standIn.ca, rate: 50, sleep: instant },
      only: ['geocoding/forward'],
      requests: own.kind === 'list' ? own.probes : [],
    }).finally(() => standIn.drift('none'))
    const mine = report.probes.find((p) => p.id === 'search-box')
    expect(mine?.source).toBe('mine.json [0]')
    expect(mine?.findings).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'results[].formatted' }),
    )
    expect(toJunit(report)).toMatch(
      /<testcase [^>]*name="GET geocoding\/forward \(search-box\)"[^>]*>\s*<failure/,
    )
  })

  it('sends the TMaps requests of a browser’s HAR again (its other requests skipped), with the real key', async () => {
    const har = harOf([
      exchange('GET', `https://api.tmaps.tn/geocoding/forward?q=Sousse&api_key={{api_key}}`, 200, '{}'),
      exchange('GET', 'https://app.example.tn/assets/app.js', 200, 'console.log(1)', 'text/javascript'),
      exchange('GET', `https://tiles.tmaps.tn/r-tile/9/273/201?api_key=${STALE_KEY}`, 200, '', 'image/png'),
    ])
    const own = readOwnRequests(JSON.stringify(har), 'app.har')
    expect(own.kind === 'har' && { exchanges: own.exchanges.length, skipped: own.skipped }).toEqual({
      exchanges: 2,
      skipped: 1,
    })
    const file = join(dir, 'app.har')
    writeFileSync(file, JSON.stringify(har))
    const caFile = join(dir, 'ca.pem')
    writeFileSync(caFile, standIn.ca)
    const before = standIn.seen.length
    const run = await verifyCli([
      ...['--key-env', 'TMAPS_KEY', '--api', standIn.url, '--tiles', standIn.url, '--ca', caFile],
      ...['--only', 'r-tile', '--rate', '50', '--requests', file],
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/ok +GET r-tile +entry-2 +TMaps 200 \(\d+ ms\) \/ mock 200/)
    expect(run.stdout).toContain(
      `the documented probes, and 2 requests of ${file} (1 other entry skipped: not TMaps requests)`,
    )
    const tiles = standIn.seen.slice(before).filter((s) => s.path.startsWith('/r-tile/9/273/201'))
    expect(tiles.map((s) => s.path)).toEqual([`/r-tile/9/273/201?api_key=${REAL_KEY}`])
    expect(run.stdout).not.toContain(REAL_KEY)
  })

  it('refuses a file it cannot use, before sending anything: exit 2 and what to write', async () => {
    const cases: Array<[string, RegExp]> = [
      ['[{"url": ', /broken\.json is not JSON/],
      ['{"requests": []}', /neither a list of requests .* nor a HAR file/],
      [
        '[{"url": "/geocoding/everything"}]',
        /broken\.json \[0\]: GET \/geocoding\/everything is not a TMaps endpoint/,
      ],
      ['[{"url": "/geocoding/forward?q=x", "method": "DELETE"}]', /"method" is GET or POST/],
      ['[{"url": "/geocoding/forward?q=x", "key": "mine"}]', /"key" is "real" or "none"/],
      [
        '[{"url": "/geocoding/forward?q=x", "mehtod": "POST"}]',
        /broken\.json \[0\]: "mehtod" is not a field of a request \(its fields: url, method, body, id, key, origin\)/,
      ],
      [
        '[{"url": "/geocoding/forward?q=x", "origin": "https://a.tn"}]',
        /"origin" is "app" \(your --origin\), "foreign" or "none"/,
      ],
      [
        JSON.stringify(Array(201).fill({ url: '/geocoding/forward?q=x' })),
        /201 requests; verify sends at most 200/,
      ],
    ]
    for (const [text, message] of cases)
      expect(() => readOwnRequests(text, 'broken.json'), text).toThrow(message)
    // From the CLI: exit 2 with the message, and nothing sent.
    const unknown = join(dir, 'unknown.json')
    writeFileSync(unknown, `[{"url": "/geocoding/everything?api_key=${STALE_KEY}"}]`)
    const pagesOnly = join(dir, 'pages-only.har')
    writeFileSync(
      pagesOnly,
      JSON.stringify(harOf([exchange('GET', 'https://app.example.tn/', 200, '<p>', 'text/html')])),
    )
    const before = standIn.seen.length
    for (const [file, message] of [
      [unknown, /unknown\.json \[0\]: GET \/geocoding\/everything\?api_key=… is not a TMaps endpoint/],
      [pagesOnly, /pages-only\.har holds no TMaps request \(1 other entry\): record one/],
      [join(dir, 'absent.json'), /cannot read .*absent\.json/],
    ] as const) {
      const run = await verifyCli(['--key-env', 'TMAPS_KEY', '--api', standIn.url, '--requests', file])
      expect(run.code, file).toBe(2)
      expect(run.stderr, file).toMatch(message)
      expect(run.stderr, file).not.toContain(STALE_KEY)
    }
    expect(standIn.seen.length).toBe(before)
    expect(() => readOwnRequests(`[{"url": "/nowhere?api_key=${STALE_KEY}&q=1"}]`, 'k.json')).toThrow(
      'k.json [0]: GET /nowhere?api_key=…&q=1 is not a TMaps endpoint',
    )
  })
})

describe('verify --har: a recording checked offline, against the spec and the mock', () => {
  it('passes a faithful recording and finds what drifted: a renamed field, an HTML page with 200, a bad error body', async () => {
    const faithful = await recorded('GET', '/geocoding/forward?q=Sfax&limit=1')
    const renamed = await recorded('GET', '/geocoding/forward?q=Gabes&limit=1')
    const body = JSON.parse(renamed.response.content.text ?? '{}')
    for (const result of body.results) {
      result.formatted_address = result.formatted
      delete result.formatted
    }
    renamed.response.content.text = JSON.stringify(body)
    const maintenance = await recorded('GET', '/geocoding/reverse?lat=36.8&lng=10.18')
    maintenance.response.content = {
      size: 40,
      mimeType: 'text/html',
      text: '<html><h1>Maintenance</h1></html>',
    }
    maintenance.response.headers = [{ name: 'content-type', value: 'text/html' }]
    const refused = await recorded('GET', '/geocoding/forward?q=Tunis', { key: false })
    refused.response.content.text = '{"error":"missing key"}'
    const tile = await recorded('GET', '/r-tile/9/273/201')
    const limited = await recorded('GET', '/geocoding/nearby?lat=36.8&lng=10.18')
    limited.response.status = 429
    limited.response.content.text = '{"error":"rate limited"}'
    const route = await recorded('POST', '/routing/direction', {
      body: {
        waypoints: [
          { lat: 36.8065, lng: 10.1815 },
          { lat: 35.8256, lng: 10.6084 },
        ],
      },
    })
    const other = exchange('GET', 'https://fonts.example/inter.woff2', 200, '', 'font/woff2')
    const file = join(dir, 'recorded.har')
    writeFileSync(
      file,
      JSON.stringify(harOf([faithful, renamed, maintenance, refused, tile, limited, route, other])),
    )
    const own = readOwnRequests(readFileSync(file, 'utf8'), file)
    if (own.kind !== 'har') throw new Error('a HAR')
    const before = standIn.seen.length
    const report = await checkRecording({ name: file, exchanges: own.exchanges, skipped: own.skipped })
    expect(standIn.seen.length).toBe(before) // nothing sent
    expect(report.recording).toEqual({ file, entries: 7, skipped: 1 })
    const errors = (id: string) =>
      report.probes.find((p) => p.id === id)?.findings.filter((f) => f.severity === 'error') ?? []
    expect(errors('entry-0')).toEqual([])
    expect(errors('entry-1')).toContainEqual(expect.objectContaining({ path: 'results[].formatted' }))
    expect(errors('entry-2').map((f) => f.message)).toContainEqual(
      expect.stringMatching(/TMaps's answer is not JSON though the spec says application\/json/),
    )
    expect(errors('entry-3')).toContainEqual(
      expect.objectContaining({ path: 'body', message: expect.stringMatching(/The error body differs/) }),
    )
    expect(errors('entry-4')).toEqual([])
    expect(report.probes.find((p) => p.id === 'entry-5')?.findings).toEqual([
      expect.objectContaining({
        severity: 'info',
        message: expect.stringMatching(/recorded 429 .* not the mock/),
      }),
    ])
    expect(errors('entry-6')).toEqual([])
    expect(report.summary).toMatchObject({ probes: 7 })
    expect(report.probes.map((p) => p.real.ms)).toEqual(Array(7).fill(42))
  })

  it('runs from the CLI with no key and no network: exit 1 on an error, the reports written, exit 0 when clean', async () => {
    const clean = join(dir, 'clean.har')
    writeFileSync(clean, JSON.stringify(harOf([await recorded('GET', '/geocoding/forward?q=Nabeul')])))
    const report = join(dir, 'offline.json')
    const junit = join(dir, 'offline.xml')
    const ok = await verifyCli(['--har', clean, '--report', report, '--junit', junit, '--slow', '40'])
    expect(ok.stderr).toBe('')
    expect(ok.stdout).toMatch(/the recording .*clean\.har \(1 TMaps exchanges\), offline/)
    expect(ok.code).toBe(0)
    const written = JSON.parse(readFileSync(report, 'utf8'))
    expect(written.recording).toMatchObject({ entries: 1, skipped: 0 })
    // The recorded 42 ms, over --slow 40: a warning, which passes unless --fail-on warning.
    expect(written.probes[0].findings).toContainEqual(
      expect.objectContaining({ severity: 'warning', path: 'time' }),
    )
    expect(readFileSync(junit, 'utf8')).toMatch(/<testcase [^>]*time="0\.042"/)
    expect((await verifyCli(['--har', clean, '--slow', '40', '--fail-on', 'warning'])).code).toBe(1)

    const drifted = await recorded('GET', '/geocoding/forward?q=Bizerte')
    drifted.response.content.text = '[]'
    const bad = join(dir, 'bad.har')
    writeFileSync(bad, JSON.stringify(harOf([drifted])))
    const failing = await verifyCli(['--har', bad])
    expect(failing.code).toBe(1)
    expect(failing.stdout).toMatch(/DIFFERS +GET geocoding\/forward/)

    const list = join(dir, 'list.json')
    writeFileSync(list, JSON.stringify(OWN))
    const wrong = await verifyCli(['--har', list])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(
      /--har takes a HAR file; .* is a list of requests \(send those with --requests\)/,
    )
    const empty = join(dir, 'empty.har')
    writeFileSync(
      empty,
      JSON.stringify(harOf([exchange('GET', 'https://app.example.tn/', 200, '', 'text/html')])),
    )
    expect((await verifyCli(['--har', empty])).stderr).toMatch(/holds no TMaps request \(1 other entry\)/)
    expect((await verifyCli(['--har', clean, '--requests', list])).stderr).toMatch(/not both/)
  })
})

/** A HAR of these entries. */
function harOf(entries: HarEntry[]): TmapsHar {
  return { log: { version: '1.2', creator: { name: 'a browser', version: '1' }, entries } }
}

/** One HAR entry, as a browser exports it. */
function exchange(
  method: string,
  url: string,
  status: number,
  text: string,
  mimeType = 'application/json',
  requestHeaders: Array<{ name: string; value: string }> = [],
  postData?: string,
): HarEntry {
  return {
    startedDateTime: '2026-11-29T10:00:00.000Z',
    time: 42,
    request: {
      ...{ method, url, httpVersion: 'HTTP/1.1', headers: requestHeaders, queryString: [], cookies: [] },
      ...{ headersSize: -1, bodySize: postData?.length ?? 0 },
      ...(postData !== undefined && { postData: { mimeType: 'application/json', text: postData } }),
    },
    response: {
      ...{ status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '' },
      headers: [{ name: 'content-type', value: mimeType }],
      content: { size: text.length, mimeType, text },
      ...{ headersSize: -1, bodySize: text.length },
    },
    cache: {},
    timings: { send: 0, wait: 42, receive: 0 },
  }
}

const recorder = createTmapsCore({
  state: 'empty',
  seed: 'recorded',
  keys: [{ value: REAL_KEY, name: 'App', domains: ['app.example.tn'] }],
})

/** What a TMaps of another seed answered, recorded as the app sent it (its Origin; `{{api_key}}`). */
async function recorded(
  method: 'GET' | 'POST',
  path: string,
  { key = true, body }: { key?: boolean; body?: unknown } = {},
): Promise<HarEntry> {
  const host = path.startsWith('/r-tile/') ? 'https://tiles.tmaps.tn' : 'https://api.tmaps.tn'
  const withKey = (value: string) => (key ? `${path}${path.includes('?') ? '&' : '?'}api_key=${value}` : path)
  const text = body === undefined ? '' : JSON.stringify(body)
  const answer = await recorder.answer({
    method,
    url: `${host}${withKey(REAL_KEY)}`,
    headers: new Headers({
      origin: APP_ORIGIN,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    }),
    text: () => Promise.resolve(text),
  })
  const contentType = answer.headers['Content-Type'] ?? answer.headers['content-type'] ?? 'application/json'
  const bytes = answer.body ?? new Uint8Array()
  const png = contentType === 'image/png'
  const entry = exchange(
    method,
    `${host}${withKey('{{api_key}}')}`,
    answer.status,
    png ? Buffer.from(bytes).toString('base64') : new TextDecoder().decode(bytes),
    contentType,
    [{ name: 'origin', value: APP_ORIGIN }],
    body === undefined ? undefined : text,
  )
  if (png) entry.response.content.encoding = 'base64'
  return entry
}
