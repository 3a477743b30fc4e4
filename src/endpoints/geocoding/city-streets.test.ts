import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { surfaceAt } from '../../data/land.ts'

const { get } = apiClient('city-streets')

type LatLng = readonly [number, number]

// Reference points, read from public pages (listed here, apart from the data they check):
// fr.wikipedia's coordinates of Tunis's squares, and the landmarks' pages of src/data/landmarks.ts.
const VICTOIRE: LatLng = [36.79917, 10.17556] // Place de la Victoire, 36°47′57″N 10°10′32″E (fr.wikipedia)
const INDEPENDANCE: LatLng = [36.79944, 10.17861] // Place de l'Indépendance, 36°47′58″N 10°10′43″E (fr.wikipedia)
const QUATORZE: LatLng = [36.80028, 10.18611] // Place du 14-Janvier 2011, 36°48′01″N 10°11′10″E (fr.wikipedia)
const REPUBLIQUE: LatLng = [36.80583, 10.18028] // Place de la République, 36°48′21″N 10°10′49″E (fr.wikipedia)
const PASTEUR: LatLng = [36.82194, 10.17861] // Place Pasteur, 36°49′19″N 10°10′43″E (fr.wikipedia)
const PALESTINE: LatLng = [36.815, 10.17972] // Place de Palestine, 36°48′54″N 10°10′47″E (fr.wikipedia)
const MONGI_BALI: LatLng = [36.79556, 10.17944] // Place Mongi-Bali, 36°47′44″N 10°10′46″E (fr.wikipedia)
const KASBAH: LatLng = [36.79778, 10.1675] // Place de la Kasbah, 36°47′52″N 10°10′03″E (fr.wikipedia)
const MARINE: LatLng = [36.8, 10.198611] // Gare de Tunis-Marine (fr.wikipedia)
const ZITOUNA: LatLng = [36.7972, 10.1711] // Zitouna Mosque (Wikipedia)
const GARE: LatLng = [36.795, 10.180556] // Gare de Tunis (fr.wikipedia)
const BAB_SAADOUN: LatLng = [36.808681, 10.159028] // Bab Saadoun (fr.nearbywiki.org)
const DOCS: LatLng = [36.8002, 10.1815] // TMaps' documented answer for "Avenue Habib Bourguiba, Tunis"
const SOUSSE_MOSQUE: LatLng = [35.826667, 10.639722] // Great Mosque of Sousse (wikimapia)
const SFAX_MOSQUE: LatLng = [34.73611, 10.76083] // Great Mosque of Sfax (Wikipedia)
const NABEUL_MUSEUM: LatLng = [36.450833, 10.736389] // Musée de Nabeul, 36°27′3″N 10°44′11″E (de.wikipedia), on Avenue Habib-Bourguiba (commune-nabeul.gov.tn)
const MONASTIR_MOSQUE: LatLng = [35.7743848, 10.8305025] // Mosquée Bourguiba, rue de l'Indépendance (fr/en.wikipedia)

/** A point `east` and `north` metres from `a`. */
const off = (a: LatLng, east: number, north: number): LatLng => [
  a[0] + north / 110_540,
  a[1] + east / (111_320 * Math.cos((a[0] * Math.PI) / 180)),
]

/**
 * Streets and squares with the stretch of them their pages fix: each street runs between the
 * points its pages name as its ends or along it (a square is its point). Where the page gives only
 * one end and a direction, the stretch is that end and the direction (said per line).
 */
// biome-ignore format: a table
const REFERENCES: ReadonlyArray<{ name: string; town: string; line: readonly LatLng[]; source: string; at?: LatLng }> = [
  { name: 'Avenue Habib Bourguiba', town: 'Tunis', line: [INDEPENDANCE, DOCS, QUATORZE, MARINE], source: 'fr.wikipedia: from Place de l’Indépendance to Tunis-Marine, through Place du 14-Janvier' },
  { name: 'Avenue de France', town: 'Tunis', line: [VICTOIRE, INDEPENDANCE], source: 'fr.wikipedia: between Place de la Victoire and Place de l’Indépendance' },
  { name: 'Avenue Mohamed V', town: 'Tunis', line: [QUATORZE, PASTEUR], source: 'fr.wikipedia: Place du 14-Janvier and Place Pasteur both lie on it' },
  { name: 'Avenue de la Liberté', town: 'Tunis', line: [REPUBLIQUE, PASTEUR], source: 'fr.wikipedia: it starts at Place de la République and reaches Place Pasteur' },
  { name: 'Avenue de Paris', town: 'Tunis', line: [off(REPUBLIQUE, 50, -500), REPUBLIQUE], source: 'fr.wikipedia, webdo.tn: from Bourguiba north to Place de la République, on the line to Place Pasteur' },
  { name: 'Avenue de Carthage', town: 'Tunis', line: [off(GARE, 70, 400), off(GARE, 70, 0)], source: 'webdo.tn: south of Bourguiba, continuing Avenue de Paris, to the station' },
  { name: 'Rue de Rome', town: 'Tunis', line: [INDEPENDANCE, off(INDEPENDANCE, 0, 200)], source: 'franco.wiki (fr.wikipedia): from Place de l’Indépendance north' },
  { name: 'Rue Jamel Abdennasser', town: 'Tunis', line: [INDEPENDANCE, off(MONGI_BALI, -40, 0)], source: 'fr.wikipedia: prolongs Rue de Rome south, to Place Mongi-Bali’s west side' },
  { name: 'Rue Jemaa Zitouna', town: 'Tunis', line: [VICTOIRE, ZITOUNA], source: 'from Bab el Bhar to the Zitouna Mosque' },
  { name: 'Rue de la Kasbah', town: 'Tunis', line: [VICTOIRE, KASBAH], at: off(VICTOIRE, -120, 0), source: 'fr.wikipedia: from Place de la Victoire west into the Medina, up to the Kasbah' },
  { name: 'Avenue Habib Thameur', town: 'Tunis', line: [off(REPUBLIQUE, -150, -220), REPUBLIQUE], source: 'petitfute.com: from the end of Rue de Rome to Place de la République' },
  { name: 'Rue de Marseille', town: 'Tunis', line: [off(DOCS, 40, 0), off(DOCS, 20, 400)], source: 'fr.wikipedia (Avenue Habib-Bourguiba’s crossings): meets Bourguiba on its north side just east of Avenue de Paris' },
  { name: 'Boulevard du 9 Avril 1938', town: 'Tunis', line: [BAB_SAADOUN, off(BAB_SAADOUN, 250, -500)], source: 'from Bab Saadoun south along the Medina’s west side' },
  { name: 'Boulevard Bab Bnet', town: 'Tunis', line: [off(KASBAH, -150, 160), KASBAH], source: 'fr.wikipedia: it ends at Place de la Kasbah' },
  { name: 'Place de la Victoire', town: 'Tunis', line: [VICTOIRE], source: 'fr.wikipedia' },
  { name: "Place de l'Indépendance", town: 'Tunis', line: [INDEPENDANCE], source: 'fr.wikipedia' },
  { name: 'Place du 14 Janvier 2011', town: 'Tunis', line: [QUATORZE], source: 'fr.wikipedia' },
  { name: 'Place de la République', town: 'Tunis', line: [REPUBLIQUE], source: 'fr.wikipedia' },
  { name: 'Place Pasteur', town: 'Tunis', line: [PASTEUR], source: 'fr.wikipedia' },
  { name: 'Place de Palestine', town: 'Tunis', line: [PALESTINE], source: 'fr.wikipedia' },
  { name: 'Place Mongi Bali', town: 'Tunis', line: [MONGI_BALI], source: 'fr.wikipedia' },
  { name: 'Place de la Kasbah', town: 'Tunis', line: [KASBAH], source: 'fr.wikipedia' },
  { name: 'Place Barcelone', town: 'Tunis', line: [GARE], source: 'fr.wikipedia: the Gare de Tunis stands on the place' },
  { name: 'Avenue Habib Bourguiba', town: 'Sousse', line: [off(SOUSSE_MOSQUE, 120, 60), off(SOUSSE_MOSQUE, 60, 450)], source: 'by the Great Mosque (Bab Bhar), north: an approximation (see src/data/city-streets.ts)' },
  { name: 'Place Farhat Hached', town: 'Sousse', line: [off(SOUSSE_MOSQUE, 120, 60)], source: 'Bab Bhar’s square by the Great Mosque: an approximation' },
  { name: 'Avenue Hédi Chaker', town: 'Sfax', line: [off(SFAX_MOSQUE, -60, -420), off(SFAX_MOSQUE, -20, -700)], source: 'south from Bab Diwan to the Hôtel de ville: an approximation' },
  { name: 'Avenue Habib Bourguiba', town: 'Sfax', line: [off(SFAX_MOSQUE, -400, -695), off(SFAX_MOSQUE, 400, -705)], source: 'east-west through the Hôtel de ville (alecso.info): an approximation' },
  { name: 'Avenue Habib Bourguiba', town: 'Nabeul', line: [off(NABEUL_MUSEUM, 0, 50), NABEUL_MUSEUM], at: NABEUL_MUSEUM, source: '1001tunisia.com: from the Place de la Jarre 50 m towards the sea to the museum (de.wikipedia coordinates)' },
  { name: 'Place de la Jarre', town: 'Nabeul', line: [off(NABEUL_MUSEUM, 0, 50)], source: '1001tunisia.com: 50 m from the museum, away from the sea: an approximation' },
  { name: "Rue de l'Indépendance", town: 'Monastir', line: [MONASTIR_MOSQUE], source: 'fr.wikipedia: the Mosquée Bourguiba stands on it' },
]

/** Metres from a point to a polyline (or a point). */
function metresTo([lat, lng]: LatLng, line: readonly LatLng[]): number {
  const kx = 111_320 * Math.cos((lat * Math.PI) / 180)
  const ky = 110_540
  if (line.length === 1) return Math.hypot((line[0]![1] - lng) * kx, (line[0]![0] - lat) * ky)
  let best = Number.POSITIVE_INFINITY
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = [(line[i - 1]![1] - lng) * kx, (line[i - 1]![0] - lat) * ky]
    const [dx, dy] = [(line[i]![1] - line[i - 1]![1]) * kx, (line[i]![0] - line[i - 1]![0]) * ky]
    const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)))
    best = Math.min(best, Math.hypot(ax + dx * t, ay + dy * t))
  }
  return best
}

/** Where reverse geocoding is asked: `at`, else the reference's point or the middle of its first stretch. */
const middle = (line: readonly LatLng[]): LatLng =>
  line.length === 1 ? line[0]! : [(line[0]![0] + line[1]![0]) / 2, (line[0]![1] + line[1]![1]) / 2]

describe('the famous streets and squares of the largest cities, where they are', () => {
  it.each(REFERENCES)(
    'forward geocoding of "$name, $town" lands within 150 m of the real one',
    async (ref) => {
      const { status, body } = await get(
        'geocoding/forward',
        `q=${encodeURIComponent(`${ref.name}, ${ref.town}`)}&limit=1&lang=fr`,
      )
      expect(status).toBe(200)
      const [first] = body.results
      expect(first.components.street, ref.source).toBe(ref.name)
      expect(first.components.commune).toBe(ref.town)
      expect(metresTo([first.lat, first.lng], ref.line), ref.source).toBeLessThan(150)
    },
  )

  it.each(REFERENCES)('reverse geocoding on "$name, $town" names it', async (ref) => {
    const [lat, lng] = ref.at ?? middle(ref.line)
    const { status, body } = await get('geocoding/reverse', `lat=${lat}&lng=${lng}&lang=fr`)
    expect(status).toBe(200)
    expect(body.results[0].components.street, ref.source).toBe(ref.name)
  })

  // The TGM's stations (src/data/tgm.ts). Reference points: file B's coordinates (a public GitHub
  // journey planner's data file, "stations : TGM + Métros"), for the stations where file A (a
  // public seed script of Tunis transit stops, st-566 to st-583) agrees with it within 100 m.
  // biome-ignore format: a table
  const STATIONS: ReadonlyArray<readonly [query: string, ref: LatLng]> = [
    ['Gare TGM Le Bac', [36.81422, 10.29238]],
    ['Gare TGM La Goulette', [36.81803, 10.30197]],
    ['Station Nouvelle Goulette', [36.8199, 10.3056]],
    ['Gare TGM La Goulette Casino', [36.82378, 10.30846]],
    ['Station Khereddine', [36.82892, 10.31159]],
    ['Gare TGM Le Kram', [36.83633, 10.31664]],
    ['Station Carthage Salammbô', [36.84169, 10.31913]],
    ['Station Carthage Byrsa', [36.84623, 10.32183]],
    ['Gare TGM Carthage Dermech', [36.85009, 10.32559]],
    ['Station Carthage Hannibal', [36.85355, 10.32898]],
  ]
  it.each(STATIONS)(
    'forward geocoding of "%s" lands on the TGM station, within 150 m',
    async (query, ref) => {
      const { status, body } = await get(
        'geocoding/forward',
        `q=${encodeURIComponent(query)}&limit=1&lang=fr`,
      )
      expect(status).toBe(200)
      const [first] = body.results
      expect(metresTo([first.lat, first.lng], [ref]), JSON.stringify(first)).toBeLessThan(150)
    },
  )

  // Every place stands on land: the generated ones on the streets, the real landmarks where their
  // pages put them (Gare de Tunis Marine, the Great Mosque and the port of Sousse stood in the water
  // of the coarse coast until GSHHG's shore replaced it).
  it.each([
    ['the Medina of Tunis', 36.7975, 10.17],
    ['the shore of Lake Tunis', 36.805, 10.205],
    ['La Marsa', 36.8783, 10.3247],
    ["Sousse's port", 35.8265, 10.644],
  ])('nearby around %s: no place stands in the water', async (_name, lat, lng) => {
    const { status, body } = await get('geocoding/nearby', `lat=${lat}&lng=${lng}&radius=2000&limit=100`)
    expect(status).toBe(200)
    expect(body.results.length).toBeGreaterThan(10)
    const wet = body.results.filter(
      (r: { id: string; lat: number; lng: number }) => surfaceAt(r.lat, r.lng) !== 'land',
    )
    expect(wet).toEqual([])
  })
})
