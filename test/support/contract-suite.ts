import { afterAll, afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { ENDPOINTS } from '../../src/endpoints/registry.ts'
import { createTmapsMock, type TmapsMock } from '../../src/runtimes/msw/create-tmaps-mock.ts'
import { createAnswerChecker } from './openapi.ts'
import { decodePng } from './png.ts'
import type { Runtime } from './runtimes.ts'

const API = 'https://api.tmaps.tn'
const TILES = 'https://tiles.tmaps.tn'

/**
 * The TMaps contract, as one suite any runtime runs: every case is named with its runtime.
 * Requests are written against the real hosts; a runtime delivers them its own way.
 */
export function describeContract(runtime: Runtime): void {
  describe(`the TMaps contract through ${runtime.name}`, () => {
    let mock: TmapsMock
    let web: string
    let server: string
    let disabled: string
    let revoked: string
    // Hono's check: on every rejection of the contract, no endpoint ran.
    let spies: MockInstance[] = []
    let endpointRuns = 0
    const calls = () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
    // Every answer of the suite, checked against the OpenAPI document (status, type, body, headers).
    const answers = createAnswerChecker()
    const send = async (url: string, init?: RequestInit) => {
      const before = calls()
      const response = await runtime.send(mock, url, init)
      endpointRuns = calls() - before
      const problems = await answers.check(url, init?.method ?? 'GET', response)
      expect(problems, `the answer to ${init?.method ?? 'GET'} ${url} breaks the OpenAPI document`).toEqual(
        [],
      )
      return response
    }
    afterAll(() => {
      console.log(
        `${runtime.name}: ${answers.total()} answers valid against openapi/tmaps.openapi.json, ${answers.failures.length} not (${answers.summary()})`,
      )
    })
    afterEach(() => {
      for (const spy of spies) spy.mockRestore()
    })
    const forward = (key: string, extra = '') =>
      `${API}/geocoding/forward?q=Tunis&limit=1&api_key=${key}${extra}`

    beforeEach(async () => {
      spies = ENDPOINTS.map((endpoint) =>
        vi.spyOn(endpoint as unknown as { handle: () => unknown }, 'handle'),
      )
      mock = createTmapsMock({ state: 'empty', seed: 'contract' })
      await mock.ready
      web = (await mock.console.createKey({ name: 'Web', domains: ['localhost', 'app.mysite.tn'] })).value
      server = (await mock.console.createKey({ name: 'Server' })).value
      disabled = (await mock.console.createKey({ name: 'Disabled', domains: ['localhost'] })).value
      await mock.console.disableKey(disabled)
      revoked = (await mock.console.createKey({ name: 'Revoked', domains: ['localhost'] })).value
      await mock.console.disableKey(revoked)
      await mock.console.revokeKey(revoked)
    })

    async function expectError(response: Response, status: number, error: string) {
      expect(response.status).toBe(status)
      if (status === 401 || status === 403)
        expect(endpointRuns, 'an endpoint ran for a rejected request').toBe(0)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(await response.json()).toEqual({ error })
    }

    it('answers 401 "missing api_key" when no key is sent', async () => {
      await expectError(await send(`${API}/geocoding/forward?q=Tunis`), 401, 'missing api_key')
    })

    it.each(['disabled', 'revoked'] as const)(
      'answers a %s key with 401 and the missing-key body',
      async (which) => {
        const key = which === 'disabled' ? disabled : revoked
        await expectError(await send(forward(key)), 401, 'missing api_key')
        expect(mock.log.entries()[0]?.rule).toBe(`key-${which}`)
      },
    )

    it('refuses an enabled key from a foreign Origin with 403', async () => {
      await expectError(
        await send(forward(web), { headers: { Origin: 'https://evil.tn' } }),
        403,
        'domain not authorized',
      )
    })

    it('accepts the same request without Origin and Referer (a server-side caller)', async () => {
      const response = await send(forward(web))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/json')
      const body = await response.json()
      expect(body.query).toBe('Tunis')
      expect(body.results[0].components.governorate).toBe('Tunis')
      expect(mock.log.entries()[0]?.rule).toBe('no-browser-headers')
    })

    it('accepts an Origin whose host is linked, whatever its scheme, port or case', async () => {
      for (const origin of [
        'http://localhost:5173',
        'https://APP.mysite.tn',
        'https://app.mysite.tn.:8443',
      ]) {
        const response = await send(forward(web), { headers: { Origin: origin } })
        expect(response.status, origin).toBe(200)
        expect(response.headers.get('access-control-allow-origin')).toBe(origin)
      }
    })

    it('falls back to the Referer when there is no Origin', async () => {
      expect(
        (await send(forward(web), { headers: { Referer: 'https://app.mysite.tn/page?x=1' } })).status,
      ).toBe(200)
      await expectError(
        await send(forward(web), { headers: { Referer: 'https://evil.tn/' } }),
        403,
        'domain not authorized',
      )
      expect(mock.log.entries()[0]?.facts.via).toBe('referer')
    })

    it('checks the Origin, not the Referer, when both are sent', async () => {
      const init = { headers: { Origin: 'https://evil.tn', Referer: 'https://app.mysite.tn/' } }
      await expectError(await send(forward(web), init), 403, 'domain not authorized')
    })

    it.each(['null', ''])('refuses Origin %j: present, but no host to match', async (origin) => {
      await expectError(
        await send(forward(web), { headers: { Origin: origin } }),
        403,
        'domain not authorized',
      )
    })

    it('refuses 127.0.0.1 when only localhost is linked', async () => {
      await expectError(
        await send(forward(web), { headers: { Origin: 'http://127.0.0.1:5173' } }),
        403,
        'domain not authorized',
      )
      expect(mock.log.entries()[0]?.reason).toBe(
        `Origin http://127.0.0.1:5173 -> host 127.0.0.1 is not linked to key ${web.slice(0, 7)}…; linked: app.mysite.tn, localhost.`,
      )
    })

    it('lets a key with no domains work server-side only', async () => {
      expect((await send(forward(server))).status).toBe(200)
      await expectError(
        await send(forward(server), { headers: { Origin: 'http://localhost' } }),
        403,
        'domain not authorized',
      )
    })

    it('refuses plain HTTP with 403 before looking at the key', async () => {
      await expectError(
        await send(`http://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=${web}`),
        403,
        'domain not authorized',
      )
      await expectError(
        await send('http://api.tmaps.tn/geocoding/forward?q=Tunis'),
        403,
        'domain not authorized',
      )
      await expectError(
        await send(`http://tiles.tmaps.tn/r-tile/1/0/0?api_key=${web}`),
        403,
        'domain not authorized',
      )
      expect(mock.log.entries()[0]?.rule).toBe('http-not-allowed')
    })

    it('never reads an Authorization header', async () => {
      const init = { headers: { Authorization: `Bearer ${web}` } }
      await expectError(await send(`${API}/geocoding/forward?q=Tunis`, init), 401, 'missing api_key')
    })

    it('reads the key from the query string of a POST too, never from the body', async () => {
      const body = JSON.stringify({ api_key: web })
      const init = { method: 'POST', body, headers: { 'Content-Type': 'application/json' } }
      await expectError(await send(`${API}/routing/optimized`, init), 401, 'missing api_key')
    })

    it('makes every 401 identical in status, headers and body, whatever the cause', async () => {
      const causes = [
        `${API}/geocoding/forward?q=Tunis`,
        forward(''),
        forward('ak_123'),
        forward(`ak_${'0'.repeat(32)}`),
        forward(disabled),
        forward(revoked),
        `${forward(web)}&api_key=${web}`,
      ]
      const answers = await Promise.all(
        causes.map(async (url) => {
          const r = await send(url)
          // `Date` is the server's clock, not part of the answer.
          const headers = [...r.headers].filter(([name]) => name !== 'date').sort()
          return { status: r.status, headers, body: await r.text() }
        }),
      )
      for (const answer of answers) expect(answer).toEqual(answers[0])
      expect(answers[0]?.status).toBe(401)
    })

    it('answers 404 "not found" for an unknown path once auth passes, and 401 before', async () => {
      await expectError(await send(`${API}/geocoding/unknown?api_key=${web}`), 404, 'not found')
      await expectError(await send(`${TILES}/nope?api_key=${web}`), 404, 'not found')
      await expectError(await send(`${API}/geocoding/unknown`), 401, 'missing api_key')
    })

    it('answers a wrong method on a known path as an unknown path', async () => {
      await expectError(await send(forward(web), { method: 'POST', body: '{}' }), 404, 'not found')
    })

    it('validates parameters only after auth: a bad key with no q gets 401, not 400', async () => {
      await expectError(await send(`${API}/geocoding/forward?api_key=${disabled}`), 401, 'missing api_key')
      await expectError(
        await send(`${API}/geocoding/forward?api_key=${web}`),
        400,
        'missing required param: q',
      )
    })

    it('answers an OPTIONS preflight with 204 and the CORS allow headers, without a key', async () => {
      const response = await send(`${API}/geocoding/forward`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://evil.tn',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-trace',
        },
      })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe('https://evil.tn')
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS')
      expect(response.headers.get('access-control-allow-headers')).toBe('x-trace')
      expect(response.headers.get('vary')).toBe('Origin')
      expect(await response.text()).toBe('')
    })

    it('puts CORS headers on every answer: the Origin when sent, else *', async () => {
      const denied = await send(forward(web), { headers: { Origin: 'https://evil.tn' } })
      expect(denied.headers.get('access-control-allow-origin')).toBe('https://evil.tn')
      expect(denied.headers.get('vary')).toBe('Origin')
      const anonymous = await send(`${API}/geocoding/forward`)
      expect(anonymous.headers.get('access-control-allow-origin')).toBe('*')
    })

    it('applies a console change to the very next request', async () => {
      const init = { headers: { Origin: 'http://localhost:3000' } }
      expect((await send(forward(web), init)).status).toBe(200)
      await mock.console.unlinkDomain(web, 'localhost')
      expect((await send(forward(web), init)).status).toBe(403)
      await mock.console.linkDomain(web, 'localhost')
      await mock.console.disableKey(web)
      expect((await send(forward(web), init)).status).toBe(401)
      await mock.console.enableKey(web)
      expect((await send(forward(web), init)).status).toBe(200)
    })

    it('answers an injected 429 with Retry-After before the auth check, and a reset as no answer', async () => {
      mock.faults.add({ endpoint: '/geocoding/forward', status: 429, times: 1 })
      const limited = await send(forward('ak_nope'))
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toBe('1')
      expect(await limited.json()).toEqual({ error: 'rate limited' })
      expect(mock.log.entries()[0]).toMatchObject({ status: 429, rule: 'fault-injected' })
      expect(endpointRuns).toBe(0)
      mock.faults.add({ network: 'reset', times: 1 })
      // fetch rejects; msw's getResponse hands back its network-error response.
      const reset = await send(forward(web)).catch((error: unknown) => error)
      expect(reset instanceof Response ? reset.type : 'rejected').toMatch(/^(rejected|error)$/)
      expect((await send(forward(web))).status).toBe(200)
    })

    it("answers a raster tile as a 256 x 256 PNG with a tile server's caching headers", async () => {
      const url = `${TILES}/r-tile/6/33/25?api_key=${web}`
      const response = await send(url, { headers: { Referer: 'http://localhost:5173/' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
      const etag = response.headers.get('etag')
      expect(etag).toMatch(/^"[0-9a-f]{16}"$/)
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength)
      const png = decodePng(bytes)
      expect([png.width, png.height]).toEqual([256, 256])
      // The same bytes whatever the runtime: compare with the pipeline itself.
      const direct = await mock.fetch(new Request(url))
      expect(Buffer.from(await direct.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
      const again = await send(url, { headers: { 'If-None-Match': etag! } })
      expect(again.status).toBe(304)
      expect(again.headers.get('etag')).toBe(etag)
    })

    it('refuses a tile from a foreign page with the JSON 403 (the Referer rule of <img> tiles)', async () => {
      await expectError(
        await send(`${TILES}/r-tile/6/33/25?api_key=${web}`, { headers: { Referer: 'https://evil.tn/map' } }),
        403,
        'domain not authorized',
      )
      expect(mock.log.entries()[0]?.facts.via).toBe('referer')
      await expectError(await send(`${TILES}/r-tile/6/33/25`), 401, 'missing api_key')
    })

    it('answers a tile outside the grid with 404 and a path segment that is not a number with 400', async () => {
      await expectError(await send(`${TILES}/r-tile/19/0/0?api_key=${web}`), 404, 'not found')
      await expectError(await send(`${TILES}/r-tile/2/4/0?api_key=${web}`), 404, 'not found')
      await expectError(await send(`${TILES}/r-tile/2/1/x?api_key=${web}`), 400, 'invalid param: y')
    })

    it('answers a static map as a PNG of the requested size, and 400 naming a malformed parameter', async () => {
      const query = 'center=36.8528,10.3261&zoom=15&size=320x200&marker=36.8528,10.3261|red|H'
      const response = await send(`${API}/maps/static?${query}&api_key=${web}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      const png = decodePng(new Uint8Array(await response.arrayBuffer()))
      expect([png.width, png.height]).toEqual([320, 200])
      await expectError(
        await send(`${API}/maps/static?center=36.8,10.1&zoom=12&size=2000x10&api_key=${web}`),
        400,
        'invalid param: size',
      )
      await expectError(await send(`${API}/maps/static?size=300x200`), 401, 'missing api_key')
    })
  })
}
