import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runVerify, toJunit } from '../src/cli/verify/verify.ts'
import { startTmapsHttpsServer, type TmapsHttpsServer } from '../src/runtimes/server/https-server.ts'
import { holdsRawKey, RAW_KEY, scrubKeys, type TmapsHar } from '../src/upstream/har.ts'
import { freePort } from './support/browser.ts'
import { APP_ORIGIN, REAL_KEY, type StandIn, startStandIn } from './support/stand-in-tmaps.ts'

const root = resolve(import.meta.dirname, '..')
const node = join(root, 'node_modules/.bin/node')
const cli = join(root, 'src/cli/tmaps-mock.ts')
const dir = mkdtempSync(join(tmpdir(), 'tmaps-upstream-'))
const instant = () => Promise.resolve()

let standIn: StandIn
beforeAll(async () => {
  standIn = await startStandIn()
})
afterAll(() => standIn?.close())

const verifyHere = (options: { only?: string[]; origin?: string; timeoutMs?: number } = {}) =>
  runVerify({
    key: REAL_KEY,
    api: standIn.url,
    tiles: standIn.url,
    ca: standIn.ca,
    rate: 50,
    sleep: instant,
    ...options,
  })

/** `tmaps-mock verify` as a user runs it: the key in the environment, never in argv. */
function verifyCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      node,
      [cli, 'verify', ...args],
      { env: { ...process.env, TMAPS_KEY: REAL_KEY, ...env }, cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('tmaps-mock verify against a stand-in TMaps', () => {
  it('reports no difference against a faithful stand-in, writes its JSON and JUnit reports, exits 0, and never shows the key', async () => {
    standIn.drift('none')
    const report = join(dir, 'verify.json')
    const junit = join(dir, 'verify.xml')
    const { code, stdout, stderr } = await verifyCli(
      [
        '--key-env',
        'TMAPS_KEY',
        '--origin',
        APP_ORIGIN,
        '--api',
        standIn.url,
        '--tiles',
        standIn.url,
        '--report',
        report,
        '--junit',
        junit,
        '--rate',
        '20',
      ],
      { NODE_EXTRA_CA_CERTS: standIn.caPath },
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const json = JSON.parse(readFileSync(report, 'utf8'))
    expect(json).toMatchObject({
      tool: 'tmaps-mock verify',
      api: standIn.url,
      tiles: standIn.url,
      summary: { errors: 0, warnings: 0 },
    })
    expect(json.probes.length).toBeGreaterThanOrEqual(14)
    expect(json.probes.length).toBeLessThanOrEqual(40)
    // Every endpoint and method, a 400, 401 and the 403.
    const seen = new Set(
      json.probes.map((p: { method: string; endpoint: string }) => `${p.method} ${p.endpoint}`),
    )
    for (const op of [
      'GET geocoding/forward',
      'GET geocoding/reverse',
      'GET geocoding/nearby',
      'GET routing/direction',
      'POST routing/direction',
      'POST routing/optimized',
      'POST routing/isochrone',
      'POST distance-matrix',
      'GET maps/static',
      'GET r-tile',
    ])
      expect(seen).toContain(op)
    expect(json.probes.map((p: { real: { status: number } }) => p.real.status)).toEqual(
      expect.arrayContaining([200, 400, 401, 403]),
    )
    expect(json.probes[0].request.url).toContain('api_key=ak_c0ff…')
    expect(stdout).toMatch(/^ok +GET geocoding\/forward +forward-example +TMaps 200 \(\d+ ms\) \/ mock 200$/m)
    expect(stdout).toMatch(/probes: 0 errors, 0 warnings/)
    const xml = readFileSync(junit, 'utf8')
    expect(xml.match(/<testcase /g)).toHaveLength(json.probes.length)
    expect(xml).not.toContain('<failure')
    for (const text of [stdout, stderr, readFileSync(report, 'utf8'), xml])
      expect(text).not.toContain(REAL_KEY)
  })

  it.each([
    [
      'renamed-field',
      'error',
      'results[].formatted',
      /lacks results\[\]\.formatted, which the spec requires/,
    ],
    ['missing-required', 'error', 'query', /lacks query/],
    ['extra-field', 'warning', 'results[].place_id', /the spec and the mock lack it/],
    [
      'changed-403',
      'error',
      'body',
      /error body differs: TMaps \{"error":"origin not allowed"\}, the mock \{"error":"domain not authorized"\}/,
    ],
    ['bare-list', 'error', '(the body)', /is array at TMaps, object in the mock/],
    ['server-error', 'error', 'status', /TMaps answered 500, the mock 200/],
    [
      'content-type',
      'warning',
      'headers.content-type',
      /Content-Type differs: TMaps "text\/json", the mock "application\/json"\./,
    ],
  ] as const)('finds the drift %s (%s at %s)', async (drift, severity, path, message) => {
    standIn.drift(drift)
    const report = await verifyHere({ only: ['geocoding/forward'], origin: APP_ORIGIN })
    const findings = report.probes.flatMap((p) => p.findings)
    expect(findings).toContainEqual(
      expect.objectContaining({ severity, path, message: expect.stringMatching(message) }),
    )
    if (severity === 'warning') expect(report.summary.errors).toBe(0)
    else expect(report.summary.errors).toBeGreaterThan(0)
    // The other endpoints are faithful: the drift is the only thing found.
    standIn.drift('none')
    expect((await verifyHere({ only: ['geocoding/forward'], origin: APP_ORIGIN })).summary).toMatchObject({
      errors: 0,
      warnings: 0,
    })
  })

  it('honours a 429 with Retry-After, retries the probe once and finds nothing', async () => {
    standIn.drift('rate-limited')
    const before = standIn.seen.length
    const waits: number[] = []
    const report = await runVerify({
      key: REAL_KEY,
      api: standIn.url,
      tiles: standIn.url,
      ca: standIn.ca,
      only: ['geocoding/reverse'],
      sleep: async (ms) => {
        waits.push(ms)
      },
    })
    expect(report.summary.errors).toBe(0)
    expect(waits).toContain(1000) // Retry-After: 1
    const asked = standIn.seen.slice(before).filter((r) => r.path.startsWith('/geocoding/reverse'))
    expect(asked.length).toBe(2 * report.probes.length) // each once refused, once answered
    standIn.drift('none')
  })

  it('paces its requests at --rate (default 2 per second)', async () => {
    const waits: number[] = []
    await runVerify({
      key: REAL_KEY,
      api: standIn.url,
      tiles: standIn.url,
      ca: standIn.ca,
      only: ['geocoding/forward'],
      sleep: async (ms) => {
        waits.push(ms)
      },
    })
    expect(waits.length).toBeGreaterThanOrEqual(2)
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(500)
    expect(Math.max(...waits)).toBeGreaterThan(400)
  })

  it('exits 2 with a message that says what to do: no key, TLS refused, TMaps unreachable, every probe timed out', async () => {
    const noKey = await verifyCli(
      ['--key-env', 'NOT_SET_ANYWHERE', '--api', standIn.url, '--tiles', standIn.url],
      { NOT_SET_ANYWHERE: '' },
    )
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toMatch(/NOT_SET_ANYWHERE is empty or not set/)
    const argvKey = await verifyCli([`--key=${REAL_KEY}`])
    expect(argvKey.code).toBe(2)
    expect(argvKey.stderr).not.toContain(REAL_KEY)

    const tls = await verifyCli(['--key-env', 'TMAPS_KEY', '--api', standIn.url, '--tiles', standIn.url])
    expect(tls.code).toBe(2)
    expect(tls.stderr).toMatch(/TLS with https:\/\/localhost:\d+ failed .*--ca FILE or NODE_EXTRA_CA_CERTS/)

    const dead = `https://127.0.0.1:${await freePort()}`
    const [deadReport, deadJunit] = [join(dir, 'unreachable.json'), join(dir, 'unreachable.xml')]
    const unreachable = await verifyCli([
      ...['--key-env', 'TMAPS_KEY', '--api', dead, '--tiles', dead],
      ...['--report', deadReport, '--junit', deadJunit],
    ])
    expect(unreachable.code).toBe(2)
    expect(unreachable.stderr).toMatch(/unreachable \(ECONNREFUSED/)
    expect(JSON.parse(readFileSync(deadReport, 'utf8'))).toMatchObject({
      api: dead,
      couldNotRun: expect.stringMatching(/unreachable \(ECONNREFUSED/),
      summary: { probes: 0 },
    })
    expect(readFileSync(deadJunit, 'utf8')).toMatch(/<error message="[^"]*unreachable \(ECONNREFUSED/)
    // Before any probe too: a missing key, and arguments it cannot read, still write both.
    const early = join(dir, 'early.json')
    const typo = await verifyCli(['--key-env', 'TMAPS_KEY', '--repot', 'x', '--report', early])
    expect(typo.code).toBe(2)
    expect(JSON.parse(readFileSync(early, 'utf8')).couldNotRun).toMatch(/Unknown option '--repot'/)
    const keyless = await verifyCli(['--key-env', 'NOT_SET_ANYWHERE', '--junit', join(dir, 'keyless.xml')], {
      NOT_SET_ANYWHERE: '',
    })
    expect(keyless.code).toBe(2)
    expect(readFileSync(join(dir, 'keyless.xml'), 'utf8')).toMatch(/<error message="[^"]*NOT_SET_ANYWHERE/)

    standIn.drift('slow')
    // The bad night's reports: both written, saying why, the probes sent before it gave up included.
    const caFile = join(dir, 'stand-in-ca.pem')
    writeFileSync(caFile, standIn.ca)
    const [report, junit] = [join(dir, 'timed-out.json'), join(dir, 'timed-out.xml')]
    const slow = await verifyCli([
      ...['--key-env', 'TMAPS_KEY', '--api', standIn.url, '--tiles', standIn.url, '--ca', caFile],
      ...['--only', 'geocoding/reverse', '--timeout', '200', '--report', report, '--junit', junit],
    ])
    expect(slow.code).toBe(2)
    const written = JSON.parse(readFileSync(report, 'utf8'))
    expect(written.couldNotRun).toMatch(/^every probe timed out after 200 ms: TMaps at https:/)
    expect(written.probes.length).toBeGreaterThan(0)
    expect(written.probes[0].findings[0].message).toMatch(/TMaps gave no answer/)
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toMatch(/<testsuite [^>]*errors="1"/)
    expect(xml).toMatch(
      /<testcase classname="tmaps-mock verify" name="verify could run">\s*<error message="every probe timed out/,
    )
    await expect(verifyHere({ only: ['geocoding/reverse'], timeoutMs: 200 })).rejects.toThrow(
      'every probe timed out after 200 ms: TMaps at ' +
        standIn.url +
        ' does not answer. Check the network, or give more time with --timeout.',
    )
    standIn.drift('reset')
    await expect(verifyHere({ only: ['geocoding/reverse'] })).rejects.toThrow(/no probe got an answer/)
    standIn.drift('none')
    for (const text of [noKey.stderr, tls.stderr, unreachable.stderr]) expect(text).not.toContain(REAL_KEY)
  })

  it('gates CI as the team chooses: --fail-on warning fails on a new field, --slow finds a slow answer', async () => {
    standIn.drift('extra-field')
    const args = ['--key-env', 'TMAPS_KEY', '--api', standIn.url, '--tiles', standIn.url]
    const caFile = join(dir, 'gate-ca.pem')
    writeFileSync(caFile, standIn.ca)
    const common = [
      ...args,
      '--ca',
      caFile,
      '--only',
      'geocoding/forward',
      '--origin',
      APP_ORIGIN,
      '--rate',
      '50',
    ]
    const lenient = await verifyCli(common)
    expect(lenient.code).toBe(0) // a warning alone passes by default
    const junit = join(dir, 'gate.xml')
    const strict = await verifyCli([...common, '--fail-on', 'warning', '--junit', junit])
    standIn.drift('none')
    expect(strict.code).toBe(1)
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toMatch(/<failure message="[^"]*the spec and the mock lack it/)
    expect(xml).toMatch(/<testsuite [^>]*failures="1"[^>]*time="\d+\.\d{3}"/)
    expect(xml).toMatch(/<testcase [^>]*time="\d+\.\d{3}"/)
    expect((await verifyCli([...common, '--fail-on', 'info'])).stderr).toMatch(
      /--fail-on takes error or warning/,
    )

    // A stand-in that takes 600 ms an answer, against a threshold of 300 ms.
    const sluggish = await startStandIn({ drift: 'slow', slowMs: 600 })
    const slow = await runVerify({
      ...{ key: REAL_KEY, api: sluggish.url, tiles: sluggish.url, ca: sluggish.ca, rate: 50, sleep: instant },
      ...{ only: ['geocoding/reverse'], slowMs: 300 },
    }).finally(() => sluggish.close())
    const [probe] = slow.probes
    expect(probe?.real.ms).toBeGreaterThanOrEqual(590)
    expect(probe?.findings).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        path: 'time',
        message: expect.stringMatching(/over the 300 ms set with --slow/),
      }),
    )
    const caseTime = Number(toJunit(slow).match(/<testcase [^>]*time="(\d+\.\d{3})"/)?.[1])
    expect(caseTime).toBeGreaterThanOrEqual(0.59)
  })

  it('JUnit: one failing testcase per probe with an error', async () => {
    standIn.drift('server-error')
    const report = await verifyHere({ only: ['geocoding/forward'] })
    standIn.drift('none')
    const xml = toJunit(report)
    expect(xml.match(/<testcase /g)).toHaveLength(report.probes.length)
    expect(xml.match(/<failure /g)).toHaveLength(
      report.probes.filter((p) => p.findings.some((f) => f.severity === 'error')).length,
    )
  })
})

/** An HTTPS request to the local server: status, headers, body bytes. */
function call(
  server: TmapsHttpsServer,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: Buffer
  }>((done, fail) => {
    const outgoing = request(
      `${server.url}${path}`,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        ca: server.ca,
        agent: new Agent({ ca: server.ca }),
      },
      (res) => {
        const chunks: Buffer[] = []
        res
          .on('data', (c) => chunks.push(c))
          .on('end', () =>
            done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          )
      },
    )
    outgoing.on('error', fail).end(init.body)
  })
}

describe('serve --upstream: a checking proxy', () => {
  let server: TmapsHttpsServer
  let local: { web: string; off: string }
  const record = join(dir, 'proxy.har')
  beforeAll(async () => {
    server = await startTmapsHttpsServer({
      port: 0,
      state: 'empty',
      certDir: join(dir, 'certs'),
      upstream: {
        api: standIn.url,
        tiles: standIn.url,
        key: REAL_KEY,
        ca: standIn.ca,
        timeoutMs: 1500,
        record,
      },
    })
    const web = await server.mock.console.createKey({ name: 'Local web', domains: ['app.example.tn'] })
    const off = await server.mock.console.createKey({ name: 'Local off', domains: ['app.example.tn'] })
    await server.mock.console.disableKey(off)
    local = { web: web.value, off: off.value }
  })
  afterAll(() => server?.close())

  it("forwards what the local contract accepts with the real key and the app's Origin, and gives TMaps's bytes back, logged upstream", async () => {
    standIn.drift('none')
    const before = standIn.seen.length
    const answer = await call(server, `/geocoding/forward?q=Sfax&limit=1&api_key=${local.web}`, {
      headers: { Origin: APP_ORIGIN },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers['access-control-allow-origin']).toBe(APP_ORIGIN)
    const [upstream] = standIn.seen.slice(before)
    expect(upstream?.path).toBe(`/geocoding/forward?q=Sfax&limit=1&api_key=${REAL_KEY}`)
    expect(upstream?.headers.origin).toBe(APP_ORIGIN)
    expect(JSON.parse(answer.body.toString()).query).toBe('Sfax')
    expect(server.mock.log.entries()[0]).toMatchObject({ status: 200, source: 'upstream' })
    const tile = await call(server, `/r-tile/6/33/25?api_key=${local.web}`)
    expect(tile.headers['content-type']).toBe('image/png')
    expect(tile.body.subarray(1, 4).toString()).toBe('PNG')
  })

  it('keeps the local contract first: a disabled local key gets 401 and a foreign Origin 403, and TMaps is never asked', async () => {
    const before = standIn.seen.length
    expect((await call(server, `/geocoding/forward?q=Sfax&api_key=${local.off}`)).status).toBe(401)
    const foreign = await call(server, `/geocoding/forward?q=Sfax&api_key=${local.web}`, {
      headers: { Origin: 'https://evil.example' },
    })
    expect(foreign.status).toBe(403)
    expect(foreign.body.toString()).toBe('{"error":"domain not authorized"}')
    expect(standIn.seen.length).toBe(before)
  })

  it("gives TMaps's own 429 and 500 back as they are; unreachable is 502, too slow 504, a reset 502; never a raw key in the log", async () => {
    standIn.drift('rate-limited')
    const limited = await call(server, `/geocoding/reverse?lat=36.8&lng=10.18&api_key=${local.web}`)
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBe('1')
    standIn.drift('server-error')
    expect((await call(server, `/geocoding/forward?q=Gabes&api_key=${local.web}`)).status).toBe(500)
    standIn.drift('slow')
    const slow = await call(server, `/geocoding/forward?q=Gafsa&api_key=${local.web}`)
    expect([slow.status, slow.body.toString()]).toEqual([504, '{"error":"upstream timeout"}'])
    standIn.drift('reset')
    const reset = await call(server, `/geocoding/forward?q=Kef&api_key=${local.web}`)
    expect([reset.status, reset.body.toString()]).toEqual([502, '{"error":"upstream unreachable"}'])
    standIn.drift('none')
    const reasons = server.mock.log.entries().map((e) => e.reason)
    expect(reasons.join('\n')).toMatch(/could not be reached/)
    expect(JSON.stringify(server.mock.log.entries())).not.toMatch(RAW_KEY)
  })

  it('records every exchange as HAR 1.2, 0600, PNGs in base64, and no key in any spelling: URL, Referer (its path only), POST body, percent-encoded', async () => {
    const referer = `${APP_ORIGIN}/map?api_key=${local.web}&real=${encodeURIComponent(REAL_KEY).replace('_', '%5F')}`
    await call(server, `/geocoding/nearby?lat=36.8&lng=10.18&api_key=${local.web}`, {
      headers: { Referer: referer },
    })
    await call(server, `/distance-matrix?api_key=${local.web}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: APP_ORIGIN },
      body: JSON.stringify({
        origins: [{ lat: 36.8, lng: 10.18 }],
        destinations: [{ lat: 36.85, lng: 10.2 }],
        note: REAL_KEY,
        local: encodeURIComponent(local.web).replace('_', '%5F'),
      }),
    })
    const text = readFileSync(record, 'utf8')
    expect(statSync(record).mode & 0o777).toBe(0o600)
    const har = JSON.parse(text) as TmapsHar
    expect(har.log.version).toBe('1.2')
    expect(server.recorded?.()).toBe(har.log.entries.length)
    for (const secret of [REAL_KEY, local.web, encodeURIComponent(REAL_KEY), 'c0ffee42c0ffee42'])
      expect(text).not.toContain(secret)
    expect(holdsRawKey(text)).toBe(false)
    const nearby = har.log.entries.find((e) => e.request.url.includes('/geocoding/nearby'))!
    expect(nearby.request.url).toMatch(/api_key=\{\{api_key\}\}$/)
    // The page's path only: its query (here its keys; elsewhere a session's tokens) is not kept.
    expect(nearby.request.headers).toContainEqual({ name: 'referer', value: `${APP_ORIGIN}/map` })
    expect(nearby._tmaps).toMatchObject({ keyName: 'Local web', mockVersion: expect.any(String) })
    const matrix = har.log.entries.find((e) => e.request.url.includes('/distance-matrix'))!
    expect(JSON.parse(matrix.request.postData!.text)).toMatchObject({
      note: '{{api_key}}',
      local: '{{api_key}}',
    })
    const tile = har.log.entries.find((e) => e.request.url.includes('/r-tile/'))!
    expect(tile.response.content).toMatchObject({ mimeType: 'image/png', encoding: 'base64' })
    expect(Buffer.from(tile.response.content.text!, 'base64').subarray(1, 4).toString()).toBe('PNG')
    // Refusals of the local contract never reach TMaps, so they are never recorded.
    expect(har.log.entries.every((e) => e.response.status !== 401 && e.response.status !== 403)).toBe(true)
  })
})

describe('serve --upstream --record: a recording that notices', () => {
  let server: TmapsHttpsServer
  let local = ''
  const record = join(dir, 'noticing.har')
  beforeAll(async () => {
    server = await startTmapsHttpsServer({
      port: 0,
      state: 'empty',
      certDir: join(dir, 'certs'),
      upstream: { api: standIn.url, tiles: standIn.url, key: REAL_KEY, ca: standIn.ca, record },
    })
    local = (await server.mock.console.createKey({ name: 'Local web', domains: ['app.example.tn'] })).value
  })
  afterAll(() => server?.close())

  it('records an HTML page answered 200 and a lat sent as a string, with a word: the log, the entry, its upstream', async () => {
    const said: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    process.stderr.write = ((chunk: string | Uint8Array) => {
      said.push(String(chunk))
      return true
    }) as typeof process.stderr.write
    try {
      standIn.drift('maintenance')
      const page = await call(server, `/geocoding/forward?q=Sfax&api_key=${local}`, {
        headers: { Origin: APP_ORIGIN },
      })
      standIn.drift('none')
      expect(page.status).toBe(200) // TMaps's answer, given back as it is
      await call(server, `/routing/isochrone?api_key=${local}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: APP_ORIGIN },
        body: JSON.stringify({ origin: { lat: '36.8', lng: 10.18 }, contours: [{ time: 10 }] }),
      })
      const fine = await call(server, `/geocoding/reverse?lat=36.8&lng=10.18&api_key=${local}`, {
        headers: { Origin: APP_ORIGIN },
      })
      expect(fine.status).toBe(200)
    } finally {
      standIn.drift('none')
      process.stderr.write = write
    }
    const har = JSON.parse(readFileSync(record, 'utf8')) as TmapsHar
    const [forward, isochrone, reverse] = har.log.entries
    expect(forward?._tmaps?.upstream).toBe(standIn.url) // the stand-in, not https://api.tmaps.tn
    expect(forward?.request.url).toMatch(/^https:\/\/api\.tmaps\.tn\/geocoding\/forward\?/)
    expect(forward?._tmaps?.findings).toContainEqual({
      severity: 'error',
      path: 'body',
      message: "TMaps's answer is not JSON though the spec says application/json.",
    })
    expect(forward?.comment).toMatch(/^tmaps-mock: not as the spec says: body: TMaps's answer is not JSON/)
    expect(isochrone?._tmaps?.findings).toContainEqual(
      expect.objectContaining({ path: 'body.origin.lat', message: expect.stringMatching(/must be number/) }),
    )
    expect(reverse?._tmaps?.findings).toBeUndefined()
    expect(reverse?.comment).toBeUndefined()
    // The log: serve's own lines, and the request log's reason (the playground's details).
    expect(said.join('')).toMatch(
      /recorded GET \/geocoding\/forward \(200\), not as the spec says: body: TMaps's answer is not JSON/,
    )
    expect(said.join('')).toMatch(
      /recorded POST \/routing\/isochrone \(\d+\), not as the spec says: body\.origin\.lat/,
    )
    const reasons = server.mock.log.entries().map((e) => e.reason)
    expect(
      reasons.find((r) => r.includes('/geocoding') && r.includes('not JSON')) ?? reasons.join('\n'),
    ).toMatch(/Recorded, not as the spec says: body: TMaps's answer is not JSON/)
    expect(said.join('')).not.toContain(REAL_KEY)
    expect(said.join('')).not.toContain(local)
  })
})

it('serve --replay FILE --replay-missing error: the recorded bytes over HTTPS, a 500 naming what is not recorded, lines marked replay', async () => {
  const har = join(dir, 'proxy.har')
  const nearby = (JSON.parse(readFileSync(har, 'utf8')) as TmapsHar).log.entries.find((e) =>
    e.request.url.includes('/geocoding/nearby'),
  )!
  const child = spawn(
    node,
    [cli, 'serve', '--port', '0', '--seed', 'replay', '--replay', har, '--replay-missing', 'error'],
    {
      env: { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') },
      cwd: root,
    },
  )
  let out = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (out += chunk))
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('Ctrl-C to stop') && resolve())
      child.on('exit', () => reject(new Error(out)))
    })
    expect(out).toContain(`replaying ${har}: accepted requests get the recorded answers`)
    const url = out.match(/serving the TMaps API at (https:\/\/localhost:\d+)/)![1]!
    const ca = readFileSync(out.match(/curl: --cacert (\S+)/)![1]!, 'utf8')
    const key = out.match(/Web app \(local dev\)\s+enabled\s+(ak_[0-9a-f]{32})/)![1]!
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((done, fail) =>
        request(`${url}${path}&api_key=${key}`, { ca }, (res) => {
          let body = ''
          res.on('data', (c) => (body += c)).on('end', () => done({ status: res.statusCode!, body }))
        })
          .on('error', fail)
          .end(),
      )
    expect(await get('/geocoding/nearby?lat=36.8&lng=10.18')).toEqual({
      status: nearby.response.status,
      body: nearby.response.content.text,
    })
    expect(await get('/geocoding/reverse?lat=33.5&lng=10.1')).toEqual({
      status: 500,
      body: `{"error":"not recorded: GET /geocoding/reverse (in ${har})"}`,
    })
    await expect
      .poll(() => out)
      .toMatch(/GET \/geocoding\/nearby\?lat=36\.8&lng=10\.18&api_key=ak_\w{4}… \d+ replay/)
    await expect.poll(() => out).toMatch(/GET \/geocoding\/reverse\S* 500 replay-miss/)
  } finally {
    child.kill('SIGKILL')
  }
})

it('serve --upstream to a TMaps that is not there, or whose certificate is not trusted: 502 upstream unreachable, the cause in the log', async () => {
  const deadPort = await freePort()
  for (const [api, ca, cause] of [
    [`https://127.0.0.1:${deadPort}`, standIn.ca, /ECONNREFUSED/],
    [standIn.url, undefined, /certificate/],
  ] as const) {
    const server = await startTmapsHttpsServer({
      port: 0,
      state: 'empty',
      keys: [{ value: `ak_${'d0'.repeat(16)}` }],
      certDir: join(dir, 'certs'),
      upstream: { api, tiles: api, key: REAL_KEY, ...(ca && { ca }) },
    })
    try {
      const answer = await call(server, `/geocoding/forward?q=Sfax&api_key=ak_${'d0'.repeat(16)}`)
      expect([answer.status, answer.body.toString()]).toEqual([502, '{"error":"upstream unreachable"}'])
      const [entry] = server.mock.log.entries()
      expect(entry).toMatchObject({ source: 'upstream', status: 502, reason: expect.stringMatching(cause) })
      expect(JSON.stringify(entry)).not.toContain(REAL_KEY)
    } finally {
      await server.close()
    }
  }
})

describe('keys in a recording', () => {
  const key = `ak_${'0123456789abcdef'.repeat(2)}`
  it.each([
    ['plain', key],
    ['upper case', key.toUpperCase()],
    ['underscore encoded', key.replace('_', '%5F')],
    ['every character encoded', [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['encoded twice', key.replace('_', '%255F')],
  ])('%s is replaced by {{api_key}} and seen by the guard', (_, form) => {
    const text = `https://x.tn/?api_key=${form}&q=1`
    expect(holdsRawKey(text)).toBe(true)
    expect(scrubKeys(text, [])).toBe('https://x.tn/?api_key={{api_key}}&q=1')
    expect(holdsRawKey(scrubKeys(text, []))).toBe(false)
  })
  it('a real key of another shape is replaced when named', () => {
    expect(scrubKeys('k=Secret-Real-Key-123&x=Secret-Real-Key-123', ['Secret-Real-Key-123'])).toBe(
      'k={{api_key}}&x={{api_key}}',
    )
  })
})

it('serve --upstream refuses plain HTTP upstreams, an empty key and --record without --upstream, before listening', async () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    new Promise<{ code: number; stderr: string }>((done) =>
      execFile(
        node,
        [cli, 'serve', '--port', '0', ...args],
        { env: { ...process.env, ...env }, cwd: root, timeout: 30_000 },
        (error, _out, stderr) => done({ code: error ? Number(error.code) : 0, stderr }),
      ),
    )
  expect(await run(['--record', join(dir, 'x.har')])).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/give --upstream too/),
  })
  expect(await run(['--upstream', 'https://api.tmaps.tn'])).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/say where the real key is/),
  })
  expect(
    await run(['--upstream', 'http://api.tmaps.tn', '--upstream-key-env', 'K'], { K: REAL_KEY }),
  ).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/must be https:\/\//),
  })
  writeFileSync(join(dir, 'empty.key'), '\n')
  expect(
    await run(['--upstream', 'https://api.tmaps.tn', '--upstream-key-file', join(dir, 'empty.key')]),
  ).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/key file .* is empty/),
  })
})
