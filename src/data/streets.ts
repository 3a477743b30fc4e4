import { seededFaker } from './faker.ts'
import { LOCALITIES, type Locality } from './gazetteer.ts'
import { radians } from './geo.ts'
import { STREET_NAMESAKES, STREET_TYPES } from './street-names.ts'

export interface Street {
  id: string
  /** e.g. "Avenue Habib Bourguiba". */
  fr: string
  ar: string
  locality: Locality
  lat: number
  lng: number
  /** Half-length along the street's axis, in degrees of latitude. */
  halfLength: number
  /** Heading of the street's axis, radians. */
  heading: number
  /** Highest house number on the street. */
  maxNumber: number
}

/** Towns this big or seats of government get generated streets. */
const MIN_POPULATION = 8000
const SEATS = new Set(['PPLC', 'PPLA', 'PPLA2'])

/** GeoNames' Tunis, the capital's locality. */
export const TUNIS_ID = 'gn:2464470'

/** The docs call this point "Tunis centre" and put Avenue Habib Bourguiba there; keep both there. */
export const TUNIS_BOURGUIBA = { lat: 36.8002, lng: 10.1815 }

/**
 * Generates plausible streets for Tunisia's towns, the same for the same seed: every town has
 * an Avenue Habib Bourguiba (as nearly every Tunisian town does), plus more streets the bigger
 * it is, named after the namesakes Tunisian streets carry.
 * @example generateStreets('demo').find((s) => s.fr === 'Avenue Habib Bourguiba')
 */
export function generateStreets(seed: string | number): Street[] {
  const faker = seededFaker(seed, 'streets')
  const types = STREET_TYPES.map(([fr, ar, weight]) => ({ weight, value: { fr, ar } }))
  const streets: Street[] = []
  for (const locality of LOCALITIES) {
    const pop = locality.pop ?? 0
    if (pop < MIN_POPULATION && !SEATS.has(locality.fc ?? '')) continue
    const count = Math.min(40, 4 + Math.round(Math.sqrt(pop) / 25))
    const radius = Math.min(0.05, 0.006 + Math.sqrt(pop) / 20000)
    const namesakes = faker.helpers.arrayElements(STREET_NAMESAKES.slice(1), count - 1)
    const names = [
      { type: { fr: 'Avenue', ar: 'شارع' }, namesake: STREET_NAMESAKES[0]! },
      ...namesakes.map((namesake) => ({ type: faker.helpers.weightedArrayElement(types), namesake })),
    ]
    names.forEach(({ type, namesake }, i) => {
      const [nameFr, nameAr] = namesake
      const pinned = i === 0 && locality.id === TUNIS_ID ? TUNIS_BOURGUIBA : undefined
      const angle = faker.number.float({ min: 0, max: Math.PI * 2 })
      const dist = i === 0 ? radius * 0.1 : faker.number.float({ min: 0.1, max: 1 }) * radius
      streets.push({
        id: `street:${locality.id}:${i}`,
        fr: `${type.fr} ${nameFr}`,
        ar: `${type.ar} ${nameAr}`,
        locality,
        lat: round(pinned?.lat ?? locality.lat + Math.sin(angle) * dist),
        lng: round(pinned?.lng ?? locality.lng + (Math.cos(angle) * dist) / Math.cos(radians(locality.lat))),
        halfLength: faker.number.float({ min: 0.0012, max: i === 0 ? 0.006 : 0.003 }),
        heading: faker.number.float({ min: 0, max: Math.PI }),
        maxNumber: faker.number.int({ min: 20, max: i === 0 ? 240 : 120 }),
      })
    })
  }
  return streets
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6
}

/**
 * The two ends of a street's axis: the segment forward geocoding places its house numbers on,
 * reverse geocoding snaps to, and the map draws.
 * @example const [a, b] = streetEnds(street)
 */
export function streetEnds(street: Street): [{ lat: number; lng: number }, { lat: number; lng: number }] {
  const dLat = Math.sin(street.heading) * street.halfLength
  const dLng = (Math.cos(street.heading) * street.halfLength) / Math.cos(radians(street.lat))
  return [
    { lat: street.lat - dLat, lng: street.lng - dLng },
    { lat: street.lat + dLat, lng: street.lng + dLng },
  ]
}
