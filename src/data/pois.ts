import type { Faker } from '@faker-js/faker'
import { seededFaker } from './faker.ts'
import { inPlaceAr, ofPlace } from './french.ts'
import { type Locality, POIS } from './gazetteer.ts'
import { GAZETTEER_LANDMARKS } from './gazetteer-landmarks.ts'
import { distanceKm, type LatLng, M_PER_DEGREE_LAT, radians, round6 } from './geo.ts'
import { nearestLand, onCauseway, onLand } from './land.ts'
import { GREAT_MOSQUE_TOWNS, LANDMARKS, type LandmarkKind, SUPERSEDED_POIS } from './landmarks.ts'
import type { Names } from './lang.ts'
import type { Poi, PoiCategory } from './poi.ts'
import {
  BANKS,
  FAMILY_NAMES,
  type FrAr,
  FUEL_BRANDS,
  GIVEN_NAMES,
  MOSQUE_NAMES,
  SAINTS,
  SHOP_KINDS,
  SIGN_WORDS,
  SUPERMARKETS,
} from './poi-names.ts'
import { STREET_NAMESAKES } from './street-names.ts'
import { houseDoor, type Street, snapToStreet, streetsByAddress } from './streets.ts'
import { nearestTown, townCentre, townName, townRadius } from './towns.ts'
import type { World } from './world.ts'

export type { Names } from './lang.ts'
export { POI_CATEGORIES, type Poi, type PoiCategory } from './poi.ts'

interface Town {
  locality: Locality
  names: Names
  pop: number
}

/** A kind of place: its categories, how common it is, and how it is named. */
interface Kind {
  categories: [PoiCategory, ...PoiCategory[]]
  /** Categories that depend on the name drawn (a boulangerie among the shops is also `bakery`). */
  more?(name: Names): PoiCategory[]
  /** Relative frequency among a town's places. */
  weight: number
  /** Not found in towns smaller than this. */
  minPop?: number
  name(f: Faker, town: Town): Names
  hours?: readonly string[]
  /** Chance that the place lists a phone number. */
  phone?: number
}

const pick = (f: Faker, list: readonly FrAr[]) => f.helpers.arrayElement(list)
const person = (f: Faker) => pick(f, FAMILY_NAMES)
const doctor = (f: Faker) => {
  const [given, givenAr] = pick(f, GIVEN_NAMES)
  const [family, familyAr] = person(f)
  return { fr: `${given} ${family}`, ar: `${givenAr} ${familyAr}` }
}
/** `{fr, en, ar}` from a French and an Arabic form, English taking the French. */
const same = (fr: string, ar: string, en = fr): Names => ({ fr, en, ar })

const SHOP_HOURS = ['Mo-Sa 08:00-20:00', 'Mo-Sa 08:30-19:30', 'Mo-Su 08:00-21:00'] as const
const OFFICE_HOURS = ['Mo-Fr 08:00-17:00', 'Mo-Fr 08:00-16:30; Sa 08:00-12:00'] as const

// The mix of a Tunisian town's places, by kind.
const KINDS: readonly Kind[] = [
  {
    categories: ['cafe'],
    weight: 16,
    name: (f, town) => {
      const [w, wAr] = pick(f, SIGN_WORDS)
      return town.pop < 1000 || f.datatype.boolean(0.7)
        ? same(`Café ${w}`, `مقهى ${wAr}`, `${w} Café`)
        : same(`Salon de thé ${w}`, `قاعة شاي ${wAr}`, `${w} Tea Room`)
    },
    hours: ['Mo-Su 06:00-23:00', 'Mo-Su 05:30-22:00', 'Mo-Su 07:00-24:00'],
    phone: 0.3,
  },
  {
    categories: ['restaurant'],
    weight: 13,
    minPop: 1000,
    name: (f) => {
      const [w, wAr] = pick(f, SIGN_WORDS)
      switch (f.number.int(3)) {
        case 0:
          return same(`Restaurant ${w}`, `مطعم ${wAr}`, `${w} Restaurant`)
        case 1:
          return same(`Pizzeria ${w}`, `بيتزيريا ${wAr}`)
        case 2:
          return same(`Fast-food ${w}`, `أكلة خفيفة ${wAr}`, `${w} Fast Food`)
        default:
          return same(`Rôtisserie ${w}`, `مشوى ${wAr}`, `${w} Grill`)
      }
    },
    hours: ['Mo-Su 11:00-23:00', 'Mo-Sa 12:00-15:00,19:00-23:00', 'Mo-Su 10:00-22:00'],
    phone: 0.6,
  },
  {
    categories: ['shopping'],
    weight: 14,
    name: (f) => {
      const [kind, kindEn, kindAr] = f.helpers.arrayElement(SHOP_KINDS)
      const [w, wAr] = f.datatype.boolean() ? person(f) : pick(f, SIGN_WORDS)
      return { fr: `${kind} ${w}`, en: `${w} ${kindEn}`, ar: `${kindAr} ${wAr}` }
    },
    more: (name) => (name.fr.startsWith('Boulangerie ') ? ['bakery'] : []),
    hours: SHOP_HOURS,
    phone: 0.3,
  },
  {
    categories: ['shopping'],
    weight: 3,
    minPop: 5000,
    name: (f, town) => {
      const [brand, brandAr] = f.helpers.arrayElement(SUPERMARKETS.filter(([, , min]) => town.pop >= min))
      return same(`${brand} ${town.names.fr}`, `${brandAr} ${town.names.ar}`, `${brand} ${town.names.en}`)
    },
    hours: ['Mo-Su 08:30-21:00', 'Mo-Su 09:00-21:30'],
    phone: 0.9,
  },
  {
    categories: ['pharmacy'],
    weight: 6,
    minPop: 1000,
    name: (f) => {
      const [n, nAr] = f.datatype.boolean(0.6)
        ? person(f)
        : (() => {
            const d = doctor(f)
            return [d.fr, d.ar] as const
          })()
      return same(`Pharmacie ${n}`, `صيدلية ${nAr}`, `${n} Pharmacy`)
    },
    // Open by day: the night pharmacy of a town is one place (below), not one in four.
    hours: ['Mo-Sa 08:00-20:00', 'Mo-Sa 08:00-13:00,15:00-20:00', 'Mo-Sa 08:30-19:30'],
    phone: 0.9,
  },
  {
    categories: ['bank', 'atm'],
    weight: 4,
    minPop: 3000,
    name: (f, town) => {
      const [bank, bankAr] = pick(f, BANKS)
      return {
        fr: `${bank} Agence ${town.names.fr}`,
        en: `${bank} ${town.names.en} branch`,
        ar: `${bankAr} فرع ${town.names.ar}`,
      }
    },
    hours: ['Mo-Fr 08:00-17:00', 'Mo-Fr 08:00-16:00; Sa 08:00-12:00'],
    phone: 0.95,
  },
  {
    categories: ['atm', 'bank'],
    weight: 3,
    minPop: 3000,
    name: (f) => {
      const [bank, bankAr] = pick(f, BANKS)
      return { fr: `DAB ${bank}`, en: `${bank} ATM`, ar: `موزع آلي ${bankAr}` }
    },
    hours: ['24/7'],
  },
  {
    categories: ['school', 'education'],
    weight: 5,
    name: (f) => {
      const [n, nAr] = pick(f, STREET_NAMESAKES)
      switch (f.number.int(2)) {
        case 0:
          return { fr: `École primaire ${n}`, en: `${n} Primary School`, ar: `المدرسة الابتدائية ${nAr}` }
        case 1:
          return { fr: `Collège ${n}`, en: `${n} Middle School`, ar: `المدرسة الإعدادية ${nAr}` }
        default:
          return { fr: `Lycée ${n}`, en: `${n} High School`, ar: `المعهد الثانوي ${nAr}` }
      }
    },
    hours: ['Mo-Sa 08:00-17:00'],
    phone: 0.7,
  },
  {
    categories: ['school', 'education'],
    weight: 0.6,
    minPop: 60_000,
    name: (f, { names }) =>
      f.helpers.arrayElement([
        {
          fr: `Faculté des Sciences ${ofPlace(names.fr)}`,
          en: `Faculty of Sciences of ${names.en}`,
          ar: `كلية العلوم ${inPlaceAr(names.ar)}`,
        },
        {
          fr: `Faculté de Médecine ${ofPlace(names.fr)}`,
          en: `Faculty of Medicine of ${names.en}`,
          ar: `كلية الطب ${inPlaceAr(names.ar)}`,
        },
        {
          fr: `École Nationale d'Ingénieurs ${ofPlace(names.fr)}`,
          en: `National Engineering School of ${names.en}`,
          ar: `المدرسة الوطنية للمهندسين ${inPlaceAr(names.ar)}`,
        },
        {
          fr: `Institut Supérieur des Études Technologiques ${ofPlace(names.fr)}`,
          en: `${names.en} Higher Institute of Technological Studies`,
          ar: `المعهد العالي للدراسات التكنولوجية ${inPlaceAr(names.ar)}`,
        },
      ]),
    hours: ['Mo-Sa 08:00-18:00'],
    phone: 0.9,
  },
  {
    categories: ['education'],
    weight: 2,
    minPop: 1000,
    name: (f) => {
      const [w, wAr] = pick(f, SIGN_WORDS)
      return f.datatype.boolean(0.7)
        ? { fr: `Jardin d'enfants ${w}`, en: `${w} Kindergarten`, ar: `روضة أطفال ${wAr}` }
        : { fr: `Centre de formation ${w}`, en: `${w} Training Centre`, ar: `مركز تكوين ${wAr}` }
    },
    hours: ['Mo-Fr 07:30-17:30; Sa 08:00-12:00'],
    phone: 0.6,
  },
  {
    categories: ['hospital'],
    weight: 1,
    minPop: 10_000,
    name: (f) => {
      const [w, wAr] = f.datatype.boolean() ? pick(f, SIGN_WORDS) : person(f)
      return same(`Clinique ${w}`, `مصحة ${wAr}`, `${w} Clinic`)
    },
    hours: ['24/7'],
    phone: 1,
  },
  {
    categories: ['health'],
    weight: 3,
    minPop: 1000,
    name: (f, { names }) => {
      const d = doctor(f)
      switch (f.number.int(2)) {
        case 0:
          return {
            fr: `Centre de santé de base ${names.fr}`,
            en: `${names.en} Primary Health Centre`,
            ar: `مركز الصحة الأساسية ${names.ar}`,
          }
        case 1:
          return {
            fr: `Laboratoire d'analyses Dr ${d.fr}`,
            en: `Dr ${d.fr} Medical Laboratory`,
            ar: `مخبر تحاليل الدكتور ${d.ar}`,
          }
        default:
          return {
            fr: `Cabinet dentaire Dr ${d.fr}`,
            en: `Dr ${d.fr} Dental Practice`,
            ar: `عيادة أسنان الدكتور ${d.ar}`,
          }
      }
    },
    hours: ['Mo-Fr 08:00-18:00; Sa 08:00-13:00', 'Mo-Sa 07:30-14:00'],
    phone: 0.9,
  },
  {
    categories: ['fuel'],
    weight: 2.5,
    minPop: 1000,
    name: (f, { names }) => {
      const [brand, brandAr] = pick(f, FUEL_BRANDS)
      return {
        fr: `Station ${brand} ${names.fr}`,
        en: `${brand} ${names.en} station`,
        ar: `محطة ${brandAr} ${names.ar}`,
      }
    },
    hours: ['24/7', 'Mo-Su 06:00-23:00'],
    phone: 0.4,
  },
  {
    categories: ['hotel'],
    weight: 1.5,
    minPop: 5000,
    name: (f) => {
      const [w, wAr] = pick(f, SIGN_WORDS)
      if (f.datatype.boolean(0.75)) return same(`Hôtel ${w}`, `نزل ${wAr}`, `Hotel ${w}`)
      const [family, familyAr] = person(f)
      return same(`Maison d'hôtes Dar ${family}`, `دار ضيافة ${familyAr}`, `Dar ${family} Guesthouse`)
    },
    hours: ['24/7'],
    phone: 1,
  },
  {
    categories: ['parking'],
    weight: 1.5,
    minPop: 10_000,
    name: (f) => {
      const [n, nAr] = pick(f, STREET_NAMESAKES)
      return f.datatype.boolean()
        ? { fr: `Parking ${n}`, en: `${n} Car Park`, ar: `مأوى سيارات ${nAr}` }
        : { fr: `Parking municipal ${n}`, en: `${n} Municipal Car Park`, ar: `المأوى البلدي ${nAr}` }
    },
    hours: ['24/7', 'Mo-Sa 07:00-20:00'],
  },
  {
    categories: ['transit'],
    weight: 3,
    minPop: 1000,
    name: (f, { names }) => {
      const [n, nAr] = pick(f, STREET_NAMESAKES)
      return f.helpers.arrayElement([
        { fr: `Arrêt de bus ${n}`, en: `${n} bus stop`, ar: `محطة حافلات ${nAr}` },
        { fr: `Station de taxis ${n}`, en: `${n} taxi rank`, ar: `محطة سيارات الأجرة ${nAr}` },
        {
          fr: `Station de louage ${names.fr}`,
          en: `${names.en} louage station`,
          ar: `محطة اللواج ${names.ar}`,
        },
      ])
    },
  },
  {
    categories: ['culture'],
    weight: 1,
    minPop: 5000,
    name: (f, { names }) => {
      const [w, wAr] = pick(f, SIGN_WORDS)
      return f.helpers.arrayElement([
        {
          fr: `Maison de la culture ${names.fr}`,
          en: `${names.en} Cultural Centre`,
          ar: `دار الثقافة ${names.ar}`,
        },
        {
          fr: `Bibliothèque publique ${names.fr}`,
          en: `${names.en} Public Library`,
          ar: `المكتبة العمومية ${names.ar}`,
        },
        { fr: `Cinéma ${w}`, en: `${w} Cinema`, ar: `قاعة سينما ${wAr}` },
      ])
    },
    hours: ['Tu-Su 09:00-18:00', 'Mo-Sa 09:00-19:00'],
    phone: 0.5,
  },
  {
    categories: ['mosque', 'place_of_worship'],
    weight: 4,
    name: (f) => {
      const [n, nAr] = pick(f, MOSQUE_NAMES)
      return { fr: `Mosquée ${n}`, en: `${n} Mosque`, ar: `جامع ${nAr}` }
    },
  },
  {
    categories: ['place_of_worship'],
    weight: 1,
    name: (f) => {
      const [n, nAr] = pick(f, SAINTS)
      return { fr: `Zaouïa ${n}`, en: `Zawiya of ${n}`, ar: `زاوية ${nAr}` }
    },
  },
]

/** Landmarks every town of some size has exactly one of. */
const ONE_PER_TOWN: ReadonlyArray<{ minPop: number; kind: Omit<Kind, 'weight'> }> = [
  {
    minPop: 0,
    kind: {
      categories: ['mosque', 'place_of_worship'],
      // A town's great mosque; a village's mosque.
      name: (_f, { names, pop }) =>
        pop >= 3000
          ? {
              fr: `Grande Mosquée ${ofPlace(names.fr)}`,
              en: `${names.en} Great Mosque`,
              ar: `الجامع الكبير ${inPlaceAr(names.ar)}`,
            }
          : { fr: `Mosquée ${ofPlace(names.fr)}`, en: `${names.en} Mosque`, ar: `جامع ${names.ar}` },
    },
  },
  {
    minPop: 20_000,
    kind: {
      categories: ['pharmacy'],
      name: (f) => {
        const [n, nAr] = person(f)
        return same(`Pharmacie de nuit ${n}`, `صيدلية ليلية ${nAr}`, `${n} Night Pharmacy`)
      },
      hours: ['24/7'],
      phone: 1,
    },
  },
  {
    minPop: 3000,
    kind: {
      categories: ['municipality'],
      name: (_f, { names }) => ({
        fr: `Municipalité ${ofPlace(names.fr)}`,
        en: `${names.en} Town Hall`,
        ar: `بلدية ${names.ar}`,
      }),
      hours: OFFICE_HOURS,
      phone: 1,
    },
  },
  {
    minPop: 20_000,
    kind: {
      categories: ['hospital'],
      name: (_f, { names }) => ({
        fr: `Hôpital régional ${ofPlace(names.fr)}`,
        en: `${names.en} Regional Hospital`,
        ar: `المستشفى الجهوي ${inPlaceAr(names.ar)}`,
      }),
      hours: ['24/7'],
      phone: 1,
    },
  },
  {
    minPop: 20_000,
    kind: {
      categories: ['transit'],
      name: (_f, { names }) => ({
        fr: `Gare routière ${ofPlace(names.fr)}`,
        en: `${names.en} Bus Station`,
        ar: `المحطة البرية ${inPlaceAr(names.ar)}`,
      }),
    },
  },
]

/** Towns whose hotel zones a visitor knows: many hotels among their places. */
const RESORTS: ReadonlySet<string> = new Set([
  'Midoun',
  'Houmt El Souk',
  'Hammamet',
  'Yasmine Hammamet',
  'Port el Kantaoui',
  'Sousse',
  'Monastir',
  'Skanes',
  'Monastir-Skanes',
  'Mahdia',
  'Nabeul',
  'Tozeur',
  'Tabarka',
  'Zarzis',
])

/** Landline prefixes by governorate (the first two digits of a Tunisian fixed number). */
// biome-ignore format: a table
const AREA_CODES: Record<string, string> = {
  'TN-11': '71', 'TN-12': '70', 'TN-13': '79', 'TN-14': '70', 'TN-21': '72', 'TN-22': '72',
  'TN-23': '72', 'TN-31': '78', 'TN-32': '78', 'TN-33': '78', 'TN-34': '78', 'TN-41': '77',
  'TN-42': '77', 'TN-43': '76', 'TN-51': '73', 'TN-52': '73', 'TN-53': '73', 'TN-61': '74',
  'TN-71': '76', 'TN-72': '76', 'TN-73': '75', 'TN-81': '75', 'TN-82': '75', 'TN-83': '75',
}

/** How many places a town has: a handful in a hamlet, one for about 600 people in a town. */
function placeCount(f: Faker, pop: number): number {
  return pop === 0 ? f.number.int({ min: 2, max: 6 }) : Math.min(1500, Math.round(6 + pop / 600))
}

/**
 * The generated places of one town, the same for the same seed whatever else was asked before:
 * each town draws from its own stream. Places stay on land (inside the governorate outlines).
 * @example townPois('demo', tunis, worldFor('demo').streetsOf(tunis.id)).length > 100
 */
export function townPois(seed: string | number, locality: Locality, streets: readonly Street[]): Poi[] {
  const f = seededFaker(seed, `pois:${locality.id}`)
  const pop = locality.pop ?? 0
  const town: Town = { locality, names: townName(locality), pop }
  const radius = townRadius(locality)
  const centre = townCentre(locality)
  // Seaside and desert resorts: hotels line their zones (Djerba's Midoun, Hammamet, El Kantaoui...).
  const resort = RESORTS.has(locality.name)
  const kinds = KINDS.filter((k) => pop >= (k.minPop ?? 0) || (resort && k.categories[0] === 'hotel')).map(
    (k) => ({
      weight: resort && k.categories[0] === 'hotel' ? k.weight * 20 : k.weight,
      value: k,
    }),
  )
  // A town whose great mosque is a real landmark (Zitouna in Tunis) gets no generated one.
  const singles = ONE_PER_TOWN.filter(
    (s) => pop >= s.minPop && !(s === ONE_PER_TOWN[0] && GREAT_MOSQUE_TOWNS.has(locality.name)),
  ).map((s) => s.kind)
  const count = Math.max(singles.length, placeCount(f, pop) * (resort ? 2 : 1))
  const pois: Poi[] = []
  // No two places of a town share a name: a second branch of a chain, a second louage station
  // is named by its part of town; a second namesake (a pharmacy, a shrine of the same saint) is
  // drawn anew, and a place that still has no name of its own is not made.
  const used = new Set<string>()
  const doors = new Set<string>()
  for (let i = 0; i < count; i++) {
    const kind = singles[i] ?? f.helpers.weightedArrayElement(kinds)
    const at = onStreet(placeIn(f, centre, radius, i < singles.length ? 0.15 : 1), streets, doors)
    let name = kind.name(f, town)
    if (used.has(name.fr)) {
      name = kind.name(f, { ...town, names: districtOf(town.names, centre, at, radius) })
      for (let tries = 0; used.has(name.fr) && tries < 4; tries++) name = kind.name(f, town)
      if (used.has(name.fr)) continue
    }
    used.add(name.fr)
    const phone = kind.phone !== undefined && f.datatype.boolean(kind.phone)
    pois.push({
      id: `poi_${locality.id.replace(/\W/g, '')}_${i}`,
      name,
      category: kind.categories[0],
      categories: [...kind.categories, ...(kind.more?.(name) ?? [])],
      lat: at.lat,
      lng: at.lng,
      locality,
      ...(phone && {
        phone: `+216 ${AREA_CODES[locality.gov] ?? '71'} ${f.string.numeric(3)} ${f.string.numeric(3)}`,
      }),
      ...(kind.hours && { openingHours: f.helpers.arrayElement(kind.hours) }),
    })
  }
  return pois
}

/** A street's length in metres: how far along its course its last point is (0 without one). */
const lengthM = (street: Street) => street.along[street.along.length - 1] ?? 0

/**
 * A place near one of its town's streets (its axis within 400 m) stands at that street's door for
 * the house number where it falls (or the nearest free number on that side: `doors` holds those
 * taken, one place a door) whose point has that very address by the rule every endpoint reads
 * addresses with (`streetsByAddress`: not a door that a crossing street or a square would claim),
 * so its address, reverse geocoding at its point and forward geocoding of its address agree; a
 * place farther out keeps its point (its address is the town, or what reverse geocoding says).
 */
function onStreet(at: LatLng, streets: readonly Street[], doors: Set<string>): LatLng {
  let best: { street: Street; number: number; meters: number } | undefined
  const near: Street[] = []
  for (const street of streets) {
    // A street whose every point is more than 400 m away (its middle, less half its length) is skipped
    // unsnapped.
    if (distanceKm(at, street) * 1000 - lengthM(street) / 2 > 400) continue
    const snap = snapToStreet(street, at)
    if (snap.meters < (best?.meters ?? 400)) best = { street, number: snap.number, meters: snap.meters }
    // The streets that could claim a door near `at` (its doors stand within ~150 m of it).
    if (snap.meters < 400) near.push(street)
  }
  if (!best) return at
  // Its nearest street first, then the others around it, nearest first.
  const streetsByDistance = [best.street, ...near.filter((s) => s !== best.street)]
  for (const street of streetsByDistance) {
    const number = street === best.street ? best.number : snapToStreet(street, at).number
    const free = [0, 2, -2, 4, -4, 6, -6, 8, -8]
      .map((d) => number + d)
      .filter((n) => n >= 1 && n <= street.maxNumber && !doors.has(`${street.id}:${n}`))
    for (const n of free) {
      const door = houseDoor(street, n)
      // Generated streets can run into a lagoon or the sea: a place stays on land, off the street.
      if (!onLand(door.lat, door.lng) || onCauseway(door.lat, door.lng)) continue
      const point = { lat: round6(door.lat), lng: round6(door.lng) }
      const own = streetsByAddress(near, (s) => s, point)[0]
      if (own?.item !== street || own.snap.number !== n) continue
      doors.add(`${street.id}:${n}`)
      return point
    }
  }
  return at
}

/** The parts of a town a second branch is named by: its centre, then its four sides. */
// biome-ignore format: a table
const QUARTERS: readonly [Names, Names, Names, Names, Names] = [
  { fr: 'Centre', en: 'Centre', ar: 'الوسط' }, { fr: 'Nord', en: 'North', ar: 'الشمالية' },
  { fr: 'Est', en: 'East', ar: 'الشرقية' }, { fr: 'Sud', en: 'South', ar: 'الجنوبية' },
  { fr: 'Ouest', en: 'West', ar: 'الغربية' },
]

/** The town's name with the part of town a point is in (`Tunis Nord`, `تونس الشمالية`). */
function districtOf(town: Names, centre: LatLng, at: LatLng, radius: number): Names {
  const dy = at.lat - centre.lat
  const dx = (at.lng - centre.lng) * Math.cos(radians(centre.lat))
  const side =
    Math.hypot(dx, dy) < radius / 3 ? 0 : Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? 1 : 3) : dx > 0 ? 2 : 4
  const q = QUARTERS[side]
  return { fr: `${town.fr} ${q.fr}`, en: `${town.en} ${q.en}`, ar: `${town.ar} ${q.ar}` }
}

/**
 * A town's generated places in a seed's world: made once, kept with the world.
 * @example townPlaces(worldFor('demo'), tunis).length > 100
 */
export function townPlaces(world: World, town: Locality): readonly Poi[] {
  return world.placesOf(town, (seed) => townPois(seed, town, streetsAround(world.streets, town)))
}

/**
 * The streets a town's places may stand on: its own and its neighbours' within its places' reach
 * (a place of Tunis near Bab Saadoun stands on Bab Saadoun's street, the one reverse geocoding
 * names there), in the world's order.
 */
function streetsAround(streets: readonly Street[], town: Locality): Street[] {
  const centre = townCentre(town)
  const reachM = (townRadius(town) * 1.2 + 0.004) * M_PER_DEGREE_LAT
  return streets.filter((s) => distanceKm(centre, s) * 1000 - lengthM(s) / 2 < reachM)
}

/**
 * A point within `radius` of the town centre, denser near it, on the land the map draws: drawn
 * again while it falls in the sea, a lake, on a salt flat or a causeway, and after 16 misses the land
 * nearest the town centre.
 */
function placeIn(f: Faker, l: { lat: number; lng: number }, radius: number, spread: number) {
  for (let attempt = 0; attempt < 16; attempt++) {
    const angle = f.number.float({ min: 0, max: Math.PI * 2 })
    const r = radius * spread * f.number.float({ min: 0.02, max: 1 }) ** 0.8
    const at = {
      lat: round6(l.lat + Math.sin(angle) * r),
      lng: round6(l.lng + (Math.cos(angle) * r) / Math.cos(radians(l.lat))),
    }
    if (onLand(at.lat, at.lng) && !onCauseway(at.lat, at.lng)) return at
  }
  const land = nearestLand(l.lat, l.lng) ?? l
  return { lat: round6(land.lat), lng: round6(land.lng) }
}

/**
 * Towns that generate places: the gazetteer's localities, each location once (the gazetteer
 * names a few places twice, e.g. "Teboulba" and "Tabulbah"; the better-documented one wins).
 */

/** What each kind of landmark answers to among the nearby endpoint's categories. */
const LANDMARK_CATEGORIES: Record<LandmarkKind, [PoiCategory, ...PoiCategory[]]> = {
  mosque: ['mosque', 'place_of_worship', 'culture'],
  church: ['place_of_worship', 'culture'],
  synagogue: ['place_of_worship', 'culture'],
  museum: ['culture'],
  theatre: ['culture'],
  stadium: ['culture'],
  archaeological_site: ['culture'],
  hospital: ['hospital', 'health'],
  station: ['transit'],
  monument: ['culture'],
  fort: ['culture'],
  palace: ['culture'],
}

/**
 * Landmarks as nearby places: the real ones placed at the building (`landmarks.ts`), and the
 * gazetteer's airports, ports and heritage sites (air bases, the island of Djerba and the
 * town-level points a real landmark replaces are left out).
 */
export const LANDMARK_POIS: readonly Poi[] = [
  ...LANDMARKS.map(
    (l): Poi => ({
      id: `poi_landmark_${l.id.replace(/-/g, '_')}`,
      name: l.name,
      category: LANDMARK_CATEGORIES[l.kind][0],
      categories: [...LANDMARK_CATEGORIES[l.kind]],
      lat: l.lat,
      lng: l.lng,
      locality: nearestTown(l),
    }),
  ),
  ...gazetteerLandmarks(),
]

function gazetteerLandmarks(): Poi[] {
  return POIS.flatMap((p) => {
    const landmark = GAZETTEER_LANDMARKS[p.id]
    if (!landmark || SUPERSEDED_POIS.has(p.id)) return []
    const [fr, en, ar] = landmark.name
    return [
      {
        id: `poi_${p.id.replace(/\W/g, '_')}`,
        name: { fr, en, ar },
        category: landmark.categories[0],
        categories: [...landmark.categories],
        lat: p.lat,
        lng: p.lng,
        locality: nearestTown(p),
      },
    ]
  })
}

export { nearestTown, poiTowns, townCentre, townName, townRadius } from './towns.ts'
