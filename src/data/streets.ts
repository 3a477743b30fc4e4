import { LOCALITIES, type Locality } from './gazetteer.ts'
import { KM_PER_DEGREE, type LatLng, M_PER_DEGREE_LAT, radians } from './geo.ts'
import { onLand } from './land.ts'
import { seededRandom } from './seeded.ts'
import { CITY_STREETS, STREET_NAMESAKES, STREET_TYPES } from './street-names.ts'

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
  // A small seeded generator, not faker: the map's worker draws streets and never loads faker.
  const random = seededRandom(seed, 'streets')
  const streets: Street[] = []
  for (const locality of LOCALITIES) {
    const pop = locality.pop ?? 0
    if (pop < MIN_POPULATION && !SEATS.has(locality.fc ?? '')) continue
    const count = Math.min(40, 4 + Math.round(Math.sqrt(pop) / 25))
    const radius = Math.min(0.05, 0.006 + Math.sqrt(pop) / 20000)
    // A city's real main streets first (Avenue de France, Rue de Marseille...), then namesakes.
    const real = (CITY_STREETS[locality.name] ?? []).slice(0, count - 1)
    const others = STREET_NAMESAKES.slice(1).filter(([fr]) => !real.some(([name]) => name.endsWith(` ${fr}`)))
    const namesakes = random.pick(others, count - 1 - real.length)
    const names: Array<readonly [fr: string, ar: string]> = [
      ['Avenue Habib Bourguiba', 'شارع الحبيب بورقيبة'],
      ...real,
      ...namesakes.map(([fr, ar]) => {
        const [typeFr, typeAr] = random.weighted(STREET_TYPES)
        return [`${typeFr} ${fr}`, `${typeAr} ${ar}`] as const
      }),
    ]
    names.forEach(([fr, ar], i) => {
      const pinned = i === 0 && locality.id === TUNIS_ID ? TUNIS_BOURGUIBA : undefined
      // A street stands on the land the map draws, its doors too: drawn again (up to 12 times)
      // while any of it falls in the sea, a lake or on a salt flat, and left out after that.
      for (let attempt = 0; attempt < 12; attempt++) {
        const angle = random.float(0, Math.PI * 2)
        const dist = (i === 0 ? radius * 0.1 : random.float(0.1, 1) * radius) * (1 + attempt / 4)
        const street: Street = {
          id: `street:${locality.id}:${i}`,
          fr,
          ar,
          locality,
          lat: round(pinned?.lat ?? locality.lat + Math.sin(angle) * dist),
          lng: round(
            pinned?.lng ?? locality.lng + (Math.cos(angle) * dist) / Math.cos(radians(locality.lat)),
          ),
          halfLength: random.float(0.0012, i === 0 ? 0.006 : 0.003),
          heading: random.float(0, Math.PI),
          maxNumber: random.int(20, i === 0 ? 240 : 120),
        }
        if (pinned || onLandAlong(street)) {
          streets.push(street)
          return
        }
      }
    })
  }
  return streets
}

/** Whether a street's axis and both rows of doors stand on land (checked every tenth of it). */
function onLandAlong(street: Street): boolean {
  for (let k = 0; k <= 10; k++) {
    const n = (k / 10) * street.maxNumber
    for (const side of [0, 1]) {
      const door = houseDoor(street, Math.max(1, Math.round(n)) + side)
      if (!onLand(door.lat, door.lng)) return false
    }
  }
  return true
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

/** Local planar metres around a street's middle (fine at street scale). */
const toMeters = (origin: { lat: number }, dLat: number, dLng: number) => ({
  x: dLng * KM_PER_DEGREE * 1000 * Math.cos(radians(origin.lat)),
  y: dLat * M_PER_DEGREE_LAT,
})

/**
 * Where a point falls on a street: the nearest point of its axis, how far from it, and the house
 * number there (odd on one side, even on the other). Reverse geocoding and the addresses of
 * nearby places both read addresses this way, so they tell the same story.
 * @example snapToStreet(street, { lat: 36.8, lng: 10.18 }).number
 */
export function snapToStreet(s: Street, point: LatLng) {
  const axis = toMeters(
    s,
    Math.sin(s.heading) * s.halfLength,
    (Math.cos(s.heading) * s.halfLength) / Math.cos(radians(s.lat)),
  )
  const p = toMeters(s, point.lat - s.lat, point.lng - s.lng)
  const length2 = axis.x ** 2 + axis.y ** 2
  const t = Math.max(-1, Math.min(1, (p.x * axis.x + p.y * axis.y) / length2))
  const snapped = { x: axis.x * t, y: axis.y * t }
  const meters = Math.hypot(p.x - snapped.x, p.y - snapped.y)
  const even = axis.x * p.y - axis.y * p.x > 0
  let number = Math.max(1, Math.round(((t + 1) / 2) * s.maxNumber))
  if ((number % 2 === 0) !== even) number = number === 1 ? 2 : number - 1
  return {
    lat: s.lat + snapped.y / M_PER_DEGREE_LAT,
    lng: s.lng + snapped.x / (KM_PER_DEGREE * 1000 * Math.cos(radians(s.lat))),
    meters,
    number,
  }
}

/**
 * The door of house `n`: along the axis by its number, about 13 m to its side (even numbers on
 * one side, odd on the other). Forward geocoding answers this point; generated places stand on it.
 * @example houseDoor(street, 12)
 */
export function houseDoor(s: Street, n: number): LatLng {
  const t = Math.min(1, n / s.maxNumber) * 2 - 1
  const side = (n % 2 === 0 ? 1 : -1) * 0.00012
  return {
    lat: s.lat + Math.sin(s.heading) * s.halfLength * t + Math.cos(s.heading) * side,
    lng:
      s.lng +
      (Math.cos(s.heading) * s.halfLength * t - Math.sin(s.heading) * side) / Math.cos(radians(s.lat)),
  }
}
