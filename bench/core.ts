/**
 * The in-process part of `npm run bench`: the contract's cost per request against bare msw
 * handlers, key lookup at 100,000 keys, a world per seed, the road graph, each endpoint uncached.
 */
import { getResponse, HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { poiTowns, townPlaces } from '../src/data/pois.ts'
import { KEPT_WORLDS, worldFor } from '../src/data/world.ts'
import { createGeocoder, GEOCODER } from '../src/endpoints/geocoding/geocoder.ts'
import { roadGraph, search, snap } from '../src/endpoints/routing/road-graph.ts'
import { mapWorldFor } from '../src/map/map-world.ts'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import type { TmapsSnapshot } from '../src/store/snapshot.ts'
import { type Comparison, compare } from './harness.ts'

export async function coreRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const FORWARD = 'https://api.tmaps.tn/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3'
  const ORIGIN = { Origin: 'http://localhost:5173' }
  const rows: Comparison[] = []

  // The mock, and a bare MSW handler that answers the very same JSON without any contract.
  const mock = createTmapsMock({ state: 'empty', seed: 'bench' })
  await mock.ready
  const key = await mock.console.createKey({ name: 'bench', domains: ['localhost'] })
  const url = `${FORWARD}&api_key=${key.value}`
  const sameBody = await (await mock.fetch(new Request(url, { headers: ORIGIN }))).json()
  const bare = [http.get('https://api.tmaps.tn/geocoding/forward', () => HttpResponse.json(sameBody))]

  // 1. Through msw's getResponse (no interception): the contract's cost shows most here. A
  // remembered answer costs less than a bare handler's JSON.stringify (0.77-0.88x): at most 1x
  // (both variants are warmed alike: a cold first row reads 2x).
  rows.push(
    await compare(
      'forward geocode via getResponse',
      { name: 'tmaps-mock', run: () => getResponse(mock.handlers, new Request(url, { headers: ORIGIN })) },
      { name: 'bare msw handler', run: () => getResponse(bare, new Request(url, { headers: ORIGIN })) },
      { target: 1 },
    ),
  )

  // 2. Through setupServer and a real fetch, as a Node test suite uses it. Both handler sets are
  // installed once, on the same host (the bare one first, on its own path), so both requests go
  // through the same connection and name-resolution path and each finds its handler.
  const barePath = 'https://api.tmaps.tn/__bare/geocoding/forward'
  const server = setupServer(
    http.get(barePath, () => HttpResponse.json(sameBody)),
    ...mock.handlers,
  )
  server.listen({ onUnhandledFrame: 'error' })
  const bareUrl = url.replace('https://api.tmaps.tn/geocoding/forward', barePath)
  rows.push(
    await compare(
      'forward geocode via setupServer + fetch',
      { name: 'tmaps-mock', run: async () => (await fetch(url, { headers: ORIGIN })).arrayBuffer() },
      {
        name: 'bare msw handler',
        run: async () => (await fetch(bareUrl, { headers: ORIGIN })).arrayBuffer(),
      },
      { target: 1.05, batch: 50, rounds: 21, interleave: true },
    ),
  )
  server.close()

  // 3. Key lookup: 100,000 keys must not be slower per request than 10.
  const snapshotWith = (count: number): TmapsSnapshot => {
    const hex = (n: number) => n.toString(16).padStart(32, '0')
    const keys = Array.from({ length: count }, (_, i) => ({
      id: `key_${i}`,
      name: `k${i}`,
      value: `ak_${hex(i + 1)}`,
      status: 'enabled' as const,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    }))
    return {
      format: 'tmaps-mock/snapshot',
      version: 1,
      keys,
      domains: [{ hostname: 'localhost', createdAt: '2026-01-01T00:00:00.000Z' }],
      links: keys.slice(0, 10).map((k) => ({ keyId: k.id, hostname: 'localhost', createdAt: k.createdAt })),
    }
  }
  const small = createTmapsMock({ state: snapshotWith(10), seed: 'bench' })
  const large = createTmapsMock({ state: snapshotWith(100_000), seed: 'bench' })
  const loadStart = performance.now()
  await Promise.all([small.ready, large.ready])
  const loadSeconds = (performance.now() - loadStart) / 1000
  // The 100,000 keys are a fresh ~200 MB heap: V8's major collections of it landed in the row's
  // first rounds (one run read 1.49x, another 0.91x). One full collection first (the bench runs
  // with --expose-gc): the row then measures the lookup, not the load's garbage.
  globalThis.gc?.()
  let turn = 0
  const lookupUrl = (i: number) => `${FORWARD}&api_key=ak_${(i + 1).toString(16).padStart(32, '0')}`
  rows.push(
    await compare(
      'key lookup per request',
      {
        name: '100,000 keys',
        run: () => large.fetch(new Request(lookupUrl(turn++ % 10), { headers: ORIGIN })),
      },
      { name: '10 keys', run: () => small.fetch(new Request(lookupUrl(turn++ % 10), { headers: ORIGIN })) },
      { target: 1.2 },
    ),
  )

  // 3b. Console reads are O(result): listing the domains (10 keys linked) with 100,000 keys vs 100.
  const hundred = createTmapsMock({ state: snapshotWith(100), seed: 'bench' })
  await hundred.ready
  rows.push(
    await compare(
      'console.listDomains(), 10 keys linked',
      { name: '100,000 keys', run: async () => large.console.listDomains() },
      { name: '100 keys', run: async () => hundred.console.listDomains() },
      { target: 1.2, batch: 500 },
    ),
  )

  // 3b. One world per data seed: how long it takes to build and how much it holds (information).
  const worldNote = (() => {
    const gc = (globalThis as { gc?: () => void }).gc
    const heap = () => {
      gc?.()
      return process.memoryUsage().heapUsed
    }
    const towns = poiTowns().slice(0, 20)
    const runs = ['world-a', 'world-b', 'world-c'].map((seed) => {
      const before = heap()
      const t0 = performance.now()
      const world = worldFor(seed)
      const streets = world.streets.length
      const t1 = performance.now()
      const places = towns.reduce((n, town) => n + townPlaces(world, town).length, 0)
      const t2 = performance.now()
      world.derived(GEOCODER).forward({ q: 'Sfax', limit: 1, lang: 'fr' })
      const t3 = performance.now()
      return { streets, places, ms: [t1 - t0, t2 - t1, t3 - t2], mb: (heap() - before) / 1024 / 1024 }
    })
    const med = (pick: (r: (typeof runs)[number]) => number) => runs.map(pick).sort((a, b) => a - b)[1]!
    const r = runs[0]!
    return (
      `One world per data seed (median of 3 seeds): ${r.streets} streets in ${med((x) => x.ms[0]!).toFixed(0)} ms, ` +
      `the places of the 20 largest towns (${r.places}) in ${med((x) => x.ms[1]!).toFixed(0)} ms, the geocoder and its ` +
      `index in ${med((x) => x.ms[2]!).toFixed(0)} ms; the world then holds ${med((x) => x.mb).toFixed(0)} MB of heap ` +
      `(target <= 30 MB; at most ${KEPT_WORLDS} worlds are kept).`
    )
  })()

  // 3c'. A world per seed: its streets named (the towns' street networks are geography, made
  // once and shared: made above) and laid out for the map. Target: <= 150 ms a seed.
  let worldSeed = 0
  rows.push(
    await compare(
      'world build per seed (streets named, map streets)',
      {
        name: 'a new seed',
        run: async () => mapWorldFor(`bench-world-${worldSeed++}`).streets.length,
      },
      { name: 'a kept seed', run: async () => mapWorldFor('world-a').streets.length },
      { batch: 2, rounds: 9, budgetMs: 150 },
    ),
  )

  // 3c. The road graph routing runs on (the drawn roads; shared by every world: geography).
  const roadNote = (() => {
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const before = process.memoryUsage().heapUsed
    const t0 = performance.now()
    const g = roadGraph()
    const tunis = snap(g, { lat: 36.8002, lng: 10.1815 })!
    const ms = performance.now() - t0
    search(g, tunis, 'driving', {})
    gc?.()
    const mb = (process.memoryUsage().heapUsed - before) / 1024 / 1024
    return (
      `Road graph (the drawn roads and the towns' streets, one for every world): ${g.lat.length} nodes, ${g.from.length} edges, ` +
      `built with the land mask's index in ${ms.toFixed(0)} ms, ${mb.toFixed(1)} MB of heap.`
    )
  })()

  // 4. Informational: a geocode that misses the answer cache (a new query each time).
  const geocoder = createGeocoder(worldFor('bench'))
  const queries = [
    'Sfax',
    'Sousse',
    'Djerba',
    'Sidi Bou Said',
    'Médina de Tunis',
    'Kairouan',
    '12 Avenue Habib Bourguiba, Sfax',
    'القيروان',
  ]
  let n = 0
  rows.push(
    await compare(
      'uncached geocode vs cached answer',
      {
        name: 'geocoder.forward',
        run: async () => geocoder.forward({ q: queries[n++ % queries.length]!, limit: 5, lang: 'fr' }),
      },
      { name: 'tmaps-mock (cache hit)', run: () => mock.fetch(new Request(url, { headers: ORIGIN })) },
      { batch: 100 },
    ),
  )

  // 5. Each endpoint, computing its answer (every request misses the answer cache), against a bare
  // msw handler answering the same JSON via getResponse. The largest documented requests (a 25 x 25
  // matrix, a 50-point tour) must answer in well under 50 ms: their budget is 25 ms.
  const jitter = (i: number, scale = 0.0004) => ((i * 7919) % 1000) * scale
  // Routing points stay on land west of Lake Tunis (jitter of at most 0.04 degrees): a point at sea
  // is a 400 (no road reaches it), which would measure nothing.
  const near = (i: number, lat: number, lng: number) => ({
    lat: lat + jitter(i, 0.00004),
    lng: lng + jitter(i + 1, 0.00004),
  })
  const grid = (i: number, count: number) =>
    Array.from({ length: count }, (_, k) =>
      near(i * 31 + k, 36.7 + (k % 5) * 0.03, 9.98 + Math.floor(k / 5) * 0.015),
    )
  const from = (i: number) =>
    `${near(i, 36.84, 10.12).lat.toFixed(5)},${near(i, 36.84, 10.12).lng.toFixed(5)}`
  const api = (path: string) =>
    `https://api.tmaps.tn/${path}${path.includes('?') ? '&' : '?'}api_key=${key.value}`
  const postJson = (payload: unknown) => ({
    method: 'POST',
    body: JSON.stringify(payload),
    headers: { ...ORIGIN, 'Content-Type': 'application/json' },
  })
  const lat = (i: number) => (36.8 + jitter(i)).toFixed(5)
  const lng = (i: number) => (10.18 + jitter(i + 1)).toFixed(5)
  const endpoints: Array<{
    label: string
    request: (i: number) => Request
    batch: number
    budgetMs?: number
  }> = [
    {
      label: 'GET /geocoding/forward',
      request: (i) =>
        new Request(
          api(
            `geocoding/forward?q=${encodeURIComponent(queries[i % queries.length]!)}&proximity=${lat(i)},${lng(i)}`,
          ),
          { headers: ORIGIN },
        ),
      batch: 50,
    },
    {
      label: 'GET /geocoding/reverse',
      request: (i) => new Request(api(`geocoding/reverse?lat=${lat(i)}&lng=${lng(i)}`), { headers: ORIGIN }),
      batch: 50,
    },
    {
      label: 'GET /geocoding/nearby (1.5 km, 20)',
      request: (i) =>
        new Request(api(`geocoding/nearby?lat=${lat(i)}&lng=${lng(i)}&radius=1500`), { headers: ORIGIN }),
      batch: 50,
    },
    {
      label: 'GET /routing/direction (steps)',
      request: (i) =>
        new Request(api(`routing/direction?from=${from(i)}&to=36.8528,10.3261&steps=true`), {
          headers: ORIGIN,
        }),
      batch: 50,
    },
    {
      label: 'GET /routing/direction (Tunis - Sfax, 270 km by the A1)',
      request: (i) =>
        new Request(api(`routing/direction?from=${from(i)}&to=34.7406,10.7603&steps=true`), {
          headers: ORIGIN,
        }),
      batch: 20,
      budgetMs: 20,
    },
    {
      label: 'POST /routing/direction (25 waypoints, steps)',
      request: (i) =>
        new Request(api('routing/direction'), postJson({ waypoints: grid(i, 25), steps: true })),
      batch: 10,
    },
    {
      label: 'POST /routing/optimized (50 waypoints)',
      request: (i) =>
        new Request(
          api('routing/optimized'),
          postJson({ origin: near(i, 36.84, 10.12), waypoints: grid(i, 50) }),
        ),
      batch: 3,
      budgetMs: 25,
    },
    {
      label: 'POST /routing/isochrone (4 contours)',
      request: (i) =>
        new Request(
          api('routing/isochrone'),
          postJson({
            origin: near(i, 35.8, 10.55),
            contours: [{ time: 10 }, { time: 20 }, { time: 40 }, { time: 60 }],
          }),
        ),
      batch: 10,
    },
    {
      label: 'POST /distance-matrix (25 x 25)',
      request: (i) =>
        new Request(
          api('distance-matrix'),
          postJson({ origins: grid(i, 25), destinations: grid(i + 1, 25) }),
        ),
      batch: 10,
      budgetMs: 25,
    },
  ]
  let sequence = 0
  for (const { label, request, batch, budgetMs } of endpoints) {
    const sample = await (await getResponse(mock.handlers, request(999_999)))!.json()
    const sampleRequest = request(999_999)
    const sampleUrl = new URL(sampleRequest.url)
    const bareHandlers = [
      http[sampleRequest.method === 'GET' ? 'get' : 'post'](`${sampleUrl.origin}${sampleUrl.pathname}`, () =>
        HttpResponse.json(sample),
      ),
    ]
    rows.push(
      await compare(
        label,
        { name: 'tmaps-mock, uncached', run: () => getResponse(mock.handlers, request(sequence++)) },
        { name: 'bare msw handler', run: () => getResponse(bareHandlers, request(sequence++)) },
        { batch, rounds: 9, ...(budgetMs && { budgetMs }) },
      ),
    )
  }

  return {
    rows,
    notes: [`100,000 keys loaded in ${loadSeconds.toFixed(1)} s.`, worldNote, roadNote],
  }
}
