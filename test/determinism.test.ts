import { describe, expect, it } from 'vitest'
import { createTmapsCore } from '../src/core/create-core.ts'
import { ENDPOINTS } from '../src/endpoints/registry.ts'

const TUNIS = { lat: 36.8002, lng: 10.1815 }
const SOUSSE = { lat: 35.8254, lng: 10.637 }

/** One representative request per endpoint (every endpoint the registry has must be listed). */
const REQUESTS: Record<string, { query?: string; body?: unknown; url?: string }> = {
  'GET geocoding/forward': { query: 'q=Avenue%20Habib%20Bourguiba%2C%20Sfax&limit=5' },
  'GET geocoding/reverse': { query: 'lat=35.8254&lng=10.637&limit=5' },
  'GET geocoding/nearby': { query: 'lat=36.8002&lng=10.1815&radius=2000&limit=50&lang=ar' },
  'GET routing/direction': { query: 'from=36.8002,10.1815&to=35.8254,10.637&steps=true&alternatives=true' },
  'POST routing/direction': { body: { waypoints: [TUNIS, SOUSSE, TUNIS], steps: true, geometry: 'geojson' } },
  'POST routing/optimized': {
    body: {
      origin: TUNIS,
      waypoints: [SOUSSE, { lat: 36.4, lng: 10.6 }, { lat: 36.85, lng: 10.33 }],
      steps: true,
    },
  },
  'POST routing/isochrone': { body: { origin: SOUSSE, contours: [{ time: 10 }, { distance: 20 }] } },
  'POST distance-matrix': { body: { origins: [TUNIS, SOUSSE], destinations: [SOUSSE, TUNIS] } },
  'GET maps/static': {
    query:
      'bbox=9.5,35.5,11,37.2&size=300x400&style=terrain&marker=36.8002,10.1815|red|T&path=36.8002,10.1815|35.8254,10.637',
  },
  'GET r-tile/:z/:x/:y': { url: 'https://tiles.tmaps.tn/r-tile/12/2163/1597' },
}

async function answer(seed: string, name: string): Promise<{ status: number; text: string }> {
  const core = createTmapsCore({ state: 'empty', seed })
  const { value } = await core.console.createKey({ name: 'Determinism' })
  const [method, path] = name.split(' ') as [string, string]
  const { query = '', body, url = `https://api.tmaps.tn/${path}` } = REQUESTS[name]!
  const response = await core.fetch(
    new Request(`${url}?${query}${query ? '&' : ''}api_key=${value}`, {
      method,
      ...(body !== undefined && {
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
    }),
  )
  // Bytes as hex: PNG answers are compared byte for byte, not as (lossy) UTF-8.
  return { status: response.status, text: Buffer.from(await response.arrayBuffer()).toString('hex') }
}

describe('determinism: same request, same seed, same answer', () => {
  it('has a request for every endpoint', () => {
    expect(Object.keys(REQUESTS).sort()).toEqual(
      ENDPOINTS.map((e) => `${e.method} ${e.path.slice(1)}`).sort(),
    )
  })

  it.each(Object.keys(REQUESTS))(
    '%s answers byte for byte the same from two mocks of one seed',
    async (name) => {
      const [first, second] = [await answer('same', name), await answer('same', name)]
      expect(first.status).toBe(200)
      expect(second).toEqual(first)
    },
  )

  it('gives seeded data (streets, places) per seed', async () => {
    const [one, two] = [
      await answer('one', 'GET geocoding/nearby'),
      await answer('two', 'GET geocoding/nearby'),
    ]
    expect(one.text).not.toBe(two.text)
  })
})
