import { describe, expect, it } from 'vitest'
import { distanceKm } from '../src/data/geo.ts'
import { LANDMARKS } from '../src/data/landmarks.ts'
import { LANDMARK_POIS } from '../src/data/pois.ts'
import { apiClient } from './support/api-client.ts'

const { get } = apiClient('landmarks')
type Result = { lat: number; lng: number; formatted: string; type: string; name?: string }

/** The landmarks placed at the building, and the airports (OurAirports: at the facility). */
const CHECKED = [
  ...LANDMARKS,
  ...LANDMARK_POIS.filter((p) => p.id.startsWith('poi_airport_')).map((p) => ({
    name: p.name,
    lat: p.lat,
    lng: p.lng,
  })),
]

describe('real landmarks, where a Tunisian knows them to be', () => {
  it('has at least 40 of them, each in Tunisia with three names and a source (56 with the airports)', () => {
    expect(LANDMARKS.length).toBeGreaterThanOrEqual(40)
    expect(CHECKED.length).toBeGreaterThanOrEqual(50)
    for (const l of LANDMARKS) {
      expect(l.lat).toBeGreaterThan(30)
      expect(l.lat).toBeLessThan(37.6)
      expect(l.lng).toBeGreaterThan(7.5)
      expect(l.lng).toBeLessThan(11.7)
      expect(l.name.fr && l.name.en && l.name.ar).toBeTruthy()
      expect(l.source).toMatch(/^https?:\/\//)
    }
    expect(new Set(LANDMARKS.map((l) => l.id)).size).toBe(LANDMARKS.length)
  })

  it.each(CHECKED.map((l) => [l.name.fr, l] as const))(
    'forward geocoding "%s" answers it first, within 300 m',
    async (_name, l) => {
      const { status, body } = await get('geocoding/forward', `q=${encodeURIComponent(l.name.fr)}&limit=1`)
      expect(status).toBe(200)
      const top = (body.results as Result[])[0]!
      expect(distanceKm(top, l) * 1000, JSON.stringify(top)).toBeLessThan(300)
    },
  )

  it('is found by the names people use: Zitouna as Tunis’s great mosque, the Ghriba, Radès', async () => {
    for (const [q, id] of [
      ['Grande Mosquée de Tunis', 'mosquee-zitouna'],
      ['جامع الزيتونة', 'mosquee-zitouna'],
      ['Mosquée Zitouna', 'mosquee-zitouna'],
      ['La Ghriba Djerba', 'synagogue-de-la-ghriba'],
      ['Stade de Radès', 'stade-hammadi-agrebi'],
      ['Musée du Bardo', 'musee-national-du-bardo'],
      ['Cathédrale de Tunis', 'cathedrale-saint-vincent-de-paul-de-tunis'],
    ] as const) {
      const l = LANDMARKS.find((x) => x.id === id)!
      const { body } = await get('geocoding/forward', `q=${encodeURIComponent(q)}&limit=1`)
      const top = (body.results as Result[])[0]!
      expect(distanceKm(top, l) * 1000, `${q}: ${JSON.stringify(top)}`).toBeLessThan(300)
    }
  })

  it.each(CHECKED.map((l) => [l.name.fr, l] as const))('nearby around "%s" lists it', async (_name, l) => {
    const { status, body } = await get('geocoding/nearby', `lat=${l.lat}&lng=${l.lng}&radius=100&limit=50`)
    expect(status).toBe(200)
    const names = (body.results as Array<{ name: string }>).map((r) => r.name)
    expect(names).toContain(l.name.fr)
  })

  it('leaves no generated "Grande Mosquée" where the real one stands', async () => {
    const { body } = await get(
      'geocoding/nearby',
      'lat=36.7972&lng=10.1711&radius=3000&limit=100&categories=mosque',
    )
    const names = (body.results as Array<{ name: string }>).map((r) => r.name)
    expect(names).toContain('Mosquée Zitouna')
    expect(names).not.toContain('Grande Mosquée de Tunis')
  })
})

describe('the real main streets of the largest cities', () => {
  it.each([
    ['Rue de Marseille, Tunis', 'Rue de Marseille', 'Tunis'],
    ['Avenue de France, Tunis', 'Avenue de France', 'Tunis'],
    ['Avenue Mohamed V, Tunis', 'Avenue Mohamed V', 'Tunis'],
    ['Avenue Hédi Chaker, Sfax', 'Avenue Hédi Chaker', 'Sfax'],
    ['Avenue Majida Boulila Sfax', 'Avenue Majida Boulila', 'Sfax'],
    ['Boulevard Yahia Ibn Omar, Sousse', 'Boulevard Yahia Ibn Omar', 'Sousse'],
    ['نهج مرسيليا تونس', 'نهج مرسيليا', 'تونس'],
  ])('finds "%s"', async (q, street, commune) => {
    const lang = /[\u0600-\u06FF]/.test(q) ? 'ar' : 'fr'
    const { body } = await get('geocoding/forward', `q=${encodeURIComponent(q)}&limit=1&lang=${lang}`)
    const top = body.results[0] as { type: string; components: { street: string; commune: string } }
    expect(top.type).toBe('street')
    expect(top.components.street).toBe(street)
    expect(top.components.commune).toBe(commune)
  })
})

describe('one landmark, one answer in every endpoint', () => {
  it.each(LANDMARKS.slice(0, 12).map((l) => [l.name.fr, l] as const))(
    '"%s": reverse lists it once, and forward and nearby give it the same town and postcode',
    async (_name, l) => {
      const back = await get('geocoding/reverse', `lat=${l.lat}&lng=${l.lng}&type=poi&limit=5&lang=fr`)
      const named = (back.body.results as Result[]).filter((r) => r.formatted.startsWith(`${l.name.fr}, `))
      expect(named).toHaveLength(1)
      const found = await get('geocoding/forward', `q=${encodeURIComponent(l.name.fr)}&limit=1&lang=fr`)
      const near = await get('geocoding/nearby', `lat=${l.lat}&lng=${l.lng}&radius=50&limit=50&lang=fr`)
      const item = (near.body.results as Array<{ name: string; address: string }>).find(
        (r) => r.name === l.name.fr,
      )!
      // "1009 Kasbah, Tunis, Tunisie" (nearby) and "Mosquée Zitouna, 1009 Kasbah, Tunisie" (forward).
      const town = /(\d{4} [^,]+)/.exec(item.address)![1]!
      expect((found.body.results as Result[])[0]!.formatted).toContain(town)
      expect(named[0]!.formatted).toContain(town)
    },
  )
})
