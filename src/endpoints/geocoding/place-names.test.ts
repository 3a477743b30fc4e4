import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { LOCALITIES } from '../../data/gazetteer.ts'
import { mapLabels } from '../../map/labels.ts'
import { mercatorX } from '../../map/projection.ts'

const { get } = apiClient('place-names')

/** GeoNames spellings and the French ones Tunisians write (and the map draws). */
const SPELLINGS = [
  ['Aryanah', 'Ariana'],
  ['Salambaw', 'Salammbô'],
  ['Khayr ad Din', 'Kheireddine'],
  ['Galaat el Andeless', 'Galaat el Andalous'],
  ['Mennzel Bou Zelfa', 'Menzel Bouzelfa'],
  ['Al Karm', 'Le Kram'],
] as const

const locality = (name: string) => LOCALITIES.find((l) => l.name === name)!

describe('place names: the geocoder answers the names the map draws', () => {
  it.each(SPELLINGS)('finds %j by its GeoNames spelling and answers it as %j', async (geonames, french) => {
    const { status, body } = await get(
      'geocoding/forward',
      `q=${encodeURIComponent(geonames)}&type=locality&lang=fr&limit=5`,
    )
    expect(status).toBe(200)
    const l = locality(geonames)
    const hit = body.results.find(
      (r: { lat: number; lng: number }) => Math.abs(r.lat - l.lat) < 1e-3 && Math.abs(r.lng - l.lng) < 1e-3,
    )
    expect(hit, JSON.stringify(body.results)).toBeDefined()
    expect(hit.components.commune).toBe(french)
    expect(hit.formatted).toMatch(new RegExp(`^(\\d{4} )?${french},`))
    expect(JSON.stringify(body.results)).not.toContain(geonames)
  })

  it.each(SPELLINGS)('finds %j by the French name %j too', async (geonames, french) => {
    const { body } = await get(
      'geocoding/forward',
      `q=${encodeURIComponent(french)}&type=locality&lang=fr&limit=5`,
    )
    const l = locality(geonames)
    expect(
      body.results.some(
        (r: { lat: number; lng: number; components: { commune: string } }) =>
          Math.abs(r.lat - l.lat) < 1e-3 && r.components.commune === french,
      ),
      JSON.stringify(body.results),
    ).toBe(true)
  })

  it.each(SPELLINGS)('reverse geocoding at %j answers %j', async (geonames, french) => {
    const l = locality(geonames)
    const { status, body } = await get('geocoding/reverse', `lat=${l.lat}&lng=${l.lng}&type=locality&lang=fr`)
    expect(status).toBe(200)
    expect(body.results[0].components.commune).toBe(french)
    expect(JSON.stringify(body)).not.toContain(geonames)
  })

  it('names every town the map labels around Tunis as the map does (reverse, type=locality)', async () => {
    const box = [mercatorX(10.0), mercatorX(10.45)]
    const towns = mapLabels().filter(
      (l) => l.kind === 'town' && l.x > box[0]! && l.x < box[1]! && l.minZoom <= 12,
    )
    const byName = new Map(towns.map((t) => [t.fr, t]))
    let checked = 0
    for (const l of LOCALITIES) {
      if (l.lng < 10.0 || l.lng > 10.45 || l.lat < 36.6 || l.lat > 37.0) continue
      const { body } = await get('geocoding/reverse', `lat=${l.lat}&lng=${l.lng}&type=locality&limit=1`)
      const commune: string = body.results[0].components.commune
      // The answer is a name the map draws (or a place the map leaves out for room).
      if (byName.has(commune)) checked++
      expect(commune).not.toMatch(/^(Aryanah|Salambaw|Khayr ad Din|Al Karm|Sukrah|Gamart|Qamart)$/)
    }
    expect(checked).toBeGreaterThan(20)
  })

  it('gives generated places the town name the map draws (nearby, in Ariana and Le Kram)', async () => {
    for (const [geonames, french] of [SPELLINGS[0], SPELLINGS[5]]) {
      const l = locality(geonames)
      const { body } = await get('geocoding/nearby', `lat=${l.lat}&lng=${l.lng}&radius=800&limit=30&lang=fr`)
      expect(body.results.length).toBeGreaterThan(0)
      expect(JSON.stringify(body)).not.toContain(geonames)
      expect(body.results.some((p: { address: string }) => p.address.includes(french))).toBe(true)
    }
  })

  it('answers no locality "Douane" (a customs post in Nabeul) and names nothing after it', async () => {
    const { body } = await get('geocoding/forward', 'q=Douane&lang=fr')
    expect(JSON.stringify(body.results)).not.toContain('Douane')
    const d = locality('Douane')
    for (const path of ['reverse', 'nearby']) {
      const near = await get(`geocoding/${path}`, `lat=${d.lat}&lng=${d.lng}&limit=5&radius=1500&lang=fr`)
      expect(near.status).toBe(200)
      expect(near.body.results.length).toBeGreaterThan(0)
      expect(JSON.stringify(near.body.results)).not.toContain('Douane')
    }
  })
})
