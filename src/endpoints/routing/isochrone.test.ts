import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { LOCALITIES } from '../../data/gazetteer.ts'
import { distanceKm } from '../../data/geo.ts'
import { nearestLand, surfaceAt } from '../../data/land.ts'

const { get, post } = apiClient('isochrone')
const isochrone = (payload: unknown) => post('routing/isochrone', payload)
const TUNIS = { lat: 36.8002, lng: 10.1815 }
const KAIROUAN = { lat: 35.6781, lng: 10.09633 }

type Ring = [number, number][]

/** Ray casting: strictly inside a ring (points on its edge may go either way). */
function inside([x, y]: [number, number], ring: Ring): boolean {
  let result = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!
    const [xj, yj] = ring[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) result = !result
  }
  return result
}
/** Kilometres from a point to the nearest edge of a ring (flat, local). */
function kmToRing(p: { lat: number; lng: number }, ring: Ring): number {
  const kx = 111.32 * Math.cos((p.lat * Math.PI) / 180)
  let best = Number.POSITIVE_INFINITY
  for (let i = 1; i < ring.length; i++) {
    const [ax, ay] = [(ring[i - 1]![0] - p.lng) * kx, (ring[i - 1]![1] - p.lat) * 110.54]
    const [bx, by] = [(ring[i]![0] - p.lng) * kx, (ring[i]![1] - p.lat) * 110.54]
    const [dx, dy] = [bx - ax, by - ay]
    const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)))
    best = Math.min(best, Math.hypot(ax + dx * t, ay + dy * t))
  }
  return best
}
/** Signed area (shoelace, in square degrees): positive for a counter-clockwise ring. */
const signedArea = (ring: Ring) =>
  ring.slice(1).reduce((s, [x, y], i) => s + (ring[i]![0] * y - x * ring[i]![1]), 0) / 2
/** Every vertex of `inner` is inside `outer`, or is the vertex `outer` has in the same place. */
const nestedIn = (inner: Ring, outer: Ring) =>
  inner.every((p, i) => (p[0] === outer[i]![0] && p[1] === outer[i]![1]) || inside(p, outer))

describe('POST /routing/isochrone', () => {
  it('answers the docs example: a FeatureCollection with one Polygon Feature per contour, in order', async () => {
    const colors = ['#22c55e', '#f59e0b', '#ef4444']
    const { status, type, body } = await isochrone({
      origin: TUNIS,
      contours: [{ time: 5 }, { time: 10 }, { time: 15 }],
      profile: 'driving',
      colors,
    })
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body.type).toBe('FeatureCollection')
    expect(body.features).toHaveLength(3)
    body.features.forEach(
      (feature: { properties: unknown; geometry: { type: string; coordinates: Ring[] } }, i: number) => {
        expect(feature).toMatchObject({
          type: 'Feature',
          properties: { contour: i, time: [5, 10, 15][i], profile: 'driving', color: colors[i] },
          geometry: { type: 'Polygon' },
        })
        const [ring] = feature.geometry.coordinates
        expect(ring!.at(-1)).toEqual(ring![0]) // closed
        expect(signedArea(ring!)).toBeGreaterThan(0) // counter-clockwise (RFC 7946)
        expect(inside([TUNIS.lng, TUNIS.lat], ring!)).toBe(true)
      },
    )
  })

  it('nests contours of growing times and distances, for any origin and profile', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          lat: fc.double({ min: 33, max: 37.2, noNaN: true }),
          lng: fc.double({ min: 8.3, max: 11, noNaN: true }),
        }),
        fc.constantFrom('driving', 'walking', 'cycling', 'truck'),
        fc.constantFrom('time', 'distance'),
        fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { minLength: 2, maxLength: 4 }),
        async (origin, profile, metric, values) => {
          const sorted = [...values].sort((a, b) => a - b)
          const { status, body } = await isochrone({
            origin,
            profile,
            contours: sorted.map((v) => ({ [metric]: v })),
          })
          expect(status).toBe(200)
          if (body.features[0].geometry === null) return // at sea or abroad: nothing to nest
          for (let i = 1; i < sorted.length; i++) {
            const inner = body.features[i - 1].geometry.coordinates[0]
            const outer = body.features[i].geometry.coordinates[0]
            expect(nestedIn(inner, outer)).toBe(true)
            expect(signedArea(inner)).toBeLessThanOrEqual(signedArea(outer))
          }
        },
      ),
      { numRuns: 40 },
    )
  })

  it('reaches further by car than by bike than on foot, and about as far as the profile allows', async () => {
    const reach = async (profile: string) => {
      const { body } = await isochrone({ origin: KAIROUAN, contours: [{ time: 30 }], profile })
      const ring: Ring = body.features[0].geometry.coordinates[0]
      return Math.max(...ring.map(([lng, lat]) => distanceKm(KAIROUAN, { lat, lng })))
    }
    const [walking, cycling, driving] = [
      await reach('walking'),
      await reach('cycling'),
      await reach('driving'),
    ]
    expect(walking).toBeLessThan(cycling)
    expect(cycling).toBeLessThan(driving)
    expect(walking).toBeGreaterThan(1.2) // 30 minutes on foot: about 2 km as the crow flies
    expect(walking).toBeLessThan(2.5)
    expect(driving).toBeGreaterThan(12)
    expect(driving).toBeLessThan(50) // out of Kairouan, then 85 km/h on the RN2, RN3 and RN12
  })

  it('stops at the coast: a 60-minute drive from Tunis stays on land, its vertices at most on the shore', async () => {
    const { body } = await isochrone({ origin: TUNIS, contours: [{ time: 60 }] })
    const ring: Ring = body.features[0].geometry.coordinates[0]
    // On the land the map draws, or on its shore (within 50 m: the ray's end is refined to ~10 m).
    const atSea = ring.filter(([lng, lat]) => surfaceAt(lat, lng) === 'water' && !nearestLand(lat, lng, 0.05))
    expect(atSea).toEqual([])
  })

  // the 30-minute isochrone from Tunis centre left out La Goulette, Carthage, La Marsa,
  // Radès and Hammam Lif (across Lake Tunis) though the router reaches La Goulette in 21 minutes.
  it.each([
    ['Tunis centre', TUNIS],
    ['Sfax', { lat: 34.74, lng: 10.76 }],
    ['Bizerte', { lat: 37.2744, lng: 9.8739 }],
  ])(
    'agrees with the router from %s: every town it reaches in under 25 minutes is inside the 30-minute isochrone',
    async (_, origin) => {
      const { body } = await isochrone({ origin, contours: [{ time: 30 }] })
      const ring: Ring = body.features[0].geometry.coordinates[0]
      const towns = LOCALITIES.filter((l) => distanceKm(origin, l) < 35 && distanceKm(origin, l) > 1)
      let reached = 0
      for (const town of towns) {
        const route = await get(
          'routing/direction',
          `from=${origin.lat},${origin.lng}&to=${town.lat},${town.lng}`,
        )
        if (route.status !== 200 || route.body.duration >= 25 * 60) continue
        reached++
        // Inside, or on its edge: a town on the shore may fall just outside the straight edge between
        // two of the ring's 72 vertices, which end on that shore (within 300 m).
        const near = inside([town.lng, town.lat], ring) || kmToRing(town, ring) < 0.3
        expect(near, `${town.name}: ${Math.round(route.body.duration / 60)} min`).toBe(true)
      }
      expect(reached).toBeGreaterThan(3)
    },
  )

  it('answers null geometries for an origin at sea', async () => {
    const { status, body } = await isochrone({
      origin: { lat: 37.6, lng: 11.2 },
      contours: [{ time: 10 }, { distance: 5 }],
    })
    expect(status).toBe(200)
    expect(body.features).toEqual([
      { type: 'Feature', properties: { contour: 0, time: 10, profile: 'driving' }, geometry: null },
      { type: 'Feature', properties: { contour: 1, distance: 5, profile: 'driving' }, geometry: null },
    ])
  })

  it.each([
    [{ contours: [{ time: 5 }] }, 'missing required param: origin'],
    [{ origin: TUNIS }, 'missing required param: contours'],
    [{ origin: TUNIS, contours: [] }, 'invalid param: contours'],
    [
      { origin: TUNIS, contours: [{ time: 5 }, { time: 10 }, { time: 15 }, { time: 20 }, { time: 25 }] },
      'invalid param: contours',
    ],
    [{ origin: TUNIS, contours: [{ time: 61 }] }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: [{ distance: 50.5 }] }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: [{ time: 0 }] }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: [{ time: 5, distance: 5 }] }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: [{ minutes: 5 }] }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: { time: 5 } }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: [{ time: '5' }] }, 'invalid param: contours'],
    [{ origin: TUNIS, contours: [{ time: 5 }], colors: ['#22c55e', '#f59e0b'] }, 'invalid param: colors'],
    [{ origin: TUNIS, contours: [{ time: 5 }], colors: ['green'] }, 'invalid param: colors'],
    [{ origin: TUNIS, contours: [{ time: 5 }], profile: 'boat' }, 'invalid param: profile'],
  ])('answers 400 for %j', async (payload, error) => {
    expect(await isochrone(payload)).toEqual({ status: 400, type: 'application/json', body: { error } })
  })
})
