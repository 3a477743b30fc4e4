import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTmapsMock, type TmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { createAnswerChecker } from './support/openapi.ts'

/**
 * Every endpoint asked hundreds of random requests, valid and not (fixed seed: the same requests
 * each run), through the mock's one pipeline; every answer, whatever its status, is checked
 * against the OpenAPI document: status declared, Content-Type, body against its status's schema
 * (Ajv 2020), Retry-After where declared.
 */
const SEED = 23
const API = 'https://api.tmaps.tn'
const answers = createAnswerChecker()
let mock: TmapsMock
let key: string

beforeAll(async () => {
  mock = createTmapsMock({ state: 'empty', seed: 'openapi' })
  key = (await mock.console.createKey({ name: 'Property' })).value
}, 60_000)
afterAll(() => {
  console.log(
    `openapi property: ${answers.total()} answers valid against openapi/tmaps.openapi.json, ${answers.failures.length} not (${answers.summary()})`,
  )
})

/** Sometimes left out, sometimes empty, sometimes junk: the parameter as a careless client sends it. */
const maybe = (valid: fc.Arbitrary<string>) =>
  fc.option(
    fc.oneof({ weight: 20, arbitrary: valid }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }),
    {
      freq: 3,
    },
  )
const num = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true }).map((n) => Number(n.toFixed(5)))
/** Town centres of Tunisia: points near them are on land and on the roads. */
// biome-ignore format: a table
const TOWNS = [[36.8002, 10.1815], [34.7406, 10.7603], [35.8256, 10.636], [35.6781, 10.0963], [37.2744, 9.8739],
  [33.8815, 10.0982], [34.425, 8.784], [36.4561, 10.7376], [35.7643, 10.8113], [36.7256, 9.1817], [35.1676, 8.8365],
  [33.3549, 10.5055], [33.9197, 8.1335]] as const
const inTunisia = fc
  .tuple(fc.constantFrom(...TOWNS), num(-0.04, 0.04), num(-0.04, 0.04))
  .map(([[lat, lng], dLat, dLng]) => ({
    lat: Number((lat + dLat).toFixed(5)),
    lng: Number((lng + dLng).toFixed(5)),
  }))
const anyPoint = fc.oneof(
  { weight: 6, arbitrary: inTunisia },
  { weight: 1, arbitrary: fc.record({ lat: num(-100, 100), lng: num(-200, 200) }) },
)
const latLngText = anyPoint.map((p) => `${p.lat},${p.lng}`)
const intText = (min: number, max: number) => fc.integer({ min, max }).map(String)
const pick = <T>(...values: T[]) => fc.constantFrom(...values)
const apiKey = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>('valid') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant('ak_0123456789abcdef0123456789abcdef') },
)

function url(path: string, params: Record<string, string | string[] | null | undefined>, keyChoice?: string) {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params))
    for (const one of value === null || value === undefined ? [] : [value].flat()) query.append(name, one)
  if (keyChoice !== undefined) query.set('api_key', keyChoice === 'valid' ? key : keyChoice)
  return `${path}?${query}`
}

async function ask(target: string, method: 'GET' | 'POST', body?: unknown): Promise<string[]> {
  const request = new Request(
    target,
    method === 'POST'
      ? { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : undefined,
  )
  const response = await mock.fetch(request)
  return answers.check(target, method, response)
}

/** Mostly one of the documented values, now and then another. */
const mostly = (valid: string[], invalid: string) =>
  fc.oneof({ weight: 15, arbitrary: pick(...valid) }, { weight: 1, arbitrary: fc.constant(invalid) })
const LANGS = mostly(['fr', 'en', 'ar'], 'de')
const PROFILES = mostly(['driving', 'walking', 'cycling', 'truck'], 'plane')
const GEOMETRY = mostly(['polyline', 'geojson'], 'wkt')
/** Points in Tunisia, now and then a list with some out of range. */
const points = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 9, arbitrary: fc.array(inTunisia, { minLength, maxLength }) },
    { weight: 1, arbitrary: fc.array(anyPoint, { minLength: 0, maxLength: maxLength + 1 }) },
  )
const BOOL_TEXT = pick('true', 'false', 'TRUE', '1')
const CATEGORIES = [
  'restaurant',
  'cafe',
  'pharmacy',
  'hospital',
  'bank',
  'atm',
  'mosque',
  'school',
  'bakery',
  'supermarket',
]

interface Case {
  name: string
  runs: number
  request: fc.Arbitrary<() => Promise<string[]>>
}

// biome-ignore format: one endpoint a block reads best
const CASES: Case[] = [
  {
    name: 'GET /geocoding/forward',
    runs: 400,
    request: fc.record({
      q: fc.option(fc.oneof(pick('Tunis', 'Sfax', 'Avenue Habib Bourguiba', '12 Avenue Habib Bourguiba, Sfax', 'Djerba', 'Médina de Tunis', '9ayrawen', 'صفاقس', 'Sidi Bou Said', 'Carrefour'), fc.string({ maxLength: 20 }), fc.string({ minLength: 257, maxLength: 300 })), { freq: 8 }),
      country: maybe(pick('TN', 'tn', 'FR', 'TUN')),
      limit: maybe(intText(-1, 25)),
      lang: maybe(LANGS),
      proximity: maybe(latLngText),
      bbox: maybe(fc.tuple(num(7, 10), num(30, 36), num(9, 12), num(35, 38)).map((b) => b.join(','))),
      type: maybe(pick('address', 'street', 'poi', 'locality', 'city')),
      key: apiKey,
    }).map(({ key, ...params }) => () => ask(url(`${API}/geocoding/forward`, params, key), 'GET')),
  },
  {
    name: 'GET /geocoding/reverse',
    runs: 400,
    request: fc.record({
      point: fc.option(anyPoint, { freq: 12 }),
      lang: maybe(LANGS),
      type: maybe(pick('address', 'street', 'poi', 'locality')),
      limit: maybe(intText(0, 6)),
      key: apiKey,
    }).map(({ key, point, ...params }) => () =>
      ask(url(`${API}/geocoding/reverse`, { ...params, lat: point && String(point.lat), lng: point && String(point.lng) }, key), 'GET')),
  },
  {
    name: 'GET /geocoding/nearby',
    runs: 400,
    request: fc.record({
      point: fc.option(anyPoint, { freq: 12 }),
      radius: fc.option(fc.oneof(intText(-5, 12_000), intText(1, 3000)), { freq: 12 }),
      categories: maybe(fc.uniqueArray(pick(...CATEGORIES), { minLength: 1, maxLength: 3 }).map((c) => c.join(','))),
      q: maybe(pick('pharmacie', 'cafe', 'carrefour', 'mosquee', 'صيدلية')),
      limit: maybe(intText(0, 101)),
      lang: maybe(LANGS),
      key: apiKey,
    }).map(({ key, point, ...params }) => () =>
      ask(url(`${API}/geocoding/nearby`, { ...params, lat: point && String(point.lat), lng: point && String(point.lng) }, key), 'GET')),
  },
  {
    name: 'GET /routing/direction',
    runs: 400,
    request: fc.record({
      from: fc.option(latLngText, { freq: 12 }),
      to: fc.option(latLngText, { freq: 12 }),
      profile: maybe(PROFILES),
      geometry: maybe(GEOMETRY),
      steps: maybe(BOOL_TEXT),
      alternatives: maybe(BOOL_TEXT),
      avoid: maybe(pick('tolls', 'highways,ferries', 'boats')),
      language: maybe(LANGS),
      key: apiKey,
    }).map(({ key, ...params }) => () => ask(url(`${API}/routing/direction`, params, key), 'GET')),
  },
  {
    name: 'POST /routing/direction',
    runs: 400,
    request: fc.record({
      body: fc.record({
        waypoints: points(2, 25),
        profile: PROFILES,
        geometry: GEOMETRY,
        steps: fc.oneof({ weight: 15, arbitrary: fc.boolean() }, { weight: 1, arbitrary: pick('true') }),
        alternatives: fc.boolean(),
        avoid: fc.oneof(pick('tolls', 'ferries,highways'), fc.constant(['tolls', 'highways'])),
        language: LANGS,
      }, { requiredKeys: ['waypoints'] }),
      key: apiKey,
    }).map(({ key, body }) => () => ask(url(`${API}/routing/direction`, {}, key), 'POST', body)),
  },
  {
    name: 'POST /routing/optimized',
    runs: 400,
    request: fc.record({
      body: fc.record({
        origin: fc.oneof({ weight: 15, arbitrary: inTunisia }, { weight: 1, arbitrary: anyPoint }),
        waypoints: fc.oneof({ weight: 9, arbitrary: fc.array(inTunisia, { minLength: 0, maxLength: 10 }) }, { weight: 1, arbitrary: fc.array(inTunisia, { minLength: 51, maxLength: 52 }) }),
        destination: inTunisia,
        profile: PROFILES,
        optimize: mostly(['duration', 'distance'], 'cost'),
        roundtrip: fc.oneof({ weight: 15, arbitrary: fc.boolean() }, { weight: 1, arbitrary: pick('yes') }),
        geometry: GEOMETRY,
        steps: fc.boolean(),
      }, { requiredKeys: ['waypoints'] }),
      key: apiKey,
    }).map(({ key, body }) => () => ask(url(`${API}/routing/optimized`, {}, key), 'POST', body)),
  },
  {
    name: 'POST /routing/isochrone',
    runs: 400,
    request: fc.record({
      body: fc.record({
        origin: fc.oneof({ weight: 8, arbitrary: inTunisia }, { weight: 1, arbitrary: fc.record({ lat: num(37.6, 38.5), lng: num(8, 12) }) }, { weight: 1, arbitrary: fc.constant({ lat: 'x' }) }),
        contours: fc.array(fc.oneof({ weight: 5, arbitrary: fc.record({ time: num(1, 60) }) }, { weight: 3, arbitrary: fc.record({ distance: num(0.5, 50) }) }, { weight: 1, arbitrary: fc.record({ time: num(-1, 70) }) }, { weight: 1, arbitrary: fc.constant({ time: 5, distance: 2 }) }), { minLength: 0, maxLength: 4 }),
        profile: PROFILES,
        colors: fc.array(pick('#22c55e', '#f59e0b', '#ef4444', '#2c5'), { minLength: 1, maxLength: 4 }),
      }, { requiredKeys: ['contours'] }),
      matchColors: fc.boolean(),
      key: apiKey,
    }).map(({ key, body, matchColors }) => {
      // Mostly one colour per contour, as documented; else whatever was drawn.
      const colors = matchColors && body.colors ? body.contours.map((_, i) => body.colors![i % body.colors!.length]) : body.colors
      return () => ask(url(`${API}/routing/isochrone`, {}, key), 'POST', { ...body, ...(colors && { colors }) })
    }),
  },
  {
    name: 'POST /distance-matrix',
    runs: 400,
    request: fc.record({
      body: fc.oneof(
        { weight: 19, arbitrary: fc.record({
          origins: points(1, 25),
          destinations: points(1, 25),
          profile: PROFILES,
          metrics: fc.uniqueArray(mostly(['duration', 'distance'], 'time'), { minLength: 0, maxLength: 2 }),
        }, { requiredKeys: ['origins'] }) },
        { weight: 1, arbitrary: fc.oneof(fc.constant([]), fc.constant('matrix'), fc.constant(null)) },
      ),
      key: apiKey,
    }).map(({ key, body }) => () => ask(url(`${API}/distance-matrix`, {}, key), 'POST', body)),
  },
  {
    name: 'GET /maps/static',
    runs: 300,
    request: fc.record({
      frame: fc.oneof(
        fc.record({ center: latLngText, zoom: fc.option(intText(-1, 19), { freq: 8 }).map((z) => z ?? undefined) }),
        fc.record({ bbox: fc.tuple(num(8, 10), num(33, 36), num(10, 11.5), num(36, 37.3)).map((b) => b.join(',')) }),
        fc.constant({}),
      ),
      size: fc.option(fc.oneof({ weight: 9, arbitrary: fc.tuple(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 })).map(([w, h]) => `${w}x${h}`) }, { weight: 1, arbitrary: pick('2000x10', '0x5', 'big') }), { freq: 12 }),
      style: maybe(pick('streets', 'dark', 'terrain', 'sunny', 'satellite')),
      marker: fc.array(fc.tuple(latLngText, pick('red', 'blue', '0x0066ff', 'nope'), pick('A', 'H', '', 'AB')).map((m) => m.join('|')), { maxLength: 3 }),
      path: fc.array(fc.array(latLngText, { minLength: 2, maxLength: 4 }).map((p) => `weight:3|color:0x0066ff|${p.join('|')}`), { maxLength: 2 }),
      key: apiKey,
    }).map(({ key, frame, ...params }) => () => ask(url(`${API}/maps/static`, { ...frame, ...params }, key), 'GET')),
  },
  {
    name: 'GET /r-tile/{z}/{x}/{y}',
    runs: 300,
    request: fc.record({
      z: fc.integer({ min: 0, max: 20 }),
      x: fc.nat(),
      y: fc.nat(),
      junk: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: pick('x', '25@2x', '-1', '1.5') }),
      key: apiKey,
    }).map(({ z, x, y, junk, key }) => {
      const n = 2 ** Math.min(z, 30)
      const path = `https://tiles.tmaps.tn/r-tile/${z}/${x % (n + 1)}/${junk ?? String(y % (n + 1))}`
      return () => ask(url(path, {}, key), 'GET')
    }),
  },
]

describe('every answer, against the OpenAPI document', () => {
  it.each(CASES.map((c) => [c.name, c]))(
    '%s: random valid and invalid requests',
    async (_, { runs, request }) => {
      await fc.assert(
        fc.asyncProperty(request, async (send) => {
          const problems = await send()
          expect(problems).toEqual([])
        }),
        { seed: SEED, numRuns: runs },
      )
    },
    300_000,
  )

  it('saw both answers and refusals of every operation', () => {
    const counts = Object.fromEntries(
      answers
        .summary()
        .split(', ')
        .map((entry) => entry.split(': ') as [string, string]),
    )
    for (const op of [
      'forwardGeocoding',
      'reverseGeocoding',
      'nearbySearch',
      'directionGet',
      'directionPost',
      'optimizedRoute',
      'isochrone',
      'distanceMatrix',
      'staticMap',
      'rasterTile',
    ]) {
      expect(Number(counts[`${op} 200`] ?? 0), `${op} 200`).toBeGreaterThan(20)
      expect(
        Number(counts[`${op} 400`] ?? 0) + Number(counts[`${op} 404`] ?? 0),
        `${op} 400`,
      ).toBeGreaterThan(5)
      expect(Number(counts[`${op} 401`] ?? 0), `${op} 401`).toBeGreaterThan(0)
    }
    expect(answers.failures).toEqual([])
  })
})
