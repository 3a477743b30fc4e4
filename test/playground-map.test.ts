import fc from 'fast-check'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { overlayOf } from '../playground/map-overlay.ts'
import { createTmapsCore, type TmapsMockCore } from '../src/core/create-core.ts'

/** The playground map's reading of answers: what it draws of each endpoint's real answer. */
let core: TmapsMockCore
let key = ''
beforeAll(async () => {
  core = createTmapsCore()
  await core.ready
  key = core.snapshot().keys.find((k) => k.name === 'Backend (server-side)')!.value
})
afterEach(() => {
  vi.restoreAllMocks()
})

async function answer(path: string, query: string, body?: unknown): Promise<unknown> {
  const url = `${core.options.baseUrl}${path}?${query}${query ? '&' : ''}api_key=${key}`
  const response = await core.fetch(
    new Request(url, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body !== undefined && {
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
    }),
  )
  expect(response.status).toBe(200)
  return response.json()
}

const TUNIS = { lat: 36.8002, lng: 10.1815 }
const CARTHAGE = { lat: 36.8528, lng: 10.3261 }

describe('the playground map: what it draws of an answer', () => {
  it('draws geocoding results as labelled markers, with the query point and radius', async () => {
    const forward = overlayOf(await answer('/geocoding/forward', 'q=Avenue Habib Bourguiba, Tunis&limit=3'))
    expect(forward.markers.map((m) => [m.kind, m.label])).toEqual([
      ['result', 'Avenue Habib Bourguiba, 1000 Tunis, Tunisie'],
      ['result', 'Avenue Habib Bourguiba, 2060 La Goulette, Tunisie'],
      ['result', 'Avenue Habib Bourguiba, 2070 La Marsa, Tunisie'],
    ])
    expect(forward.summary).toBe('3 results')

    const nearby = overlayOf(
      await answer('/geocoding/nearby', 'lat=36.8002&lng=10.1815&radius=1500&categories=pharmacy&limit=5'),
    )
    expect(nearby.markers[0]).toMatchObject({ kind: 'query', at: [36.8002, 10.1815] })
    expect(nearby.circles).toEqual([{ at: [36.8002, 10.1815], radius: 1500, label: '1.5 km' }])
    const result = nearby.markers.find((m) => m.kind === 'result')!
    expect(result.label).toMatch(/^Pharmacie /)
    expect(result.details).toEqual([
      expect.stringContaining('Tunis'),
      'pharmacy',
      expect.stringMatching(/ away$/),
    ])
    // The view takes in the whole radius.
    const [[south], [north]] = nearby.bounds!
    expect(north - south).toBeGreaterThan(0.026)
  })

  it('draws a route (polyline or GeoJSON) with its start, stops and end', async () => {
    const polyline = overlayOf(await answer('/routing/direction', 'from=36.8002,10.1815&to=36.8528,10.3261'))
    const geojson = overlayOf(
      await answer('/routing/direction', 'from=36.8002,10.1815&to=36.8528,10.3261&geometry=geojson'),
    )
    for (const overlay of [polyline, geojson]) {
      expect(overlay.lines).toHaveLength(1)
      expect(overlay.lines[0]!.kind).toBe('route')
      expect(overlay.lines[0]!.points[0]).toEqual([36.8002, 10.1815])
      expect(overlay.lines[0]!.points.at(-1)).toEqual([36.8528, 10.3261])
      expect(overlay.markers.map((m) => m.kind)).toEqual(['start', 'end'])
      expect(overlay.summary).toMatch(/^a route of \d+\.\d km, \d+ min$/)
    }
    const via = overlayOf(
      await answer('/routing/direction', '', { waypoints: [TUNIS, { lat: 36.8094, lng: 10.14 }, CARTHAGE] }),
    )
    expect(via.markers.map((m) => m.label)).toEqual(['Start', 'Stop 1', 'End'])

    const optimized = overlayOf(
      await answer('/routing/optimized', '', {
        origin: { lat: 36.8355, lng: 10.2261 },
        waypoints: [
          { lat: 36.8485, lng: 10.1712 },
          { lat: 36.8644, lng: 10.1808 },
        ],
        roundtrip: true,
      }),
    )
    expect(optimized.markers.map((m) => m.label)).toEqual(['Start and end', 'Stop 1', 'Stop 2'])
    expect(optimized.markers[0]!.details[0]).toMatch(/\(visiting order \d, \d\)$/)
  })

  it('draws isochrones as polygons of their colour, the largest below', async () => {
    const overlay = overlayOf(
      await answer('/routing/isochrone', '', {
        origin: TUNIS,
        contours: [{ time: 5 }, { time: 10 }, { time: 15 }],
        colors: ['#22c55e', '#f59e0b', '#ef4444'],
      }),
    )
    expect(overlay.areas.map((a) => [a.label, a.color])).toEqual([
      ['15 min', '#ef4444'],
      ['10 min', '#f59e0b'],
      ['5 min', '#22c55e'],
    ])
    expect(overlay.summary).toBe('3 isochrones')
  })

  it('draws the distance matrix: origins, destinations and a line for each pair', async () => {
    const overlay = overlayOf(
      await answer('/distance-matrix', '', {
        origins: [
          { lat: 36.828, lng: 10.21 },
          { lat: 36.845, lng: 10.185 },
        ],
        destinations: [TUNIS],
      }),
    )
    expect(overlay.markers.map((m) => m.label)).toEqual(['Origin 1', 'Origin 2', 'Destination 1'])
    expect(overlay.lines.map((l) => l.label)).toEqual([
      expect.stringMatching(/^Origin 1 → destination 1: \d+\.\d km, \d+ min$/),
      expect.stringMatching(/^Origin 2 → destination 1: \d+\.\d km, \d+ min$/),
    ])
    expect(overlay.summary).toBe('2 origins × 1 destination')
  })

  it('draws nothing, and does not throw, for answers of other shapes', () => {
    const warn = vi.spyOn(console, 'warn')
    for (const body of [
      undefined,
      null,
      'text',
      { error: 'invalid-key' },
      { results: [{ lat: 'x', lng: 10 }, { lat: 200, lng: 10 }, null] },
      { geometry: 42, legs: 'no' },
      { geometry: { type: 'LineString', coordinates: [[10, 36], 'x'] } },
      { type: 'FeatureCollection', features: [null, { geometry: { type: 'Polygon', coordinates: 'x' } }] },
      {
        type: 'FeatureCollection',
        features: [{ geometry: { type: 'MultiPolygon', coordinates: [[[1, 2]]] } }],
      },
      { origins: [{ lat: 1, lng: 2 }], destinations: 'x' },
      { query: { lat: 36, lng: 10, radius: -1 } },
    ]) {
      const overlay = overlayOf(body)
      expect(overlay.lines.length + overlay.areas.length, JSON.stringify(body)).toBe(0)
    }
    // A polyline decodes any string; a huge one is not drawn.
    expect(overlayOf({ geometry: '_'.repeat(500_000) }).lines).toEqual([])
    expect(warn).not.toHaveBeenCalled()
  })

  it('never throws on any JSON, and draws only points on Earth', () => {
    const warn = vi.spyOn(console, 'warn')
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const overlay = overlayOf(body)
        const points = [
          ...overlay.markers.map((m) => m.at),
          ...overlay.lines.flatMap((l) => l.points),
          ...overlay.areas.flatMap((a) => a.rings.flat()),
        ]
        for (const [lat, lng] of points) {
          expect(Math.abs(lat)).toBeLessThanOrEqual(90)
          expect(Math.abs(lng)).toBeLessThanOrEqual(180)
        }
        expect(overlay.bounds === null).toBe(points.length === 0 && overlay.circles.length === 0)
      }),
      { numRuns: 500 },
    )
    expect(warn).not.toHaveBeenCalled()
  })
})
