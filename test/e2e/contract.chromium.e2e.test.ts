import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getResponse } from 'msw'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTmapsMock, type TmapsMock } from '../../src/runtimes/msw/create-tmaps-mock.ts'
import { routeTmaps } from '../../src/runtimes/playwright/index.ts'
import { startTmapsHttpsServer, type TmapsHttpsServer } from '../../src/runtimes/server/https-server.ts'
import { launchChromium } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'

/**
 * The contract in real Chromium: a page on a given origin calls the API with `fetch`, so the
 * browser itself writes `Origin` and `Referer`. Through the Playwright adapter and against the
 * HTTPS server (real CORS, real preflights), each answer must equal what `getResponse` answers
 * for the headers that browser sent.
 */
let browser: Browser
let mock: TmapsMock
let server: TmapsHttpsServer
let certDir = ''
const keys: Record<'web' | 'server' | 'disabled', string> = { web: '', server: '', disabled: '' }

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'tmaps-chromium-'))
  mock = createTmapsMock({ state: 'empty', seed: 'chromium' })
  await mock.ready
  keys.web = (await mock.console.createKey({ name: 'Web', domains: ['localhost', 'app.mysite.tn'] })).value
  keys.server = (await mock.console.createKey({ name: 'Server' })).value
  keys.disabled = (await mock.console.createKey({ name: 'Disabled', domains: ['app.mysite.tn'] })).value
  await mock.console.disableKey(keys.disabled)
  // A page on a public origin calling a server on loopback is a "local network access": allowed
  // here, as a developer does once when the browser asks.
  const lna =
    '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests'
  ;[browser, server] = await Promise.all([
    launchChromium([lna]),
    startTmapsHttpsServer({ mock, port: 0, certDir }),
  ])
}, 120_000)
afterAll(() =>
  cleanUp({
    'close the browser': () => browser?.close(),
    'stop the server': () => server?.close(),
    'remove the certificates': () => rmSync(certDir, { recursive: true, force: true }),
  }),
)

interface Case {
  name: string
  page: string
  path: (k: typeof keys) => string
  post?: unknown
}
const CASES: Case[] = [
  {
    name: 'a linked origin',
    page: 'https://app.mysite.tn',
    path: (k) => `/geocoding/forward?q=Sfax&limit=2&api_key=${k.web}`,
  },
  {
    name: 'a foreign origin',
    page: 'https://evil.example',
    path: (k) => `/geocoding/forward?q=Sfax&api_key=${k.web}`,
  },
  {
    name: '127.0.0.1 when only localhost is linked',
    page: 'http://127.0.0.1:5173',
    path: (k) => `/geocoding/forward?q=Sfax&api_key=${k.web}`,
  },
  {
    name: 'localhost, linked',
    page: 'http://localhost:5173',
    path: (k) => `/geocoding/reverse?lat=36.8&lng=10.18&api_key=${k.web}`,
  },
  {
    name: 'a key with no domains, from a page',
    page: 'https://app.mysite.tn',
    path: (k) => `/geocoding/forward?q=Sfax&api_key=${k.server}`,
  },
  {
    name: 'a disabled key',
    page: 'https://app.mysite.tn',
    path: (k) => `/geocoding/forward?q=Sfax&api_key=${k.disabled}`,
  },
  { name: 'no key', page: 'https://app.mysite.tn', path: () => '/geocoding/forward?q=Sfax' },
  {
    name: 'an unknown path',
    page: 'https://app.mysite.tn',
    path: (k) => `/geocoding/unknown?api_key=${k.web}`,
  },
  {
    name: 'a missing parameter',
    page: 'https://app.mysite.tn',
    path: (k) => `/geocoding/nearby?lat=36.8&lng=10.18&api_key=${k.web}`,
  },
  {
    name: 'a JSON POST (preflighted)',
    page: 'https://app.mysite.tn',
    path: (k) => `/distance-matrix?api_key=${k.web}`,
    post: { origins: [{ lat: 36.8, lng: 10.18 }], destinations: [{ lat: 35.8, lng: 10.6 }] },
  },
]

/** Opens a blank page served at `origin` (Playwright answers the document) in a fresh context. */
async function pageAt(
  origin: string,
  adapter: boolean,
): Promise<{
  context: BrowserContext
  call: (url: string, post?: unknown) => Promise<{ status: number; body: string }>
}> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true })
  await context.route(`${origin}/`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>page</title>' }),
  )
  if (adapter) await routeTmaps(context, mock)
  const page = await context.newPage()
  await page.goto(`${origin}/`)
  // While any route is set, Playwright answers CORS preflights itself: against the real server,
  // drop the page's route once it has loaded, so the server's own preflight answers are tested.
  if (!adapter) await context.unrouteAll()
  return {
    context,
    call: (url, post) =>
      page.evaluate(
        async ([u, p]) => {
          const response = await fetch(
            u,
            p === undefined
              ? {}
              : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(p) },
          )
          return { status: response.status, body: await response.text() }
        },
        [url, post] as const,
      ),
  }
}

/** What the contract answers for the headers a browser on `origin` sends with a cross-origin fetch. */
async function expected(origin: string, path: string, post?: unknown) {
  const response = await getResponse(
    mock.handlers,
    new Request(`https://api.tmaps.tn${path}`, {
      headers: {
        Origin: origin,
        Referer: `${origin}/`,
        ...(post !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(post !== undefined && { method: 'POST', body: JSON.stringify(post) }),
    }),
  )
  return { status: response!.status, body: await response!.text() }
}

describe.each([
  { runtime: 'Chromium + the Playwright adapter', adapter: true },
  { runtime: 'Chromium + the HTTPS server (real CORS)', adapter: false },
])('the TMaps contract through $runtime', ({ adapter }) => {
  it.each(CASES)(
    '$name',
    async ({ page, path, post }) => {
      const { context, call } = await pageAt(page, adapter)
      const base = adapter ? 'https://api.tmaps.tn' : server.url
      const got = await call(`${base}${path(keys)}`, post)
      expect(got).toEqual(await expected(page, path(keys), post))
      await context.close()
    },
    30_000,
  )
})

describe('faults through the Playwright adapter', () => {
  it('a reset connection fails the page fetch as a network error, and the log says so', async () => {
    const { context, call } = await pageAt('https://app.mysite.tn', true)
    const rule = mock.faults.add({ endpoint: 'geocoding/forward', network: 'reset', times: 1 })
    try {
      const path = `/geocoding/forward?q=Sousse&api_key=${keys.web}`
      await expect(call(`https://api.tmaps.tn${path}`)).rejects.toThrow(/Failed to fetch/)
      expect(mock.log.entries()[0]).toMatchObject({
        status: 0,
        rule: 'fault-injected',
        fault: { network: 'reset' },
      })
      expect((await call(`https://api.tmaps.tn${path}`)).status).toBe(200) // used up: answered again
    } finally {
      mock.faults.remove(rule.id)
      await context.close()
    }
  }, 30_000)
})
