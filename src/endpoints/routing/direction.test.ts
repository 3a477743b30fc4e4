import { decode } from '@placemarkio/polyline'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { distanceKm } from '../../data/geo.ts'
import { onMainland } from './road-graph.ts'

const { get, post } = apiClient('direction')
const direction = (params: string) => get('routing/direction', params)
const TUNIS = { lat: 36.8002, lng: 10.1815 }
const CARTHAGE = { lat: 36.8528, lng: 10.3261 }
const DOCS_WAYPOINTS = [
  { lat: 36.7992, lng: 10.1709 },
  { lat: 36.8094, lng: 10.14 },
  { lat: 36.8528, lng: 10.3261 },
]
/** Points that join the mainland's roads (not at sea, abroad or on La Galite: those answer 400). */
const pointArb = fc
  .record({
    lat: fc.double({ min: 30.3, max: 37.3, noNaN: true }),
    lng: fc.double({ min: 7.6, max: 11.5, noNaN: true }),
  })
  .filter(onMainland)

/** Length in metres of a [lng, lat] line. */
const lengthOf = (coordinates: number[][]) =>
  coordinates
    .slice(1)
    .reduce(
      (sum, [lng, lat], i) =>
        sum +
        distanceKm({ lat: coordinates[i]![1]!, lng: coordinates[i]![0]! }, { lat: lat!, lng: lng! }) * 1000,
      0,
    )
const greatCircle = (points: { lat: number; lng: number }[]) =>
  points.slice(1).reduce((sum, p, i) => sum + distanceKm(points[i]!, p) * 1000, 0)

describe('GET /routing/direction', () => {
  it('answers the docs example with distance, duration, an encoded polyline and one leg', async () => {
    const { status, type, body } = await direction('from=36.8002,10.1815&to=36.8528,10.3261&profile=driving')
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body).toEqual({
      distance: expect.any(Number),
      duration: expect.any(Number),
      geometry: expect.any(String),
      legs: [{ from: TUNIS, to: CARTHAGE, distance: body.distance, duration: body.duration }],
      waypoints: [TUNIS, CARTHAGE],
    })
    // About 15 km by road and 15 to 25 minutes by car, as a Tunisian would expect.
    expect(body.distance).toBeGreaterThan(14_500)
    expect(body.distance).toBeLessThan(22_000)
    expect(body.duration).toBeGreaterThan(12 * 60)
    expect(body.duration).toBeLessThan(30 * 60)
    // The polyline (Google's format, precision 5) starts and ends at the points, as long as the route.
    const line = decode(body.geometry)
    expect(line[0]).toEqual([10.1815, 36.8002])
    expect(line.at(-1)).toEqual([10.3261, 36.8528])
    expect(Math.abs(lengthOf(line) - body.distance) / body.distance).toBeLessThan(0.02)
  })

  it('gives turn-by-turn steps in the language asked for, summing to the leg', async () => {
    const params = 'from=36.8002,10.1815&to=36.8528,10.3261&steps=true'
    const [fr, en, ar] = await Promise.all(
      ['fr', 'en', 'ar'].map((l) => direction(`${params}&language=${l}`)),
    )
    const steps = fr!.body.legs[0].steps
    expect(steps[0]).toMatchObject({ maneuver: { type: 'depart', location: TUNIS } })
    expect(steps[0].instruction).toBe(`Partez vers ${steps[0].instruction.split('vers ')[1]}`)
    expect(steps[0].instruction).toMatch(/^Partez vers (le|l')\S* .*sur \S/)
    expect(steps.at(-1)).toMatchObject({
      instruction: 'Vous êtes arrivé à destination',
      distance: 0,
      duration: 0,
      maneuver: { type: 'arrive', location: CARTHAGE },
    })
    for (const step of steps.slice(1, -1)) {
      expect(step.maneuver.type).toMatch(/^(turn|continue)$/)
      expect(step.instruction).toMatch(/^(Tournez|Continuez|Prenez) /)
    }
    // The route leaves Tunis by the road north of the lake (RN9) or the La Goulette causeway (RN23).
    expect(steps.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^RN(9|23)$/)]),
    )
    const sum = (key: 'distance' | 'duration') =>
      steps.reduce((s: number, x: Record<string, number>) => s + x[key]!, 0)
    expect(sum('distance')).toBe(fr!.body.distance)
    expect(sum('duration')).toBe(fr!.body.duration)
    expect(en!.body.legs[0].steps[0].instruction).toMatch(/^Head \w+ on \S/)
    expect(en!.body.legs[0].steps.at(-1).instruction).toBe('You have arrived at your destination')
    expect(ar!.body.legs[0].steps[0].instruction).toMatch(/^انطلق نحو /)
    // `language`, not `lang`: the geocoding name is ignored here, as any unknown parameter.
    expect((await direction(`${params}&lang=en`)).body.legs[0].steps[0].instruction).toMatch(/^Partez/)
  })

  it('answers GeoJSON geometry on request', async () => {
    const { body } = await direction('from=36.8002,10.1815&to=36.8528,10.3261&geometry=geojson')
    expect(body.geometry.type).toBe('LineString')
    expect(body.geometry.coordinates[0]).toEqual([10.1815, 36.8002])
    expect(body.geometry.coordinates.at(-1)).toEqual([10.3261, 36.8528])
  })

  it('offers up to 2 alternatives, each a whole route and longer than the best one', async () => {
    const { body } = await direction('from=36.8002,10.1815&to=36.8528,10.3261&alternatives=true')
    // North of Lake Tunis (RN9) or over the La Goulette causeway (RN23): at least one other way.
    expect(body.alternatives.length).toBeGreaterThanOrEqual(1)
    expect(body.alternatives.length).toBeLessThanOrEqual(2)
    for (const alternative of body.alternatives) {
      expect(Object.keys(alternative).sort()).toEqual(['distance', 'duration', 'geometry', 'legs'])
      expect(alternative.distance).toBeGreaterThan(body.distance)
      expect(alternative.geometry).not.toBe(body.geometry)
    }
    const short = await direction('from=36.8002,10.1815&to=36.8010,10.1830&alternatives=true')
    expect(short.body.alternatives).toEqual([])
    expect((await direction('from=36.8002,10.1815&to=36.8528,10.3261')).body).not.toHaveProperty(
      'alternatives',
    )
  })

  it('is never shorter than the great circle, and follows the profile', async () => {
    await fc.assert(
      fc.asyncProperty(pointArb, pointArb, async (a, b) => {
        const at = `from=${a.lat},${a.lng}&to=${b.lat},${b.lng}`
        const [driving, walking, cycling, truck] = await Promise.all(
          ['driving', 'walking', 'cycling', 'truck'].map(
            async (p) => (await direction(`${at}&profile=${p}`)).body,
          ),
        )
        expect(driving.distance).toBeGreaterThanOrEqual(greatCircle([a, b]))
        if (greatCircle([a, b]) > 50) {
          expect(walking.duration).toBeGreaterThan(cycling.duration)
          expect(cycling.duration).toBeGreaterThan(driving.duration)
          expect(truck.duration).toBeGreaterThanOrEqual(driving.duration)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('is slower and leaves the A1 when avoiding highways and tolls', async () => {
    const at = 'from=36.8002,10.1815&to=35.8254,10.6370&steps=true' // Tunis to Sousse
    const plain = (await direction(at)).body
    const avoiding = (await direction(`${at}&avoid=highways,tolls`)).body
    const names = (route: { legs: { steps: { name: string }[] }[] }) =>
      route.legs[0]!.steps.map((s) => s.name)
    expect(names(plain)).toContain('A1')
    expect(names(avoiding)).not.toContain('A1')
    expect(avoiding.duration).toBeGreaterThan(plain.duration)
  })

  it('signs roads to the governorate capitals they lead to: Gabès - Tozeur by Kébili, never Gafsa', async () => {
    const { body } = await direction('from=33.8815,10.0982&to=33.9197,8.1335&steps=true&language=fr')
    const steps = body.legs[0].steps.map((s: { instruction: string }) => s.instruction)
    expect(steps).toContain('Tournez légèrement à gauche sur la RN16 en direction de Kébili')
    expect(steps.some((s: string) => s.endsWith('en direction de Tozeur'))).toBe(true)
    expect(steps.join('\n')).not.toContain('Gafsa')
    // Through the oases of Souk Lahad and across Chott el Djerid to Degache (src/data/road-network.ts):
    // ~194 km drawn straight between waypoints, the road ~210-230 km.
    expect(body.distance / 1000).toBeGreaterThan(190)
    expect(body.distance / 1000).toBeLessThan(240)
  })

  it('reaches Kerkennah by the Sfax - Sidi Youssef ferry, said as a ferry with its crossing time', async () => {
    const at = 'from=34.7406,10.7603&to=34.71083,11.19444&steps=true' // Sfax to Remla
    const steps = async (language: string) =>
      (await direction(`${at}&language=${language}`)).body.legs[0].steps.map(
        (s: { instruction: string }) => s.instruction,
      )
    expect(await steps('fr')).toContain("Prenez le bac Sfax - Sidi Youssef (traversée d'environ 1 h)")
    expect(await steps('en')).toContain('Take the Sfax - Sidi Youssef ferry (about 1 h crossing)')
    expect(await steps('ar')).toContain('اركب عبارة صفاقس سيدي يوسف (عبور لمدة ساعة تقريبًا)')
    const { body } = await direction(at)
    // An hour aboard, a quarter of an hour to board, and ~24 km of roads on both shores.
    expect(body.duration / 60).toBeGreaterThan(80)
    expect(body.duration / 60).toBeLessThan(110)
    expect((await direction(`${at}&avoid=ferries`)).status).toBe(400)
    // Djerba's ferry says its quarter of an hour.
    const djerba = await direction('from=33.723,10.75&to=33.60,10.70&steps=true&language=fr')
    expect(djerba.body.legs[0].steps.map((s: { instruction: string }) => s.instruction)).toContain(
      "Prenez le bac Ajim - Jorf (traversée d'environ 15 min)",
    )
  })

  it.each([
    ['to=37.6,11.2', 'to'], // the open sea off Kelibia
    ['to=37.53,8.93', 'to'], // La Galite: an island with no crossing in the road graph
    ['to=36.5,7.6', 'to'], // Algeria: the map's data stop at the border
  ])('answers 400 for a point no road reaches (%s), never a line across the water', async (to, param) => {
    expect(await direction(`from=36.8002,10.1815&${to}`)).toEqual({
      status: 400,
      type: 'application/json',
      body: {
        error: `invalid param: ${param} (no road reaches it: at sea, abroad or on an island without a crossing)`,
      },
    })
  })

  it.each([
    ['to=36.8,10.18', 'missing required param: from'],
    ['from=36.8,10.18', 'missing required param: to'],
    ['from=36.8&to=36.8,10.18', 'invalid param: from'],
    ['from=36.8,10.18&to=91,10', 'invalid param: to'],
    ['from=36.8,10.18&to=36.9,10.2&profile=bus', 'invalid param: profile'],
    ['from=36.8,10.18&to=36.9,10.2&geometry=wkt', 'invalid param: geometry'],
    ['from=36.8,10.18&to=36.9,10.2&steps=yes', 'invalid param: steps'],
    ['from=36.8,10.18&to=36.9,10.2&alternatives=2', 'invalid param: alternatives'],
    ['from=36.8,10.18&to=36.9,10.2&avoid=tolls,bridges', 'invalid param: avoid'],
    ['from=36.8,10.18&to=36.9,10.2&language=de', 'invalid param: language'],
  ])('answers 400 for %s', async (params, error) => {
    expect(await direction(params)).toEqual({ status: 400, type: 'application/json', body: { error } })
  })
})

describe('POST /routing/direction', () => {
  it('answers the docs example: one leg per pair of waypoints, steps and GeoJSON', async () => {
    const { status, body } = await post('routing/direction', {
      waypoints: DOCS_WAYPOINTS,
      profile: 'driving',
      steps: true,
      geometry: 'geojson',
    })
    expect(status).toBe(200)
    expect(body.legs).toHaveLength(2)
    expect(body.legs.map((l: { from: unknown; to: unknown }) => [l.from, l.to])).toEqual([
      [DOCS_WAYPOINTS[0], DOCS_WAYPOINTS[1]],
      [DOCS_WAYPOINTS[1], DOCS_WAYPOINTS[2]],
    ])
    expect(body.legs[0].steps.at(-1).instruction).toBe("Vous êtes arrivé à l'étape 1")
    expect(body.legs[1].steps.at(-1).instruction).toBe('Vous êtes arrivé à destination')
    expect(body.distance).toBe(body.legs[0].distance + body.legs[1].distance)
    expect(body.geometry.coordinates[0]).toEqual([10.1709, 36.7992])
    expect(body.geometry.coordinates.at(-1)).toEqual([10.3261, 36.8528])
  })

  it('is the GET route for two points (the docs call the forms equivalent)', async () => {
    const viaGet = await direction('from=36.8002,10.1815&to=36.8528,10.3261&steps=true')
    const viaPost = await post('routing/direction', { waypoints: [TUNIS, CARTHAGE], steps: true })
    expect(viaPost.body).toEqual(viaGet.body)
  })

  it('is never shorter than the great circle through its waypoints', async () => {
    await fc.assert(
      // Up to 8 waypoints (the docs allow 25): each leg is a search, and 30 runs of 25 took over a
      // minute on a busy laptop.
      fc.asyncProperty(fc.array(pointArb, { minLength: 2, maxLength: 8 }), async (waypoints) => {
        const { status, body } = await post('routing/direction', { waypoints })
        expect(status).toBe(200)
        expect(body.legs).toHaveLength(waypoints.length - 1)
        expect(body.distance).toBeGreaterThanOrEqual(Math.floor(greatCircle(waypoints)))
        const [lng, lat] = decode(body.geometry).at(-1)!
        expect(Math.abs(lng! - waypoints.at(-1)!.lng)).toBeLessThanOrEqual(1e-5)
        expect(Math.abs(lat! - waypoints.at(-1)!.lat)).toBeLessThanOrEqual(1e-5)
      }),
      { numRuns: 30 },
    )
  }, 180_000)

  it('accepts avoid as the documented comma list or as an array', async () => {
    const list = await post('routing/direction', { waypoints: [TUNIS, CARTHAGE], avoid: 'tolls,highways' })
    const array = await post('routing/direction', {
      waypoints: [TUNIS, CARTHAGE],
      avoid: ['highways', 'tolls'],
    })
    expect(list.status).toBe(200)
    expect(array.body).toEqual(list.body)
  })

  it.each([
    [{}, 'missing required param: waypoints'],
    [{ waypoints: [TUNIS] }, 'invalid param: waypoints'],
    [{ waypoints: Array.from({ length: 26 }, () => TUNIS) }, 'invalid param: waypoints'],
    [{ waypoints: [TUNIS, { lat: 'x', lng: 10 }] }, 'invalid param: waypoints'],
    [{ waypoints: '36.8,10.18;36.85,10.33' }, 'invalid param: waypoints'],
    [{ waypoints: [TUNIS, CARTHAGE], steps: 'true' }, 'invalid param: steps'],
    [{ waypoints: [TUNIS, CARTHAGE], avoid: ['tolls', 3] }, 'invalid param: avoid'],
    [{ waypoints: [TUNIS, CARTHAGE], language: 'es' }, 'invalid param: language'],
  ])('answers 400 for %j', async (payload, error) => {
    expect(await post('routing/direction', payload)).toEqual({
      status: 400,
      type: 'application/json',
      body: { error },
    })
  })
})
