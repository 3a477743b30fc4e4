import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createAnswerChecker } from '../../test/support/openapi.ts'
import { createTmapsMock } from '../runtimes/msw/create-tmaps-mock.ts'
import { applyOverrides, compileOverride, type TmapsOverrideEntry } from './override-specs.ts'
import { SCENARIO_ENDPOINTS, scenarios, type TmapsScenarioName } from './scenarios.ts'

const API = 'https://api.tmaps.tn'
const TUNIS = { lat: 36.8002, lng: 10.1815 }
const LA_MARSA = { lat: 36.8528, lng: 10.3261 }
/** Open sea between Cap Bon and Sicily: no road, no address. */
const SEA = { lat: 37.5, lng: 11.5 }

async function setup() {
  const mock = createTmapsMock({ state: 'empty', seed: 'scenarios' })
  const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
  return { mock, key: key.value, id: key.id }
}

/** One request of each endpoint a scenario applies to, at the given points (`to` the last one). */
function requests(key: string, to: { lat: number; lng: number }): Record<string, () => Request> {
  const post = (path: string, body: unknown) => () =>
    new Request(`${API}${path}?api_key=${key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  return {
    'geocoding/forward': () =>
      new Request(`${API}/geocoding/forward?q=Avenue%20Habib%20Bourguiba%20Tunis&api_key=${key}`),
    'geocoding/reverse': () =>
      new Request(`${API}/geocoding/reverse?lat=${to.lat}&lng=${to.lng}&api_key=${key}`),
    'geocoding/nearby': () =>
      new Request(`${API}/geocoding/nearby?lat=${to.lat}&lng=${to.lng}&radius=1500&api_key=${key}`),
    'routing/direction': () =>
      new Request(
        `${API}/routing/direction?from=${TUNIS.lat},${TUNIS.lng}&to=${to.lat},${to.lng}&api_key=${key}`,
      ),
    'routing/direction POST': post('/routing/direction', { waypoints: [TUNIS, to] }),
    'routing/optimized': post('/routing/optimized', { origin: TUNIS, waypoints: [to] }),
    'routing/isochrone': post('/routing/isochrone', { origin: to, contours: [{ time: 5 }, { distance: 3 }] }),
    'distance-matrix': post('/distance-matrix', { origins: [TUNIS], destinations: [to] }),
    'maps/static': () =>
      new Request(`${API}/maps/static?center=${TUNIS.lat},${TUNIS.lng}&zoom=12&size=64x64&api_key=${key}`),
    'r-tile': () => new Request(`https://tiles.tmaps.tn/r-tile/6/34/25?api_key=${key}`),
  }
}

const json = async (response: Response) => ({
  status: response.status,
  type: response.headers.get('content-type'),
  body: await response.json(),
})

const checker = createAnswerChecker()
afterAll(() => {
  console.info(
    `scenarios: ${checker.total()} answers validated against the OpenAPI document (${checker.summary()})`,
  )
})

describe('scenarios', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it.each(
    (Object.keys(SCENARIO_ENDPOINTS) as TmapsScenarioName[]).flatMap((scenario) =>
      Object.keys(requests('', SEA))
        .filter((name) => SCENARIO_ENDPOINTS[scenario].includes(name.split(' ')[0] as never))
        .map((name) => ({ scenario, name })),
    ),
  )('$scenario on $name answers as the OpenAPI document says', async ({ scenario, name }) => {
    const { mock, key } = await setup()
    const endpoint = name.split(' ')[0]!
    applyOverrides(mock, [
      { endpoint: endpoint as 'geocoding/forward', scenario, ...(scenario === 'slow' && { delayMs: 1 }) },
    ])
    const request = requests(key, LA_MARSA)[name]!()
    const response = await mock.fetch(request)
    expect(await checker.check(request.url, request.method, response)).toEqual([])
    expect(mock.log.entries()[0]).toMatchObject({ overridden: true })
  })

  it('validates every answer of the scenarios (0 failures)', () => {
    expect(checker.failures).toEqual([])
  })

  it('no-results answers what the mock answers when nothing is found: the query echoed, no results', async () => {
    const { mock, key } = await setup()
    const all = requests(key, TUNIS)
    mock.use('geocoding/forward', scenarios.noResults())
    mock.use('geocoding/reverse', scenarios.noResults())
    mock.use('geocoding/nearby', scenarios.noResults())
    expect(await json(await mock.fetch(all['geocoding/forward']!()))).toEqual({
      status: 200,
      type: 'application/json',
      body: { query: 'Avenue Habib Bourguiba Tunis', results: [] },
    })
    expect((await json(await mock.fetch(all['geocoding/reverse']!()))).body).toEqual({
      query: TUNIS,
      results: [],
    })
    expect((await json(await mock.fetch(all['geocoding/nearby']!()))).body).toEqual({
      query: { ...TUNIS, radius: 1500, limit: 20, lang: 'fr' },
      results: [],
    })
    // What the mock itself answers for a query that matches nothing has the same shape.
    const unmatched = await mock.fetch(new Request(`${API}/geocoding/forward?q=Xqzvw%20Jkplm&api_key=${key}`))
    mock.log.clear()
    expect(await unmatched.json()).toEqual({ query: 'Xqzvw Jkplm', results: [] })
  })

  it('at-sea answers exactly what the mock answers for a real point at sea, on every endpoint it applies to', async () => {
    const { mock, key } = await setup()
    const atSea = requests(key, SEA)
    const onLand = requests(key, LA_MARSA)
    for (const name of Object.keys(atSea).filter((n) =>
      SCENARIO_ENDPOINTS['at-sea'].includes(n.split(' ')[0] as never),
    )) {
      const real = await json(await mock.fetch(atSea[name]!()))
      const off = mock.use(name.split(' ')[0] as 'routing/direction', scenarios.atSea())
      const overridden = await json(await mock.fetch(onLand[name]!()))
      off()
      // The query echoes the request's own point; everything else is the answer at sea.
      if (name.startsWith('geocoding/'))
        expect({ ...overridden.body, query: undefined }, name).toEqual({ ...real.body, query: undefined })
      else expect(overridden, name).toEqual(real)
    }
    const direction = await json(await mock.fetch(atSea['routing/direction']!()))
    expect(direction).toEqual({
      status: 400,
      type: 'application/json',
      body: {
        error: 'invalid param: to (no road reaches it: at sea, abroad or on an island without a crossing)',
      },
    })
  })

  it('low-confidence keeps the matches and their order, the best at the confidence asked for', async () => {
    const { mock, key } = await setup()
    const request = requests(key, TUNIS)['geocoding/forward']!
    const own = (await json(await mock.fetch(request()))).body
    expect(own.results[0].confidence).toBeGreaterThan(0.8)
    mock.use('geocoding/forward', scenarios.lowConfidence({ confidence: 0.3 }), { times: 1 })
    const weak = (await json(await mock.fetch(request()))).body
    expect(weak.results.map((r: { formatted: string }) => r.formatted)).toEqual(
      own.results.map((r: { formatted: string }) => r.formatted),
    )
    expect(weak.results[0].confidence).toBe(0.3)
    for (const [i, r] of weak.results.entries()) {
      expect(r.confidence).toBeLessThanOrEqual(0.3)
      expect(r).toEqual({ ...own.results[i], confidence: r.confidence })
    }
    expect(() => scenarios.lowConfidence({ confidence: 1.2 })).toThrow(
      'Failed to create the low-confidence scenario: confidence is 1.2. Use a number from 0 to below 1, e.g. 0.4.',
    )
  })

  it("slow holds the mock's own answer back delayMs, and only for requests the contract accepted", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const { mock, key, id } = await setup()
    const request = requests(key, TUNIS)['geocoding/forward']!
    const own = await (await mock.fetch(request())).json()
    mock.use('geocoding/forward', scenarios.slow({ delayMs: 60_000 }))
    let settled = false
    const late = mock.fetch(request()).then((r) => {
      settled = true
      return r
    })
    await vi.advanceTimersByTimeAsync(59_000)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(await json(await late)).toEqual({ status: 200, type: 'application/json', body: own })
    await mock.console.disableKey(id)
    expect((await mock.fetch(request())).status).toBe(401) // at once: no timer was advanced
  })

  it('slow keeps a picture’s bytes and caching headers', async () => {
    const { mock, key } = await setup()
    const tile = requests(key, TUNIS)['r-tile']!
    const own = await mock.fetch(tile())
    mock.use('r-tile', scenarios.slow({ delayMs: 1 }))
    const late = await mock.fetch(tile())
    expect(mock.log.entries()[0]?.overridden).toBe(true)
    expect(late.status).toBe(200)
    for (const header of ['content-type', 'cache-control', 'etag'])
      expect(late.headers.get(header), header).toBe(own.headers.get(header))
    expect(new Uint8Array(await late.arrayBuffer())).toEqual(new Uint8Array(await own.arrayBuffer()))
  })

  it('keeps the contract: a disabled key still gets 401 and a foreign Origin 403, the scenario unused', async () => {
    const { mock, key, id } = await setup()
    mock.use('geocoding/forward', scenarios.noResults(), { times: 1 })
    const request = requests(key, TUNIS)['geocoding/forward']!
    const foreign = new Request(request(), { headers: { Origin: 'https://evil.example' } })
    expect(await json(await mock.fetch(foreign))).toEqual({
      status: 403,
      type: 'application/json',
      body: { error: 'domain not authorized' },
    })
    await mock.console.disableKey(id)
    expect((await json(await mock.fetch(request()))).body).toEqual({ error: 'missing api_key' })
    await mock.console.enableKey(id)
    expect((await json(await mock.fetch(request()))).body.results).toEqual([]) // its one time, now
    expect((await json(await mock.fetch(request()))).body.results.length).toBeGreaterThan(0)
  })

  it('keeps the 400 of a bad parameter: a scenario starts from the mock’s own answer', async () => {
    const { mock, key } = await setup()
    mock.use('routing/direction', scenarios.atSea())
    const bad = await mock.fetch(new Request(`${API}/routing/direction?from=36.8,10.18&api_key=${key}`))
    expect(await json(bad)).toEqual({
      status: 400,
      type: 'application/json',
      body: { error: 'missing required param: to' },
    })
  })

  it('types each scenario to its endpoints', async () => {
    const { mock } = await setup()
    mock.use('geocoding/forward', scenarios.lowConfidence())
    mock.use('routing/isochrone', scenarios.atSea())
    mock.use('r-tile', scenarios.slow({ delayMs: 10 }))
    // Refused by the type, and at run time (JavaScript) with what to use instead.
    // @ts-expect-error a distance matrix has no results to empty
    expect(() => mock.use('distance-matrix', scenarios.noResults())).toThrow(
      /Failed to override distance-matrix: the resolver is neither a function nor a scenario of distance-matrix/,
    )
    // @ts-expect-error forward geocoding has no point at sea
    expect(() => mock.use('geocoding/forward', scenarios.atSea())).toThrow(
      /nor a scenario of geocoding\/forward/,
    )
    // @ts-expect-error only forward geocoding has a confidence
    expect(() => mock.use('geocoding/reverse', scenarios.lowConfidence())).toThrow(/nor a scenario/)
    // The same in a list (parameters.tmaps.use, the Vite plugin's overrides module).
    const list: TmapsOverrideEntry[] = [
      { endpoint: 'geocoding/nearby', resolver: scenarios.noResults(), times: 1 },
      { endpoint: 'routing/direction', scenario: 'at-sea' },
      // @ts-expect-error a distance matrix has no results to empty
      { endpoint: 'distance-matrix', resolver: scenarios.noResults() },
      // @ts-expect-error results is a list
      { endpoint: 'geocoding/forward', resolver: ({ params }) => ({ query: params.q ?? '', results: 3 }) },
      // @ts-expect-error no such scenario
      { endpoint: 'geocoding/forward', scenario: 'nope' },
    ]
    expect(list).toHaveLength(5)
  })
})

describe('overrides as data', () => {
  it('answers a status with TMaps’ body for it, Retry-After on 429, once with times: 1', async () => {
    const { mock, key } = await setup()
    applyOverrides(mock, [{ endpoint: 'geocoding/forward', status: 429, times: 1 }])
    const request = requests(key, TUNIS)['geocoding/forward']!
    const limited = await mock.fetch(request())
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(await json(limited)).toEqual({
      status: 429,
      type: 'application/json',
      body: { error: 'rate limited' },
    })
    expect((await mock.fetch(request())).status).toBe(200)
  })

  it('answers a 200 body as given, and the first entry of an endpoint wins', async () => {
    const { mock, key } = await setup()
    const body = { query: 'Sfax', results: [] }
    const remove = applyOverrides(mock, [
      { endpoint: 'geocoding/forward', status: 200, body },
      { endpoint: 'geocoding/forward', scenario: 'low-confidence' },
    ])
    const request = requests(key, TUNIS)['geocoding/forward']!
    expect((await json(await mock.fetch(request()))).body).toEqual(body)
    remove()
    expect((await json(await mock.fetch(request()))).body.results.length).toBeGreaterThan(0)
  })

  it.each([
    [
      { endpoint: 'geocoding/fwd', scenario: 'no-results' },
      /\[0\]\.endpoint is "geocoding\/fwd": use one of geocoding\/forward, /,
    ],
    [{ endpoint: 'geocoding/forward' }, /\[0\] says nothing to answer: give a scenario/],
    [
      { endpoint: 'geocoding/forward', scenario: 'at-sea' },
      /\[0\]\.scenario "at-sea" does not apply to geocoding\/forward: it applies to geocoding\/reverse, /,
    ],
    [
      { endpoint: 'geocoding/forward', scenario: 'empty' },
      /\[0\]\.scenario is "empty": use one of no-results, at-sea, low-confidence, slow/,
    ],
    [{ endpoint: 'geocoding/forward', scenario: 'no-results', status: 500 }, /cannot go together/],
    [{ endpoint: 'geocoding/forward', status: 418 }, /\[0\]\.status is 418: use one of 200, 400, 401/],
    [{ endpoint: 'geocoding/forward', status: 400 }, /\[0\]\.body is needed with status 400/],
    [
      { endpoint: 'geocoding/forward', status: 500, body: { message: 'x' } },
      /TMaps' error format, \{ "error": /,
    ],
    [{ endpoint: 'r-tile', status: 200, body: {} }, /r-tile answers PNG bytes/],
    [
      { endpoint: 'geocoding/forward', status: 200 },
      /\.body must be the JSON object geocoding\/forward answers/,
    ],
    [
      { endpoint: 'geocoding/forward', delayMs: -1 },
      /\.delayMs is -1: use a number of milliseconds from 0 to 120000/,
    ],
    [{ endpoint: 'geocoding/forward', delayMs: 10, times: 0 }, /\.times is 0: use a whole number from 1/],
    [
      { endpoint: 'geocoding/forward', scenario: 'slow', colour: 'red' },
      /has no field colour\. Its fields are endpoint, scenario/,
    ],
    [{ endpoint: 'geocoding/forward', resolver: 'noResults' }, /\.resolver must be a function/],
    [
      { endpoint: 'geocoding/forward', scenario: 'low-confidence', confidence: 2 },
      /\.confidence is 2: use a number from 0 to below 1/,
    ],
    [
      'no-results',
      /\[0\] must be an object such as \{ endpoint: "geocoding\/forward", scenario: "no-results" \}/,
    ],
  ])('refuses %j, naming the field', (entry, message) => {
    expect(() => compileOverride(entry, 'use[0]')).toThrow(message)
  })

  it('applies none of a list with a bad entry', async () => {
    const { mock, key } = await setup()
    expect(() =>
      applyOverrides(
        mock,
        [{ endpoint: 'geocoding/forward', scenario: 'no-results' }, { endpoint: 'x' } as never],
        'parameters.tmaps.use',
      ),
    ).toThrow(/^parameters\.tmaps\.use\[1\]\.endpoint is "x"/)
    const body = (await json(await mock.fetch(requests(key, TUNIS)['geocoding/forward']!()))).body
    expect(body.results.length).toBeGreaterThan(0)
  })
})
