import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { distanceKm } from '../../data/geo.ts'
import { LANDMARKS } from '../../data/landmarks.ts'
import { geocoderFor } from './geocoder.ts'

const client = apiClient('reverse')
const get = (path: string, params: string) => client.get(`geocoding/${path}`, params)

describe('GET /geocoding/reverse', () => {
  it('answers the docs sample point with an address in the documented shape', async () => {
    const { status, type, body } = await get('reverse', 'lat=36.8002&lng=10.1815&lang=en')
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body.query).toEqual({ lat: 36.8002, lng: 10.1815 })
    expect(body.results).toEqual([
      {
        lat: expect.any(Number),
        lng: expect.any(Number),
        formatted: expect.stringMatching(/^\d+ Avenue Habib Bourguiba, 10\d\d Tunis, Tunisia$/),
        distance: expect.any(Number),
        type: 'address',
        components: expect.objectContaining({
          street: 'Avenue Habib Bourguiba',
          commune: 'Tunis',
          governorate: 'Tunis',
          country: 'TN',
        }),
      },
    ])
    expect(body.results[0].distance).toBeLessThan(150)
  })

  it('gives each type on request, nearest first (a locality: the containing one first; an address: its own), up to limit', async () => {
    for (const type of ['address', 'street', 'poi', 'locality']) {
      const { body } = await get('reverse', `lat=36.8002&lng=10.1815&type=${type}&limit=5`)
      expect(body.results.length, type).toBeGreaterThan(0)
      expect(body.results.length).toBeLessThanOrEqual(5)
      expect(body.results.every((r: { type: string }) => r.type === type)).toBe(true)
      const distances = body.results.map((r: { distance: number }) => r.distance)
      const sorted = type === 'locality' || type === 'address' ? distances.slice(1) : distances
      expect(sorted).toEqual([...sorted].sort((a, b) => a - b))
    }
  })

  it('names the landmark a point stands at before any address, and a street through its point from the street', async () => {
    // Where a real street or square meets a landmark's point, the point is on the street: its
    // address first (Place Barcelone's is the station's; the avenue ends at Tunis Marine; the
    // boulevard starts at Bab Saadoun's gate).
    const onStreet = new Set(['gare-de-tunis', 'gare-de-tunis-marine', 'bab-saadoun'])
    // Every other real landmark, at its own point (Zitouna, Bab Bhar, El Jem, the Ribat of Sousse, ...).
    for (const l of LANDMARKS) {
      const { body } = await get('reverse', `lat=${l.lat}&lng=${l.lng}&lang=fr`)
      const named = (r: { type: string; formatted: string }) =>
        r.type === 'poi' && r.formatted.startsWith(`${l.name.fr}, `)
      if (onStreet.has(l.id)) {
        expect(body.results[0].type, l.id).toBe('address')
        const pois = await get('reverse', `lat=${l.lat}&lng=${l.lng}&lang=fr&type=poi`)
        expect(named(pois.body.results[0]), l.id).toBe(true)
      } else {
        expect(body.results[0], l.id).toMatchObject({ type: 'poi', distance: 0 })
        expect(named(body.results[0]), `${l.id}: ${body.results[0].formatted}`).toBe(true)
      }
    }
    // The gazetteer's own landmarks too: Sidi Bou Saïd's point is Sidi Bou Saïd.
    const sidiBouSaid = await get('reverse', 'lat=36.8687&lng=10.34174&lang=fr')
    expect(sidiBouSaid.body.results[0].formatted).toMatch(/^Sidi Bou Saïd, /)
    // In El Jem's arena, 35 m from its point: still the amphitheatre.
    const arena = await get('reverse', 'lat=35.2966&lng=10.7072&lang=fr')
    expect(arena.body.results[0].formatted).toMatch(/^Amphithéâtre d'El Jem, /)
    // On Rue Jemaa Zitouna, before the mosque's front, 50 m from its point: the street's address.
    const street = await get('reverse', 'lat=36.7975&lng=10.1716&lang=fr')
    expect(street.body.results[0]).toMatchObject({
      type: 'address',
      components: { street: 'Rue Jemaa Zitouna' },
    })
  })

  it("answers type=locality with the commune containing the point (its street's town), as documented", async () => {
    const address = (await get('reverse', 'lat=36.8002&lng=10.1815')).body.results[0]
    const { body } = await get('reverse', 'lat=36.8002&lng=10.1815&type=locality&limit=2')
    expect(address.components.commune).toBe('Tunis')
    expect(body.results[0]).toMatchObject({ type: 'locality', components: { commune: 'Tunis' } })
    // Not the nearest town centre (Bab Alleoua, 1.1 km away): that one comes after.
    expect(body.results[1].components.commune).not.toBe('Tunis')
  })

  it('answers in Arabic with lang=ar', async () => {
    const { body } = await get('reverse', 'lat=35.6781&lng=10.0963&type=locality&lang=ar')
    expect(body.results[0].components.governorate).toBe('القيروان')
  })

  it('answers the nearest locality where there is no street (the desert)', async () => {
    const { body } = await get('reverse', 'lat=31.5&lng=9.4')
    expect(body.results).toHaveLength(1)
    expect(body.results[0]).toMatchObject({ type: 'locality', components: { governorate: 'Tataouine' } })
    expect(body.results[0].distance).toBeGreaterThan(1000)
  })

  it.each([
    ['at sea between Tunisia and Sicily', 'lat=37.6&lng=11.3'],
    ['in the Gulf of Gabès, far offshore', 'lat=33.9&lng=11.3'],
    ['in Paris', 'lat=48.8566&lng=2.3522'],
    ['in the Sahara, in Algeria', 'lat=31&lng=5'],
  ])('answers an empty list %s', async (_, params) => {
    const { status, body } = await get('reverse', params)
    expect(status).toBe(200)
    expect(body.results).toEqual([])
  })

  it('lands near x for reverse(forward(x)), on the same street and house', async () => {
    const streets = geocoderFor('reverse').places.filter((p) => p.kind === 'street')
    await fc.assert(
      fc.asyncProperty(fc.nat(streets.length - 1), fc.integer({ min: 1, max: 60 }), async (i, n) => {
        const street = streets[i]!
        fc.pre(n <= street.street!.maxNumber)
        const q = `${n} ${street.name.fr}, ${street.commune!.fr}`
        const forward = (await get('forward', `q=${encodeURIComponent(q)}&type=address&limit=1`)).body
          .results[0]
        expect(forward).toBeDefined()
        const back = (await get('reverse', `lat=${forward.lat}&lng=${forward.lng}&type=address`)).body
          .results[0]
        expect(distanceKm(forward, back) * 1000).toBeLessThan(30)
      }),
      { numRuns: 40 },
    )
  })

  it('finds the same locality back from its forward point', async () => {
    for (const q of ['Sfax', 'Bizerte', 'Tozeur', 'Kairouan']) {
      const forward = (await get('forward', `q=${q}&type=locality&limit=1`)).body.results[0]
      const back = (await get('reverse', `lat=${forward.lat}&lng=${forward.lng}&type=locality`)).body
        .results[0]
      expect(back.formatted).toBe(forward.formatted)
      expect(back.distance).toBe(0)
    }
  })

  it.each([
    ['lng=10', 'missing required param: lat'],
    ['lat=36.8', 'missing required param: lng'],
    ['lat=&lng=10', 'missing required param: lat'],
    ['lat=91&lng=10', 'invalid param: lat'],
    ['lat=36.8&lng=181', 'invalid param: lng'],
    ['lat=abc&lng=10', 'invalid param: lat'],
    ['lat=36.8&lat=36.9&lng=10', 'invalid param: lat'],
    ['lat=36.8&lng=10&limit=6', 'invalid param: limit'],
    ['lat=36.8&lng=10&limit=0', 'invalid param: limit'],
    ['lat=36.8&lng=10&type=city', 'invalid param: type'],
    ['lat=36.8&lng=10&lang=it', 'invalid param: lang'],
  ])('answers %j with 400 %j', async (params, error) => {
    const { status, body } = await get('reverse', params)
    expect(status).toBe(400)
    expect(body).toEqual({ error })
  })
})
