import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { distanceKm } from '../../data/geo.ts'
import { onMainland } from './road-graph.ts'

const client = apiClient('matrix')
const post = (payload: unknown, raw?: string) => client.post('distance-matrix', payload, raw)

const AMBULANCES = [
  { lat: 36.828, lng: 10.21 },
  { lat: 36.845, lng: 10.185 },
  { lat: 36.8094, lng: 10.14 },
]
const TUNIS = { lat: 36.8, lng: 10.1815 }
/** Points that join the mainland's roads (a point at sea answers 400: tested below). */
const pointArb = fc
  .record({
    lat: fc.double({ min: 30.3, max: 37.3, noNaN: true }),
    lng: fc.double({ min: 7.6, max: 11.5, noNaN: true }),
  })
  .filter(onMainland)

describe('POST /distance-matrix', () => {
  it('answers the documented example in the documented shape', async () => {
    const { status, type, body } = await post({
      origins: AMBULANCES,
      destinations: [TUNIS],
      profile: 'driving',
    })
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body).toEqual({
      durations: [[expect.any(Number)], [expect.any(Number)], [expect.any(Number)]],
      distances: [[expect.any(Number)], [expect.any(Number)], [expect.any(Number)]],
      origins: AMBULANCES,
      destinations: [TUNIS],
    })
    // Same order of magnitude as the documented sample (3.1 km / 320 s for the first pair): the
    // first ambulance stands by Lake Tunis, so the road goes round its shore (about 7.5 km).
    expect(body.distances[0][0]).toBeGreaterThan(3000)
    expect(body.distances[0][0]).toBeLessThan(10_000)
    expect(body.durations[0][0]).toBeGreaterThan(200)
    expect(body.durations[0][0]).toBeLessThan(1200)
  })

  it('is 0 on the diagonal for identical points and never shorter than the great circle', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pointArb, { minLength: 1, maxLength: 6 }), async (points) => {
        const { body } = await post({ origins: points, destinations: points })
        for (const [i, a] of points.entries()) {
          for (const [j, b] of points.entries()) {
            if (i === j) expect([body.distances[i][j], body.durations[i][j]]).toEqual([0, 0])
            expect(body.distances[i][j]).toBeGreaterThanOrEqual(distanceKm(a, b) * 1000)
          }
        }
      }),
      { numRuns: 30 },
    )
  })

  it('makes walking slower than cycling slower than driving, and trucks no faster than cars', async () => {
    await fc.assert(
      fc.asyncProperty(pointArb, pointArb, async (a, b) => {
        fc.pre(distanceKm(a, b) > 0.05)
        const time = async (profile: string) =>
          (await post({ origins: [a], destinations: [b], profile })).body.durations[0][0]
        const [walking, cycling, driving, truck] = await Promise.all(
          ['walking', 'cycling', 'driving', 'truck'].map(time),
        )
        expect(walking).toBeGreaterThan(cycling)
        expect(cycling).toBeGreaterThan(driving)
        expect(truck).toBeGreaterThanOrEqual(driving)
      }),
      { numRuns: 40 },
    )
  })

  it('answers 25 x 25 and leaves out the metrics not asked for', async () => {
    const grid = Array.from({ length: 25 }, (_, i) => ({ lat: 36 + i * 0.02, lng: 10 + i * 0.01 }))
    const { status, body } = await post({ origins: grid, destinations: grid, metrics: ['distance'] })
    expect(status).toBe(200)
    expect(body.durations).toBeUndefined()
    expect(body.distances).toHaveLength(25)
    expect(body.distances.every((row: number[]) => row.length === 25)).toBe(true)
  })

  it('answers the same request identically', async () => {
    const payload = { origins: AMBULANCES, destinations: [TUNIS, AMBULANCES[0]] }
    expect((await post(payload)).body).toEqual((await post(payload)).body)
  })

  it.each([
    [{ destinations: [TUNIS] }, 'missing required param: origins'],
    [{ origins: AMBULANCES }, 'missing required param: destinations'],
    [{ origins: [], destinations: [TUNIS] }, 'invalid param: origins'],
    [{ origins: Array(26).fill(TUNIS), destinations: [TUNIS] }, 'invalid param: origins'],
    [{ origins: [TUNIS], destinations: Array(26).fill(TUNIS) }, 'invalid param: destinations'],
    [{ origins: [{ lat: 91, lng: 0 }], destinations: [TUNIS] }, 'invalid param: origins'],
    [{ origins: [{ lat: '36.8', lng: 10 }], destinations: [TUNIS] }, 'invalid param: origins'],
    [{ origins: ['36.8,10.18'], destinations: [TUNIS] }, 'invalid param: origins'],
    [{ origins: [TUNIS], destinations: [TUNIS], profile: 'boat' }, 'invalid param: profile'],
    [{ origins: [TUNIS], destinations: [TUNIS], metrics: [] }, 'invalid param: metrics'],
    [{ origins: [TUNIS], destinations: [TUNIS], metrics: ['time'] }, 'invalid param: metrics'],
  ])('answers %j with 400 %j', async (payload, error) => {
    const { status, body } = await post(payload)
    expect(status).toBe(400)
    expect(body).toEqual({ error })
  })

  it.each([
    ['not JSON', '{origins:'],
    ['an array', '[]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['empty', ''],
  ])('answers a body that is %s with 400 invalid param: body', async (_, raw) => {
    const { status, body } = await post(undefined, raw)
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'invalid param: body' })
  })
})
