import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { distanceKm } from '../src/data/geo.ts'
import { poiTowns, townCentre } from '../src/data/pois.ts'
import { apiClient } from './support/api-client.ts'

const { get } = apiClient('addresses')
type Item = { name: string; lat: number; lng: number; address: string }
type Result = {
  lat: number
  lng: number
  formatted: string
  type: string
  components: { street?: string; house_number?: string }
}

/**
 * "36 Avenue Habib Bourguiba, 1000 Tunis, Tunisie" -> number and the rest (a town address starts with its
 * 4-digit postcode instead).
 */
const split = (address: string) => {
  const m = /^(\d{1,3}) ([^,]+, .+, .+)$/.exec(address)
  return m ? { number: Number(m[1]), rest: m[2]! } : undefined
}

describe('one story across endpoints: nearby, reverse and forward agree on every address', () => {
  const towns = poiTowns().slice(0, 12)

  it('for every place nearby gives a street address: reverse at its point answers it, forward finds it within 30 m', async () => {
    let checked = 0
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...towns),
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
        async (town, dLat, dLng) => {
          const c = townCentre(town)
          const { body } = await get(
            'geocoding/nearby',
            `lat=${c.lat + dLat}&lng=${c.lng + dLng}&radius=600&limit=10&lang=fr`,
          )
          for (const place of body.results as Item[]) {
            const address = split(place.address)
            if (!address) continue
            checked++
            const back = await get('geocoding/reverse', `lat=${place.lat}&lng=${place.lng}&limit=1&lang=fr`)
            const first = (back.body.results as Result[])[0]!
            expect(first.type, place.name).toBe('address')
            const reversed = split(first.formatted)!
            expect(reversed.rest, place.name).toBe(address.rest)
            expect(Math.abs(reversed.number - address.number), place.name).toBeLessThanOrEqual(2)
            const found = await get(
              'geocoding/forward',
              `q=${encodeURIComponent(place.address)}&limit=1&lang=fr`,
            )
            const top = (found.body.results as Result[])[0]!
            expect(
              distanceKm(top, place) * 1000,
              `${place.name}: ${place.address} -> ${top.formatted}`,
            ).toBeLessThan(30)
          }
        },
      ),
      { numRuns: 25, seed: 7 },
    )
    expect(checked).toBeGreaterThan(50)
  }, 60_000)

  it('gives two places of a street two numbers unless they stand together', async () => {
    const { body } = await get('geocoding/nearby', 'lat=36.8002&lng=10.1815&radius=1500&limit=100&lang=fr')
    const byAddress = new Map<string, Item[]>()
    for (const p of body.results as Item[]) {
      if (!split(p.address)) continue
      byAddress.set(p.address, [...(byAddress.get(p.address) ?? []), p])
    }
    for (const [address, places] of byAddress) {
      for (const p of places) expect(distanceKm(p, places[0]!) * 1000, address).toBeLessThan(20)
    }
  })
})
