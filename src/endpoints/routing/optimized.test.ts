import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { onMainland } from './road-graph.ts'
import { solveTour } from './tour.ts'

const { post } = apiClient('optimized')
const optimized = (payload: unknown) => post('routing/optimized', payload)
const DOCS = {
  origin: { lat: 36.8355, lng: 10.2261 },
  waypoints: [
    { lat: 36.8485, lng: 10.1712 },
    { lat: 36.8644, lng: 10.1808 },
    { lat: 36.8664, lng: 10.1938 },
    { lat: 36.8779, lng: 10.2024 },
  ],
  profile: 'driving',
  optimize: 'duration',
  roundtrip: true,
}
/** Points of Greater Tunis on land (not in Lake Tunis or the gulf: those answer 400). */
const pointArb = fc
  .record({
    lat: fc.double({ min: 36.6, max: 37, noNaN: true }),
    lng: fc.double({ min: 9.9, max: 10.4, noNaN: true }),
  })
  .filter(onMainland)

describe('POST /routing/optimized', () => {
  it('answers the docs example: an order of the input waypoints and a leg per hop, back to the origin', async () => {
    const { status, type, body } = await optimized(DOCS)
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body).toEqual({
      distance: expect.any(Number),
      duration: expect.any(Number),
      order: expect.any(Array),
      geometry: expect.any(String),
      legs: expect.any(Array),
    })
    expect([...body.order].sort()).toEqual([0, 1, 2, 3])
    const stops = [DOCS.origin, ...body.order.map((i: number) => DOCS.waypoints[i]), DOCS.origin]
    expect(body.legs.map((l: { from: unknown; to: unknown }) => [l.from, l.to])).toEqual(
      stops.slice(1).map((to, i) => [stops[i], to]),
    )
    expect(body.legs[0]).toEqual({
      from: DOCS.origin,
      to: stops[1],
      distance: expect.any(Number),
      duration: expect.any(Number),
    })
    const sum = (key: 'distance' | 'duration') =>
      body.legs.reduce((s: number, l: Record<string, number>) => s + l[key]!, 0)
    expect(body.distance).toBe(sum('distance'))
    expect(body.duration).toBe(sum('duration'))
    // The docs' sample says about 15 km and 28 minutes for this round.
    expect(body.distance).toBeGreaterThan(10_000)
    expect(body.distance).toBeLessThan(25_000)
  })

  it('draws each leg by the measure it optimizes: optimize=distance takes the shortest legs', async () => {
    // Found by the property below (seed 191425942): the order was chosen by the shortest legs but
    // the legs drawn were the fastest, 99.5 km against 97.8 km for the input order's fastest legs.
    const origin = { lat: 36.6, lng: 9.9 }
    const waypoints = [
      { lat: 36.655556061022736, lng: 10.22783118462936 },
      { lat: 36.71035665301149, lng: 10.249228037416387 },
    ]
    const tour = await optimized({ origin, waypoints, optimize: 'distance', roundtrip: false })
    const input = await post('routing/direction', { waypoints: [origin, ...waypoints] })
    expect(tour.status).toBe(200)
    expect(tour.body.distance).toBeLessThanOrEqual(input.body.distance + 2)
    const fastest = await optimized({ origin, waypoints, optimize: 'duration', roundtrip: false })
    expect(tour.body.distance).toBeLessThanOrEqual(fastest.body.distance)
    expect(fastest.body.duration).toBeLessThanOrEqual(tour.body.duration)
  })

  it('is never longer than visiting the waypoints in the input order', async () => {
    await fc.assert(
      fc.asyncProperty(
        pointArb,
        fc.array(pointArb, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('duration', 'distance'),
        fc.boolean(),
        async (origin, waypoints, optimize, roundtrip) => {
          const tour = await optimized({ origin, waypoints, optimize, roundtrip })
          const input = await post('routing/direction', {
            waypoints: [origin, ...waypoints, ...(roundtrip ? [origin] : [])],
          })
          expect(tour.status).toBe(200)
          expect([...tour.body.order].sort((a: number, b: number) => a - b)).toEqual(
            waypoints.map((_, i) => i),
          )
          // Each leg is rounded to the metre and second on its own: one unit of slack per leg.
          const legs = waypoints.length + (roundtrip ? 1 : 0)
          expect(tour.body[optimize]).toBeLessThanOrEqual(input.body[optimize] + legs)
        },
      ),
      { numRuns: 40 },
    )
  })

  it('finds the obvious order of stops along a line, and keeps the destination last', async () => {
    const line = [0, 1, 2, 3, 4, 5].map((i) => ({ lat: 36.8, lng: 10 + i * 0.02 }))
    const shuffled = [line[3], line[1], line[5], line[2], line[4]]
    const { body } = await optimized({ origin: line[0], waypoints: shuffled })
    expect(body.order).toEqual([1, 3, 0, 4, 2])
    const withEnd = await optimized({
      origin: line[0],
      waypoints: shuffled.slice(0, 4),
      destination: line[4],
    })
    expect(withEnd.body.order).toEqual([1, 3, 0, 2])
    expect(withEnd.body.legs.at(-1).to).toEqual(line[4])
  })

  it('answers the largest documented tour (50 waypoints) with steps', async () => {
    const waypoints = Array.from({ length: 200 }, (_, i) => ({
      lat: 36.7 + ((i * 37) % 50) * 0.004,
      lng: 10.1 + ((i * 13) % 50) * 0.005 + Math.floor(i / 50) * 0.0011,
    }))
      .filter(onMainland) // not in Lake Tunis
      .slice(0, 50)
    expect(waypoints).toHaveLength(50)
    const { status, body } = await optimized({
      origin: DOCS.origin,
      waypoints,
      steps: true,
      geometry: 'geojson',
    })
    expect(status).toBe(200)
    expect(body.order).toHaveLength(50)
    expect(body.legs).toHaveLength(50)
    expect(body.legs[0].steps[0].maneuver.type).toBe('depart')
    expect(body.geometry.type).toBe('LineString')
  })

  it.each([
    [{ waypoints: DOCS.waypoints }, 'missing required param: origin'],
    [{ origin: DOCS.origin }, 'missing required param: waypoints'],
    [{ origin: DOCS.origin, waypoints: [] }, 'invalid param: waypoints'],
    [
      { origin: DOCS.origin, waypoints: Array.from({ length: 51 }, () => DOCS.origin) },
      'invalid param: waypoints',
    ],
    [{ origin: [36.8, 10.2], waypoints: DOCS.waypoints }, 'invalid param: origin'],
    [{ ...DOCS, destination: { lat: 36.9 } }, 'invalid param: destination'],
    [{ ...DOCS, optimize: 'time' }, 'invalid param: optimize'],
    [{ ...DOCS, roundtrip: 'yes' }, 'invalid param: roundtrip'],
    [{ ...DOCS, destination: DOCS.waypoints[0] }, 'invalid param: roundtrip'],
    [{ ...DOCS, profile: 'scooter' }, 'invalid param: profile'],
    [{ ...DOCS, geometry: 'kml' }, 'invalid param: geometry'],
  ])('answers 400 for %j', async (payload, error) => {
    expect(await optimized(payload)).toEqual({ status: 400, type: 'application/json', body: { error } })
  })
  it('costs a stop far inside a city, whose nearest streets reach no road, on a route’s streets', async () => {
    // Sfax, Kairouan and Tunis: the streets of the cells around each stop (a tour's) do not reach
    // a road from there; a route's (two cells around) do.
    for (const origin of [
      { lat: 34.716, lng: 10.737 },
      { lat: 35.678, lng: 10.125 },
      { lat: 36.757, lng: 10.193 },
    ]) {
      const waypoints = [
        { lat: 36.4, lng: 10.6 },
        { lat: origin.lat + 0.05, lng: origin.lng - 0.05 },
      ]
      const tour = await optimized({ origin, waypoints, roundtrip: true })
      expect(tour.status).toBe(200)
      expect(tour.body.legs).toHaveLength(3)
    }
  })
})

describe('solveTour', () => {
  it('never returns a tour costlier than the input order, on any cost matrix', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }).chain((n) =>
          fc.tuple(
            fc.array(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: n + 2, maxLength: n + 2 }), {
              minLength: n + 2,
              maxLength: n + 2,
            }),
            fc.boolean(),
          ),
        ),
        ([matrix, end]) => {
          const cost = end ? matrix : matrix.slice(0, -1).map((row) => row.slice(0, -1))
          const n = cost.length - 1 - (end ? 1 : 0)
          const total = (order: number[]) => {
            const nodes = [0, ...order.map((i) => i + 1), ...(end ? [n + 1] : [])]
            return nodes.slice(1).reduce((s, node, i) => s + cost[nodes[i]!]![node]!, 0)
          }
          const order = solveTour(cost, end)
          expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i))
          expect(total(order)).toBeLessThanOrEqual(total(Array.from({ length: n }, (_, i) => i)))
        },
      ),
      { numRuns: 300 },
    )
  })
})
