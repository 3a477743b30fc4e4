import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type RequestLine,
  startTmapsHttpsServer,
  type TmapsHttpsServer,
} from '../../src/runtimes/server/https-server.ts'
import { launchChromium } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'

/**
 * The control API (`/__console/`) in real Chromium: a website the developer visits must not read
 * the mock's state (its keys' full values) or change it, by `fetch` or by a "simple" cross-site
 * POST (no preflight) or a form, while the same page keeps calling the TMaps API with a key linked
 * to its host. An origin listed in `consoleOrigins` may drive it (CORS, JSON writes); curl on this
 * machine may too, and is refused a non-JSON write, a foreign `Origin` and a foreign `Host`.
 */
const PAGE = 'https://app.example'
/** A site whose name the browser resolves to 127.0.0.1 (DNS rebinding). */
const REBOUND = 'rebind.example'
const KEY_VALUE = /ak_[0-9a-f]{32}/

let browser: Browser
let certDir = ''
/** No `consoleOrigins`: no page may drive the control API. */
let locked: TmapsHttpsServer
/** The same mock, with `consoleOrigins: [PAGE]`. */
let allowing: TmapsHttpsServer
const seen: Record<'locked' | 'allowing', RequestLine[]> = { locked: [], allowing: [] }
const keys = { linked: '', unlinked: '' }

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'tmaps-control-'))
  // A page on a public origin calling a server on loopback is a "local network access": allowed
  // here, as a developer does once when the browser asks (as in contract.chromium.e2e.test.ts).
  const lna =
    '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests'
  const launched = launchChromium([lna, `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`])
  locked = await startTmapsHttpsServer({
    port: 0,
    certDir,
    state: 'demo',
    seed: 'control',
    onRequest: (line) => seen.locked.push(line),
  })
  allowing = await startTmapsHttpsServer({
    mock: locked.mock,
    port: 0,
    certDir,
    consoleOrigins: [PAGE],
    onRequest: (line) => seen.allowing.push(line),
  })
  keys.linked = (await locked.mock.console.createKey({ name: 'App', domains: ['app.example'] })).value
  keys.unlinked = (await locked.mock.console.createKey({ name: 'Other', domains: ['other.example'] })).value
  browser = await launched
}, 60_000)
afterAll(() =>
  cleanUp({
    'close the browser': () => browser?.close(),
    'stop the allowing server': () => allowing?.close(),
    'stop the locked server': () => locked?.close(),
    'remove the certificates': () => rmSync(certDir, { recursive: true, force: true }),
  }),
)
beforeEach(() => {
  seen.locked.length = 0
  seen.allowing.length = 0
})

/** The console's keys, as Node sees them (by id: the state under test). */
const keyIds = () => locked.mock.console.listKeys().map((k) => k.id)
/** What the server answered on a control path, as `METHOD /path STATUS`. */
const answered = (lines: RequestLine[]) =>
  lines.filter((l) => l.path.startsWith('/__console')).map((l) => `${l.method} ${l.path} ${l.status}`)

/** A page of a fresh context served at `origin` (Playwright answers the document, `html` in its body). */
async function pageAt(
  origin: string,
  html = '',
  headers: Record<string, string> = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true })
  await context.route(`${origin}/`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers,
      body: `<!doctype html><title>page</title>${html}`,
    }),
  )
  const page = await context.newPage()
  await page.goto(`${origin}/`)
  // While any route is set, Playwright answers every CORS preflight itself (204, allow all): drop
  // the route so that the preflights, like every other request, reach the server under test.
  await context.unrouteAll()
  return { context, page }
}

interface Fetched {
  status?: number
  type?: string
  body?: string
  error?: string
}

/** The part of `RequestInit` these pages send (serializable into the page). */
interface Init {
  method?: string
  headers?: Record<string, string>
  body?: string
  mode?: RequestMode
}

/** `fetch` in the page; what the page could read of the answer, or the error it got. */
function pageFetch(page: Page, url: string, init: Init = {}): Promise<Fetched> {
  return page.evaluate(
    async ([u, i]) => {
      try {
        const response = await fetch(u, i)
        return { status: response.status, type: response.type, body: await response.text() }
      } catch (error) {
        return { error: `${(error as Error).name}: ${(error as Error).message}` }
      }
    },
    [url, init] as const,
  )
}

describe('a page on another origin, console origins not allowed', () => {
  it('cannot read the snapshot with fetch: CORS error, and no key value reaches the page', async () => {
    const { context, page } = await pageAt(PAGE)
    const cors = await pageFetch(page, `${locked.url}/__console/snapshot`)
    const opaque = await pageFetch(page, `${locked.url}/__console/snapshot`, { mode: 'no-cors' })
    expect(cors).toEqual({ error: 'TypeError: Failed to fetch' })
    expect(opaque).toEqual({ status: 0, type: 'opaque', body: '' })
    expect(JSON.stringify([cors, opaque])).not.toMatch(KEY_VALUE)
    // The CORS request reached the server with the page's Origin and was refused there.
    expect(answered(seen.locked)[0]).toBe('GET /__console/snapshot 403')
    await context.close()
  })

  it('cannot create a key with a simple text/plain POST: it reaches the server unpreflighted and is refused 403', async () => {
    const before = keyIds()
    const { context, page } = await pageAt(PAGE)
    const body = JSON.stringify({ name: 'CSRF', domains: ['app.example'] })
    const init = { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body }
    const cors = await pageFetch(page, `${locked.url}/__console/keys`, init)
    const opaque = await pageFetch(page, `${locked.url}/__console/keys`, { ...init, mode: 'no-cors' })
    expect(cors).toEqual({ error: 'TypeError: Failed to fetch' })
    expect(opaque).toEqual({ status: 0, type: 'opaque', body: '' })
    expect(answered(seen.locked)).toEqual(['POST /__console/keys 403', 'POST /__console/keys 403'])
    expect(keyIds()).toEqual(before)
    await context.close()
  })

  it('cannot create a key with a JSON POST: its preflight is refused 403 and the POST is never sent', async () => {
    const before = keyIds()
    const { context, page } = await pageAt(PAGE)
    const got = await pageFetch(page, `${locked.url}/__console/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Preflighted' }),
    })
    expect(got).toEqual({ error: 'TypeError: Failed to fetch' })
    expect(answered(seen.locked)).toEqual(['OPTIONS /__console/keys 403'])
    expect(keyIds()).toEqual(before)
    await context.close()
  })

  it('cannot create a key by submitting a text/plain form, with its Origin or with Origin: null', async () => {
    const before = keyIds()
    // enctype=text/plain writes `name=value`: this form sends {"name":"CSRF form","x":"="}, valid JSON.
    const form = `<form method="post" enctype="text/plain" action="${locked.url}/__console/keys">
      <input type="hidden" name='{"name":"CSRF form","x":"' value='"}'></form>`
    for (const headers of [{}, { 'Referrer-Policy': 'no-referrer' }] as Record<string, string>[]) {
      const { context, page } = await pageAt(PAGE, form, headers)
      const [response] = await Promise.all([
        page.waitForResponse(`${locked.url}/__console/keys`),
        page.evaluate(() => document.forms[0]!.submit()),
      ])
      const sent = await response.request().allHeaders()
      expect(sent['content-type']).toBe('text/plain')
      expect(sent.origin).toBe('Referrer-Policy' in headers ? 'null' : PAGE)
      expect(response.request().postData()).toBe('{"name":"CSRF form","x":"="}\r\n')
      expect(response.status()).toBe(403)
      expect((await response.json()).error).toContain('does not answer pages of')
      await context.close()
    }
    expect(answered(seen.locked)).toEqual(['POST /__console/keys 403', 'POST /__console/keys 403'])
    expect(keyIds()).toEqual(before)
  })

  it('cannot reach it through DNS rebinding: a same-origin page on a foreign Host is refused 403', async () => {
    const before = keyIds()
    const port = new URL(locked.url).port
    const { context, page } = await pageAt(`https://${REBOUND}:${port}`)
    const read = await pageFetch(page, '/__console/snapshot')
    const write = await pageFetch(page, '/__console/keys', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rebound' }),
    })
    expect(read.status).toBe(403)
    expect(JSON.parse(read.body!).error).toContain(`Host "${REBOUND}:${port}" is not localhost`)
    expect(read.body).not.toMatch(KEY_VALUE)
    expect(write.status).toBe(403)
    expect(keyIds()).toEqual(before)
    await context.close()
  })

  it('still reads the TMaps API with a key linked to its host (200, also preflighted), and a 403 for a key not linked', async () => {
    const { context, page } = await pageAt(PAGE)
    const linked = await pageFetch(
      page,
      `${locked.url}/geocoding/forward?q=Sfax&limit=1&api_key=${keys.linked}`,
    )
    const unlinked = await pageFetch(page, `${locked.url}/geocoding/forward?q=Sfax&api_key=${keys.unlinked}`)
    expect(linked).toMatchObject({ status: 200, type: 'cors' })
    expect(JSON.stringify(JSON.parse(linked.body!))).toContain('Sfax')
    expect(unlinked).toEqual({
      status: 403,
      type: 'cors',
      body: JSON.stringify({ error: 'domain not authorized' }),
    })
    const matrix = await pageFetch(page, `${locked.url}/distance-matrix?api_key=${keys.linked}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        origins: [{ lat: 36.8, lng: 10.18 }],
        destinations: [{ lat: 35.8, lng: 10.6 }],
      }),
    })
    expect(matrix).toMatchObject({ status: 200, type: 'cors' })
    expect(JSON.parse(matrix.body!).distances[0][0]).toBeGreaterThan(100_000)
    expect(seen.locked.map((l) => `${l.method} ${l.path.replace(/\?.*/, '')} ${l.status}`)).toEqual([
      'GET /geocoding/forward 200',
      'GET /geocoding/forward 403',
      'OPTIONS /distance-matrix 204',
      'POST /distance-matrix 200',
    ])
    await context.close()
  })
})

describe('a script on the server’s own origin (issue #45: a replayed page, any path there)', () => {
  it('cannot read the snapshot nor create a key: only the console page, with its token, may', async () => {
    const before = keyIds()
    // A document of the server's own origin that is not the console page, as a hostile HAR made one.
    const { context, page } = await pageAt(locked.url)
    const read = await pageFetch(page, '/__console/snapshot')
    const write = await pageFetch(page, '/__console/keys', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'From a script' }),
    })
    const routes = await pageFetch(page, '/__console/', { headers: { Accept: 'text/html' } })
    expect(read.status).toBe(403)
    expect(JSON.parse(read.body!).error).toContain('only from the console page')
    expect(write.status).toBe(403)
    expect(routes.status).toBe(403)
    expect(JSON.stringify([read, write, routes])).not.toMatch(KEY_VALUE)
    expect(answered(seen.locked)).toEqual([
      'GET /__console/snapshot 403',
      'POST /__console/keys 403',
      'GET /__console/ 403',
    ])
    expect(keyIds()).toEqual(before)
    await context.close()
  })

  it('cannot read the page token out of the console page, in a window it opens or a frame', async () => {
    const { context, page } = await pageAt(locked.url)
    const opened = await page.evaluate(async () => {
      const tab = window.open('/__console/')
      await new Promise((resolve) => setTimeout(resolve, 1500))
      try {
        const meta = tab?.document.querySelector('meta[name="tmaps-console-page"]')
        return `read: ${meta?.getAttribute('content')}`
      } catch (error) {
        return `refused: ${(error as Error).name}`
      }
    })
    const framed = await page.evaluate(async () => {
      const frame = document.createElement('iframe')
      frame.src = '/__console/'
      document.body.append(frame)
      await new Promise((resolve) => frame.addEventListener('load', resolve))
      try {
        return `read: ${frame.contentDocument?.documentElement.outerHTML ?? 'nothing'}`
      } catch (error) {
        return `refused: ${(error as Error).name}`
      }
    })
    // Cut off by the page's Cross-Origin-Opener-Policy (without it, the script read the token).
    expect(opened).toMatch(/^refused: |^read: undefined$/)
    expect(framed).not.toContain('tmaps-console-page')
    // The page opened in the window (200) runs, with its own token; the frame got none (403).
    expect(answered(seen.locked).filter((line) => line.startsWith('GET /__console/ '))).toEqual([
      'GET /__console/ 200',
      'GET /__console/ 403',
    ])
    await context.close()
  })
})

describe('a page on an origin listed in consoleOrigins', () => {
  it('reads the snapshot, with the full state', async () => {
    const { context, page } = await pageAt(PAGE)
    // Usage counts move with every request, and a request of an earlier test (a page closing) may
    // still land: the served usage is the one before the read or the one after it.
    const json = () => JSON.parse(JSON.stringify(locked.mock.snapshot()))
    const before = json()
    const got = await pageFetch(page, `${allowing.url}/__console/snapshot`)
    const after = json()
    expect(got).toMatchObject({ status: 200, type: 'cors' })
    const { usage, ...state } = JSON.parse(got.body!)
    const { usage: usageAfter, ...stateAfter } = after
    expect(state).toEqual(stateAfter)
    expect(state.keys.map((k: { value: string }) => k.value)).toContain(keys.linked)
    expect([before.usage, usageAfter]).toContainEqual(usage)
    await context.close()
  })

  it('creates a key with a preflighted JSON POST', async () => {
    const before = keyIds()
    const { context, page } = await pageAt(PAGE)
    const got = await pageFetch(page, `${allowing.url}/__console/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'From the allowed page', domains: ['app.example'] }),
    })
    expect(got.status).toBe(201)
    const created = JSON.parse(got.body!)
    expect(created).toMatchObject({ name: 'From the allowed page', domains: ['app.example'] })
    expect(created.value).toMatch(KEY_VALUE)
    expect(answered(seen.allowing)).toEqual(['OPTIONS /__console/keys 204', 'POST /__console/keys 201'])
    expect(keyIds()).toEqual([...before, created.id])
    await context.close()
  })

  it('still cannot create a key with a text/plain POST: it reads the 415', async () => {
    const before = keyIds()
    const { context, page } = await pageAt(PAGE)
    const got = await pageFetch(page, `${allowing.url}/__console/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ name: 'Plain' }),
    })
    expect(got.status).toBe(415)
    expect(JSON.parse(got.body!).error).toContain('must send JSON')
    expect(answered(seen.allowing)).toEqual(['POST /__console/keys 415'])
    expect(keyIds()).toEqual(before)
    await context.close()
  })
})

describe('curl on this machine', () => {
  const run = promisify(execFile)
  const curl = async (...args: string[]) => {
    const { stdout } = await run('curl', ['-s', '--cacert', locked.caPath!, '-w', '\n%{http_code}', ...args])
    const lines = stdout.split('\n')
    return { status: Number(lines.pop()), body: JSON.parse(lines.join('\n') || 'null') }
  }
  const json = ['-H', 'Content-Type: application/json']

  it('reads the snapshot and creates a key with a JSON POST', async () => {
    const before = keyIds()
    const snapshot = await curl(`${locked.url}/__console/snapshot`)
    expect(snapshot).toEqual({ status: 200, body: JSON.parse(JSON.stringify(locked.mock.snapshot())) })
    const created = await curl(...json, '-d', '{"name":"From curl"}', `${locked.url}/__console/keys`)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'From curl', value: expect.stringMatching(KEY_VALUE) })
    expect(keyIds()).toEqual([...before, created.body.id])
  })

  it('is refused a text/plain write (415), a foreign Origin (403) and a foreign Host (403)', async () => {
    const before = keyIds()
    const body = ['-d', '{"name":"Refused"}']
    const port = new URL(locked.url).port
    expect(
      await curl('-H', 'Content-Type: text/plain', ...body, `${locked.url}/__console/keys`),
    ).toMatchObject({ status: 415, body: { error: expect.stringContaining('got "text/plain"') } })
    expect(await curl('-H', 'Origin: https://evil.example', `${locked.url}/__console/keys`)).toMatchObject({
      status: 403,
      body: { error: expect.stringContaining('does not answer pages of https://evil.example') },
    })
    expect(
      await curl('-H', 'Origin: https://evil.example', ...json, ...body, `${locked.url}/__console/keys`),
    ).toMatchObject({ status: 403 })
    const foreignHost = await curl(
      '--resolve',
      `evil.example:${port}:127.0.0.1`,
      '-k',
      `https://evil.example:${port}/__console/keys`,
    )
    expect(foreignHost).toMatchObject({
      status: 403,
      body: { error: expect.stringContaining(`Host "evil.example:${port}" is not localhost`) },
    })
    expect(
      await curl(
        '--resolve',
        `evil.example:${port}:127.0.0.1`,
        '-k',
        ...json,
        ...body,
        `https://evil.example:${port}/__console/keys`,
      ),
    ).toMatchObject({ status: 403 })
    expect(keyIds()).toEqual(before)
  })
})

describe("the server's own page (issue #36: a browser opened on serve's root)", () => {
  it('redirects a browser at / to the console page: the playground, its token, its own policy, no key value', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true })
    const page = await context.newPage()
    const response = await page.goto(`${locked.url}/`)
    expect(page.url()).toBe(`${locked.url}/__console/`)
    const policy = response?.headers()['content-security-policy'] ?? ''
    expect(policy).toMatch(/script-src 'self' 'nonce-[^']+'/)
    expect(policy).toContain("frame-ancestors 'none'")
    const nonce = policy.match(/'nonce-([^']+)'/)![1]!
    const html = (await response?.text()) ?? ''
    expect(html).toContain('<title>tmaps-mock serve</title>')
    expect(html).toMatch(/<meta name="tmaps-console-page" content="[\w-]{32}">/)
    // Every inline script carries the nonce (the config, and the playground's early start).
    expect(html.match(/<script>/g)).toBeNull()
    expect(
      html.match(new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}">`, 'g'))?.length,
    ).toBeGreaterThan(0)
    expect(html).not.toMatch(KEY_VALUE)
    // Driving the page itself (as a person would): test/consumer/playground.test.ts, from the tarball.
    await context.close()
  })

  it('keeps TMaps’s answer for anything but a browser: curl at / gets the 401, JSON at /__console/ the routes', async () => {
    const run = promisify(execFile)
    const { stdout } = await run('curl', ['-s', '--cacert', locked.caPath!, `${locked.url}/`])
    expect(JSON.parse(stdout)).toEqual({ error: 'missing api_key' })
    const routes = await run('curl', ['-s', '--cacert', locked.caPath!, `${locked.url}/__console/`])
    expect(JSON.parse(routes.stdout).routes).toContain('GET /__console/keys')
  })

  it('is not shown to another site: a cross-site navigation to it is refused 403', async () => {
    const { context, page } = await pageAt(PAGE, `<a href="${locked.url}/__console/">console</a>`)
    const [answer] = await Promise.all([page.waitForNavigation(), page.locator('a').click()])
    expect(answer?.status()).toBe(403)
    expect(await page.locator('body').textContent()).toContain('does not answer requests from other sites')
    await context.close()
  })
})
