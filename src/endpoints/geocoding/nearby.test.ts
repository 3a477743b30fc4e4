import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { createTmapsCore } from '../../core/create-core.ts'
import { distanceKm } from '../../data/geo.ts'
import { onLand } from '../../data/land.ts'
import { POI_CATEGORIES, poiTowns, townCentre, townPlaces, townPois } from '../../data/pois.ts'
import { worldFor } from '../../data/world.ts'

const { get } = apiClient('nearby')
const nearby = (params: string) => get('geocoding/nearby', params)
const TUNIS = 'lat=36.8002&lng=10.1815'
const ids = (results: { id: string }[]) => results.map((r) => r.id)

describe('GET /geocoding/nearby', () => {
  it('answers the docs sample: pharmacies and hospitals around Tunis centre, nearest first', async () => {
    const { status, type, body } = await nearby(`${TUNIS}&radius=1500&categories=pharmacy,hospital&limit=10`)
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body.query).toEqual({
      lat: 36.8002,
      lng: 10.1815,
      radius: 1500,
      categories: ['pharmacy', 'hospital'],
      limit: 10,
      lang: 'fr',
    })
    expect(body.results.length).toBeGreaterThan(0)
    expect(body.results.length).toBeLessThanOrEqual(10)
    for (const poi of body.results) {
      expect(poi).toEqual({
        id: expect.stringMatching(/^poi_/),
        name: expect.stringMatching(/^(Pharmacie|Clinique|Hôpital) /),
        category: expect.stringMatching(/^(pharmacy|hospital)$/),
        categories: expect.arrayContaining([poi.category]),
        lat: expect.any(Number),
        lng: expect.any(Number),
        distance: expect.any(Number),
        address: expect.stringMatching(/Tunis, Tunisie$/),
        ...(poi.phone && { phone: expect.stringMatching(/^\+216 7\d \d{3} \d{3}$/) }),
        ...(poi.opening_hours && { opening_hours: expect.any(String) }),
      })
      expect(poi.distance).toBeLessThanOrEqual(1500)
      expect(Math.abs(poi.distance - distanceKm({ lat: 36.8002, lng: 10.1815 }, poi) * 1000)).toBeLessThan(
        0.1,
      )
    }
  })

  it('sorts by increasing distance, stays within the radius and the limit, for any point and radius', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 33, max: 37.2, noNaN: true }),
        fc.double({ min: 8.5, max: 11, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100 }),
        async (lat, lng, radius, limit) => {
          const { status, body } = await nearby(`lat=${lat}&lng=${lng}&radius=${radius}&limit=${limit}`)
          expect(status).toBe(200)
          expect(body.results.length).toBeLessThanOrEqual(limit)
          expect(new Set(ids(body.results)).size).toBe(body.results.length)
          const distances = body.results.map((r: { distance: number }) => r.distance)
          expect(distances).toEqual([...distances].sort((a, b) => a - b))
          expect(Math.max(0, ...distances)).toBeLessThanOrEqual(radius)
        },
      ),
      { numRuns: 40 },
    )
  })

  it('is denser in cities than in the desert', async () => {
    const count = async (point: string) =>
      (await nearby(`${point}&radius=5000&limit=100`)).body.results.length
    expect(await count(TUNIS)).toBe(100)
    expect(await count('lat=34.74056&lng=10.76028')).toBe(100) // Sfax
    expect(await count('lat=31.5&lng=9.5')).toBeLessThan(5) // the Grand Erg, Tataouine
    const within = async (point: string) =>
      (await nearby(`${point}&radius=1000&limit=100`)).body.results.length
    // Central Tunis has as many places within 1 km as the generator names uniquely (about 90);
    // a small town (5,000 to 10,000 people, away from others) far fewer.
    const tunis = await within(TUNIS)
    const small = poiTowns()
      .filter((t) => (t.pop ?? 0) >= 5000 && (t.pop ?? 0) < 10_000)
      .map(townCentre)
      .find((c) => distanceKm(c, { lat: 36.8, lng: 10.18 }) > 100)!
    const town = await within(`lat=${small.lat}&lng=${small.lng}`)
    expect(tunis).toBeGreaterThanOrEqual(75)
    expect(town).toBeLessThan(30)
    expect(tunis).toBeGreaterThan(town * 2.5)
  })

  it('combines categories with OR: a,b finds exactly what a and b find', async () => {
    const at = 'lat=35.8254&lng=10.6370&radius=2000&limit=100' // Sousse
    const both = await nearby(`${at}&categories=cafe,mosque`)
    const cafes = await nearby(`${at}&categories=cafe`)
    const mosques = await nearby(`${at}&categories=mosque`)
    expect(both.body.results.length).toBeLessThan(100)
    expect(new Set(ids(both.body.results))).toEqual(
      new Set([...ids(cafes.body.results), ...ids(mosques.body.results)]),
    )
    expect(cafes.body.results.length).toBeGreaterThan(0)
    expect(mosques.body.results.length).toBeGreaterThan(0)
  })

  it("accepts the docs' own example categories=restaurant,cafe,bakery: restaurants, cafés and boulangeries", async () => {
    const { status, body } = await nearby(`${TUNIS}&radius=1500&categories=restaurant,cafe,bakery&limit=100`)
    expect(status).toBe(200)
    expect(body.query.categories).toEqual(['restaurant', 'cafe', 'bakery'])
    const bakeries = body.results.filter((poi: { categories: string[] }) => poi.categories.includes('bakery'))
    expect(bakeries.length).toBeGreaterThan(0)
    for (const poi of bakeries) {
      expect(poi.name).toMatch(/^Boulangerie /)
      expect(poi).toMatchObject({ category: 'shopping', categories: ['shopping', 'bakery'] })
    }
    for (const poi of body.results)
      expect(poi.categories.some((c: string) => ['restaurant', 'cafe', 'bakery'].includes(c))).toBe(true)
    const alone = await nearby(`${TUNIS}&radius=1500&categories=bakery&limit=100`)
    expect(ids(alone.body.results)).toEqual(ids(bakeries))
  })

  it('files every place under what it answers to: a mosque is a place of worship, a school is education', async () => {
    const { body } = await nearby(`${TUNIS}&radius=3000&limit=100`)
    for (const poi of body.results) {
      if (poi.categories.includes('mosque')) expect(poi.categories).toContain('place_of_worship')
      if (poi.categories.includes('school')) expect(poi.categories).toContain('education')
      if (poi.categories.includes('atm')) expect(poi.categories).toContain('bank')
      for (const c of poi.categories) expect(POI_CATEGORIES).toContain(c)
    }
    for (const category of POI_CATEGORIES) {
      const found = await nearby(`${TUNIS}&radius=10000&limit=1&categories=${category}`)
      expect(found.body.results, category).toHaveLength(1)
    }
  })

  it('filters by name with q, in any language and without accents', async () => {
    const carrefour = await nearby(`${TUNIS}&radius=10000&q=carrefour&limit=100`)
    expect(carrefour.body.results.length).toBeGreaterThan(0)
    for (const poi of carrefour.body.results) expect(poi.name).toMatch(/^Carrefour/)
    const arabic = await nearby(`${TUNIS}&radius=3000&q=${encodeURIComponent('صيدلية')}&lang=ar&limit=100`)
    expect(arabic.body.results.length).toBeGreaterThan(0)
    for (const poi of arabic.body.results) expect(poi.category).toBe('pharmacy')
    const accents = await nearby(`${TUNIS}&radius=3000&q=mosquee&limit=100`)
    expect(accents.body.results.length).toBeGreaterThan(0)
    for (const poi of accents.body.results) expect(poi.name).toMatch(/Mosquée/)
    const nothing = await nearby(`${TUNIS}&radius=3000&q=zzzzqx`)
    expect(nothing).toMatchObject({ status: 200, body: { results: [] } })
  })

  it('names the same places in fr, en and ar', async () => {
    const at = `${TUNIS}&radius=2000&limit=30`
    const [fr, en, ar] = await Promise.all(['fr', 'en', 'ar'].map((lang) => nearby(`${at}&lang=${lang}`)))
    expect(ids(en!.body.results)).toEqual(ids(fr!.body.results))
    expect(ids(ar!.body.results)).toEqual(ids(fr!.body.results))
    for (const poi of ar!.body.results) expect(poi.name).toMatch(/\p{Script=Arabic}/u)
    expect(ar!.body.results[0].address).toMatch(/تونس$/)
    expect(
      en!.body.results.some((p: { name: string }) => /(Pharmacy|Café|Mosque|Restaurant)/.test(p.name)),
    ).toBe(true)
  })

  it('is deterministic per seed and differs between seeds', async () => {
    const url = `https://api.tmaps.tn/geocoding/nearby?${TUNIS}&radius=4000&limit=50`
    const answer = async (seed: string) => {
      const core = createTmapsCore({ state: 'empty', seed })
      const { value } = await core.console.createKey({ name: 'Seed' })
      return (await core.fetch(new Request(`${url}&api_key=${value}`))).json()
    }
    expect(await answer('one')).toEqual(await answer('one'))
    expect(await answer('one')).not.toEqual(await answer('two'))
    // A town's places do not depend on what was asked before.
    const tunis = poiTowns().find((t) => t.id === 'gn:2464470')!
    const streets = worldFor('fresh').streetsOf(tunis.id)
    expect(townPois('fresh', tunis, streets)).toEqual(townPois('fresh', tunis, streets))
  })

  it('keeps generated places on the land the map draws (no lake, lagoon or salt flat)', () => {
    const coastal = poiTowns().filter((t) => (t.pop ?? 0) > 50_000)
    for (const town of coastal) {
      for (const poi of townPlaces(worldFor('land'), town)) {
        expect(onLand(poi.lat, poi.lng), `${poi.name.fr} ${poi.lat},${poi.lng}`).toBe(true)
      }
    }
  })

  it('is what reverse geocoding finds at a place', async () => {
    const { body } = await nearby(`lat=36.8065&lng=10.1815&radius=800&limit=5&lang=en`)
    for (const poi of body.results) {
      const reverse = await get('geocoding/reverse', `lat=${poi.lat}&lng=${poi.lng}&type=poi&lang=en`)
      expect(reverse.body.results[0]).toMatchObject({ type: 'poi', distance: 0 })
      expect(reverse.body.results[0].formatted.startsWith(`${poi.name}, `)).toBe(true)
    }
  })

  it.each([
    ['lng=10.18&radius=100', 'missing required param: lat'],
    ['lat=36.8&radius=100', 'missing required param: lng'],
    ['lat=36.8&lng=10.18', 'missing required param: radius'],
    ['lat=36.8&lng=10.18&radius=', 'missing required param: radius'],
    ['lat=36.8&lng=10.18&radius=10001', 'invalid param: radius'],
    ['lat=36.8&lng=10.18&radius=0', 'invalid param: radius'],
    ['lat=36.8&lng=10.18&radius=1500.5', 'invalid param: radius'],
    ['lat=36.8&lng=10.18&radius=1km', 'invalid param: radius'],
    ['lat=91&lng=10.18&radius=100', 'invalid param: lat'],
    ['lat=36.8&lng=10.18&radius=100&categories=bakeries', 'invalid param: categories'],
    ['lat=36.8&lng=10.18&radius=100&categories=restaurant,,cafe', 'invalid param: categories'],
    ['lat=36.8&lng=10.18&radius=100&categories=Restaurant', 'invalid param: categories'],
    ['lat=36.8&lng=10.18&radius=100&limit=0', 'invalid param: limit'],
    ['lat=36.8&lng=10.18&radius=100&limit=101', 'invalid param: limit'],
    ['lat=36.8&lng=10.18&radius=100&lang=de', 'invalid param: lang'],
    [`lat=36.8&lng=10.18&radius=100&q=${'a'.repeat(257)}`, 'invalid param: q'],
  ])('answers 400 for %s', async (params, error) => {
    expect(await nearby(params)).toEqual({ status: 400, type: 'application/json', body: { error } })
  })
})
