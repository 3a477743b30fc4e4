/**
 * `npm run bench`: the speed targets of tmaps-mock, measured side by side in one run.
 * Prints ratios (A/B) against baselines measured in the same run; absolute numbers are
 * informational only, since the machines are shared and noisy.
 */
import { getResponse, HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { createTmapsMock } from '../mocks/create-tmaps-mock.ts'
import type { TmapsSnapshot } from '../src/core/snapshot.ts'
import { createGeocoder } from '../src/endpoints/geocoding/geocoder.ts'
import { type Comparison, compare, report } from './harness.ts'

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

// 1. Through msw's getResponse (no interception): the contract's cost shows most here.
rows.push(
  await compare(
    'forward geocode via getResponse',
    { name: 'tmaps-mock', run: () => getResponse(mock.handlers, new Request(url, { headers: ORIGIN })) },
    { name: 'bare msw handler', run: () => getResponse(bare, new Request(url, { headers: ORIGIN })) },
    { target: 2 },
  ),
)

// 2. Through setupServer and a real fetch, as a Node test suite uses it. Both handler sets are
// installed once; the bare one answers on its own host, so each request finds its handler.
const bareHost = 'https://api.tmaps.tx'
const server = setupServer(
  http.get(`${bareHost}/geocoding/forward`, () => HttpResponse.json(sameBody)),
  ...mock.handlers,
)
server.listen({ onUnhandledFrame: 'error' })
const bareUrl = url.replace('https://api.tmaps.tn', bareHost)
rows.push(
  await compare(
    'forward geocode via setupServer + fetch',
    { name: 'tmaps-mock', run: async () => (await fetch(url, { headers: ORIGIN })).arrayBuffer() },
    { name: 'bare msw handler', run: async () => (await fetch(bareUrl, { headers: ORIGIN })).arrayBuffer() },
    { target: 1.05, batch: 50, rounds: 21 },
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
    status: 'active' as const,
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

// 4. Informational: a geocode that misses the answer cache (a new query each time).
const geocoder = createGeocoder('bench')
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

console.log(
  `tmaps-mock benchmark (Node ${process.version}); 100,000 keys loaded in ${loadSeconds.toFixed(1)} s\n`,
)
report(rows)
