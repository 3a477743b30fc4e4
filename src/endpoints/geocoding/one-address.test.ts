import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { distanceKm } from '../../data/geo.ts'

const { get } = apiClient('tmaps')

/** Five cities' centres; random points fall within ~2 km of them. */
const CITIES: ReadonlyArray<readonly [string, number, number]> = [
  ['Tunis', 36.8002, 10.1815],
  ['Sfax', 34.74, 10.76],
  ['Sousse', 35.8256, 10.6084],
  ['Bizerte', 37.2744, 9.8739],
  ['Gabès', 33.8815, 10.0982],
]
/** "22 Place de l'Indépendance, 1000 Tunis, Tunisie": a house number, then its street. */
const NUMBERED = /^\d{1,3}[a-z]? \D/

describe('a place has one address, whichever endpoint is asked', () => {
  it.each(CITIES)(
    'nearby and reverse give every place of %s the same numbered address',
    async (_, lat, lng) => {
      await fc.assert(
        fc.asyncProperty(
          fc.double({ min: -0.018, max: 0.018, noNaN: true }),
          fc.double({ min: -0.022, max: 0.022, noNaN: true }),
          fc.constantFrom('fr', 'ar'),
          async (dLat, dLng, lang) => {
            const at = `lat=${(lat + dLat).toFixed(5)}&lng=${(lng + dLng).toFixed(5)}`
            const { body } = await get('geocoding/nearby', `${at}&radius=400&limit=100&lang=${lang}`)
            const numbered = body.results.filter((r: { address: string }) =>
              lang === 'ar' ? /^\d{1,3}[a-z]? /.test(r.address) : NUMBERED.test(r.address),
            )
            for (const place of numbered.slice(0, 6)) {
              const point = `lat=${place.lat}&lng=${place.lng}&lang=${lang}`
              const [first, address] = await Promise.all([
                get('geocoding/reverse', point),
                get('geocoding/reverse', `${point}&type=address`),
              ])
              expect(first.body.results[0].formatted, place.name).toBe(place.address)
              expect(address.body.results[0].formatted, place.name).toBe(place.address)
            }
          },
        ),
        { numRuns: 12 },
      )
    },
  )

  it.each(CITIES)(
    'a generated place of %s stands at its address: forward geocoding of it lands there',
    async (_, lat, lng) => {
      const { body } = await get('geocoding/nearby', `lat=${lat}&lng=${lng}&radius=1500&limit=100&lang=fr`)
      const numbered = body.results.filter((r: { id: string; address: string }) => NUMBERED.test(r.address))
      expect(numbered.length).toBeGreaterThan(40)
      for (const place of numbered) {
        const found = await get(
          'geocoding/forward',
          `q=${encodeURIComponent(place.address)}&type=address&limit=1`,
        )
        const [door] = found.body.results
        expect(door.formatted, place.name).toBe(place.address)
        expect(distanceKm(door, place) * 1000, place.name).toBeLessThan(30)
      }
      // And almost every generated place has a numbered address: it stands at a door of its street.
      const generated = body.results.filter(
        (r: { id: string }) => !/^poi_(landmark|airport|port)_/.test(r.id),
      )
      expect(numbered.length / generated.length).toBeGreaterThan(0.97)
    },
  )
})
