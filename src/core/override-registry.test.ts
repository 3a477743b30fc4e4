import { describe, expect, it } from 'vitest'
import { createTmapsMock } from '../runtimes/msw/create-tmaps-mock.ts'

const API = 'https://api.tmaps.tn'

async function setup() {
  const mock = createTmapsMock({ state: 'empty', seed: 'overrides' })
  const web = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
  const forward = (q = 'Sfax', key = web.value) => `${API}/geocoding/forward?q=${q}&limit=1&api_key=${key}`
  return { mock, web, forward }
}

describe('mock.use', () => {
  it('overrides once with times: 1, then the mock answers again', async () => {
    const { mock, forward } = await setup()
    mock.use('geocoding/forward', ({ params }) => ({ query: params.q ?? '', results: [] }), { times: 1 })
    const first = await mock.fetch(new Request(forward()))
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('application/json')
    expect(await first.json()).toEqual({ query: 'Sfax', results: [] })
    const second = await mock.fetch(new Request(forward()))
    expect(((await second.json()) as { results: unknown[] }).results).toHaveLength(1)
  })

  it('still answers a disabled key 401 and a foreign Origin 403, without running the override', async () => {
    const { mock, web, forward } = await setup()
    let runs = 0
    mock.use('geocoding/forward', () => {
      runs++
      return { query: 'x', results: [] }
    })
    const foreign = await mock.fetch(new Request(forward(), { headers: { Origin: 'https://evil.tn' } }))
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toEqual({ error: 'domain not authorized' })
    await mock.console.disableKey(web.id)
    const disabled = await mock.fetch(new Request(forward()))
    expect(disabled.status).toBe(401)
    expect(await disabled.json()).toEqual({ error: 'missing api_key' })
    const http = await mock.fetch(new Request(forward().replace('https:', 'http:')))
    expect(http.status).toBe(403)
    expect(runs).toBe(0)
  })

  it("gives the resolver the mock's own answer, typed, to change", async () => {
    const { mock, forward } = await setup()
    mock.use('geocoding/forward', async ({ answer }) => {
      const own = await answer()
      return { ...own, results: own.results.map((r) => ({ ...r, confidence: 0.31 })) }
    })
    const body = (await (await mock.fetch(new Request(forward()))).json()) as {
      results: Array<{ confidence: number; components: { governorate: string } }>
    }
    expect(body.results[0]).toMatchObject({ confidence: 0.31, components: { governorate: 'Sfax' } })
  })

  it('answers a status with a body, or a Response, and logs the entry as overridden', async () => {
    const { mock, web } = await setup()
    const matrix = `${API}/distance-matrix?api_key=${web.value}`
    const body = JSON.stringify({
      origins: [{ lat: 36.8, lng: 10.18 }],
      destinations: [{ lat: 36.85, lng: 10.3 }],
    })
    const post = () =>
      mock.fetch(
        new Request(matrix, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      )
    const dispose = mock.use('distance-matrix', () => ({ status: 500, body: { error: 'internal error' } }))
    const failed = await post()
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ error: 'internal error' })
    expect(mock.log.entries()[0]).toMatchObject({ status: 500, overridden: true, rule: 'no-browser-headers' })
    dispose()
    mock.use(
      'distance-matrix',
      () => new Response('slow down', { status: 429, headers: { 'Retry-After': '2' } }),
    )
    const limited = await post()
    expect([limited.status, limited.headers.get('retry-after'), await limited.text()]).toEqual([
      429,
      '2',
      'slow down',
    ])
  })

  it('passes query and path parameters, never the key, and a bad parameter still answers 400 through answer()', async () => {
    const { mock, web } = await setup()
    const seen: Array<Readonly<Record<string, string | undefined>>> = []
    mock.use('r-tile', async ({ params, answer }) => {
      seen.push(params)
      return answer()
    })
    const tile = await mock.fetch(
      new Request(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${web.value}&v=2`),
    )
    expect(tile.headers.get('content-type')).toBe('image/png')
    expect(seen).toEqual([{ v: '2', z: '6', x: '33', y: '25' }])
    mock.use('geocoding/forward', ({ answer }) => answer())
    const missing = await mock.fetch(new Request(`${API}/geocoding/forward?api_key=${web.value}`))
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: 'missing required param: q' })
  })

  it('refuses an unknown endpoint, a resolver that is not a function and a bad times', async () => {
    const { mock } = await setup()
    // @ts-expect-error not an endpoint
    expect(() => mock.use('geocoding/fwd', () => ({}))).toThrow(
      /Failed to override "geocoding\/fwd": no such endpoint\. Use one of geocoding\/forward, /,
    )
    // @ts-expect-error not a function
    expect(() => mock.use('r-tile', 'png')).toThrow(
      /the resolver is neither a function nor a scenario of r-tile/,
    )
    expect(() => mock.use('r-tile', ({ answer }) => answer(), { times: 0 })).toThrow(/times is 0/)
  })
})
