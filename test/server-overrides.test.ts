import { request as httpsRequest } from 'node:https'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { httpsServers } from './support/https-servers.ts'
import { createAnswerChecker } from './support/openapi.ts'

/**
 * `tmaps-mock serve`'s overrides over a real TLS socket: declared with the control API
 * (`/__console/overrides`, docs/server.md), answered after the key, domain and HTTPS checks,
 * logged as overridden, behind the control API's gate.
 */
const start = httpsServers('overrides')
const JSON_TYPE = { 'content-type': 'application/json' }

async function setup(options: Parameters<typeof start>[0] = {}) {
  const started = await start(options)
  const key = await started.server.mock.console.createKey({ name: 'Web', domains: ['localhost'] })
  const { call } = started
  const add = (override: unknown) =>
    call('/__console/overrides', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(override) })
  const geocode = (init: Parameters<typeof call>[1] = {}) =>
    call(`/geocoding/forward?q=Sfax&limit=1&api_key=${key.value}`, init)
  return { ...started, key, add, geocode }
}

describe('overrides over the control API of tmaps-mock serve', () => {
  it('answers a named scenario once (times: 1), then the mock again, and logs it as overridden', async () => {
    const { call, add, geocode } = await setup()
    const created = await add({ endpoint: 'geocoding/forward', scenario: 'no-results', times: 1 })
    expect(created.status).toBe(201)
    expect(created.headers['content-type']).toBe('application/json')
    expect(created.json()).toEqual({
      id: expect.stringMatching(/^ov_\d+$/),
      endpoint: 'geocoding/forward',
      scenario: 'no-results',
      times: 1,
      remaining: 1,
      hits: 0,
    })
    expect((await call('/__console/overrides')).json()).toEqual([created.json()])

    const first = await geocode()
    expect(first.status).toBe(200)
    expect(first.headers['content-type']).toBe('application/json')
    expect(first.json()).toEqual({ query: 'Sfax', results: [] })
    const second = await geocode()
    expect(second.json().results[0].components.governorate).toBe('Sfax')

    const log = (await call('/__console/log')).json()
    expect(log[1]).toMatchObject({ path: '/geocoding/forward', status: 200, overridden: true })
    expect(log[0].overridden).toBeUndefined()
    expect((await call('/__console/overrides')).json()).toEqual([]) // used up
  })

  it('answers a status with TMaps’ body for it (503 with Retry-After) until it is deleted', async () => {
    const { call, add, key } = await setup()
    const { id } = (await add({ endpoint: 'distance-matrix', status: 503 })).json()
    const matrix = () =>
      call(`/distance-matrix?api_key=${key.value}`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({
          origins: [{ lat: 36.8, lng: 10.18 }],
          destinations: [{ lat: 36.85, lng: 10.33 }],
        }),
      })
    const checker = createAnswerChecker()
    for (let i = 0; i < 2; i++) {
      const busy = await matrix()
      expect(busy.status).toBe(503)
      expect(busy.headers['retry-after']).toBe('1')
      expect(busy.json()).toEqual({ error: 'service unavailable' })
      const response = new Response(busy.text, {
        status: 503,
        headers: busy.headers as Record<string, string>,
      })
      expect(await checker.check('https://api.tmaps.tn/distance-matrix', 'POST', response)).toEqual([])
    }
    expect((await call('/__console/overrides')).json()).toEqual([
      expect.objectContaining({ id, status: 503, times: null, remaining: null, hits: 2 }),
    ])
    expect((await call(`/__console/overrides/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await matrix()).status).toBe(200)
    const again = await call(`/__console/overrides/${id}`, { method: 'DELETE' })
    expect(again.status).toBe(404)
    expect(again.json()).toEqual({ error: `No override ${id}: GET /__console/overrides lists them.` })
  })

  it('keeps the contract: a disabled key 401, a foreign Origin 403, plain HTTP 403, the override unused', async () => {
    const { server, call, add, geocode, key } = await setup({ httpPort: 0 })
    await add({ endpoint: 'geocoding/forward', status: 200, body: { query: 'Sfax', results: [] } })
    const foreign = await geocode({ headers: { origin: 'https://evil.example' } })
    expect([foreign.status, foreign.json()]).toEqual([403, { error: 'domain not authorized' }])
    const http = await request(`${server.httpUrl}/geocoding/forward?q=Sfax&api_key=${key.value}`)
    expect([http.statusCode, await http.body.json()]).toEqual([403, { error: 'domain not authorized' }])
    await server.mock.console.disableKey(key.id)
    const disabled = await geocode()
    expect([disabled.status, disabled.json()]).toEqual([401, { error: 'missing api_key' }])
    expect((await call('/__console/overrides')).json()[0].hits).toBe(0)
    await server.mock.console.enableKey(key.id)
    expect((await geocode()).json()).toEqual({ query: 'Sfax', results: [] })
  })

  it('delays the mock’s own answer with delayMs alone, and lists, then clears, every override', async () => {
    const { call, add, geocode } = await setup()
    await add({ endpoint: 'geocoding/forward', delayMs: 50 })
    await add({ endpoint: 'routing/direction', scenario: 'at-sea' })
    expect((await geocode()).json().results[0].components.governorate).toBe('Sfax')
    const listed = (await call('/__console/overrides')).json()
    expect(listed.map((o: { endpoint: string }) => o.endpoint)).toEqual([
      'routing/direction',
      'geocoding/forward',
    ])
    expect(listed[1]).toMatchObject({ delayMs: 50, hits: 1 })
    expect((await call('/__console/overrides', { method: 'DELETE' })).status).toBe(204)
    expect((await call('/__console/overrides')).json()).toEqual([])
  })

  it.each([
    [
      { endpoint: 'geocoding/forward', scenario: 'at-sea' },
      'body.scenario "at-sea" does not apply to geocoding/forward: it applies to geocoding/reverse, geocoding/nearby, routing/direction, routing/optimized, routing/isochrone, distance-matrix.',
    ],
    [
      { endpoint: 'geocoding/fwd', status: 500 },
      'body.endpoint is "geocoding/fwd": use one of geocoding/forward, geocoding/reverse, geocoding/nearby, routing/direction, routing/optimized, routing/isochrone, distance-matrix, maps/static, r-tile.',
    ],
    [
      { endpoint: 'r-tile', status: 200, body: {} },
      'body.status 200 with a JSON body: r-tile answers PNG bytes; use an error status or a scenario.',
    ],
    [
      { endpoint: 'geocoding/forward', status: '429' },
      'body.status is "429": use one of 200, 400, 401, 403, 404, 429, 500, 502, 503, 504.',
    ],
    [
      { endpoint: 'geocoding/forward', resolver: 'x => x' },
      'body.resolver must be a function ({ request, params, answer }) => body, or a scenario of geocoding/forward, e.g. scenarios.noResults().',
    ],
  ])('refuses %j with 400 and what to fix, and adds nothing', async (override, error) => {
    const { call, add } = await setup()
    const refused = await add(override)
    expect(refused.status).toBe(400)
    expect(refused.headers['content-type']).toBe('application/json')
    expect(refused.json()).toEqual({ error })
    expect((await call('/__console/overrides')).json()).toEqual([])
  })

  it('holds at most 100 overrides, each body at most 1 MB, so the server’s memory stays bounded', async () => {
    const { add, call } = await setup()
    const big = await add({
      endpoint: 'geocoding/forward',
      status: 500,
      body: { error: 'x'.repeat(1024 * 1024) },
    })
    expect([big.status, big.json()]).toEqual([
      400,
      { error: 'body.body is larger than 1 MB: answer a smaller body, or use mock.use with a resolver.' },
    ])
    for (let i = 0; i < 100; i++)
      expect((await add({ endpoint: 'r-tile', status: 503, times: 1 })).status).toBe(201)
    const more = await add({ endpoint: 'r-tile', status: 503 })
    expect([more.status, more.json()]).toEqual([
      400,
      { error: 'At most 100 overrides: delete some first (DELETE /__console/overrides/<id>, or all).' },
    ])
    expect((await call('/__console/overrides')).json()).toHaveLength(100)
  })

  it('sits behind the control API’s gate: no cross-site write, no foreign Host, no text/plain', async () => {
    const { call, geocode, server } = await setup()
    const body = JSON.stringify({ endpoint: 'geocoding/forward', scenario: 'no-results' })
    const crossSite = await call('/__console/overrides', {
      method: 'POST',
      headers: { ...JSON_TYPE, origin: 'https://evil.example' },
      body,
    })
    expect(crossSite.status).toBe(403)
    // DNS rebinding: the socket is ours, the Host header another site's.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpsRequest(
        `${server.url}/__console/overrides`,
        { ca: server.ca, servername: 'localhost', headers: { host: 'evil.example' } },
        (res) => {
          res.resume()
          resolve(res.statusCode)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(rebound).toBe(403)
    const simple = await call('/__console/overrides', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    })
    expect(simple.status).toBe(415)
    expect((await call('/__console/overrides')).json()).toEqual([])
    expect((await geocode()).json().results).toHaveLength(1)
  })
})
