import { foldAccents } from '../text/fold.ts'
import { REAL_STREETS } from './city-streets.ts'
import type { Locality } from './gazetteer.ts'
import { KM_PER_DEGREE, type LatLng, M_PER_DEGREE_LAT, radians, round6 } from './geo.ts'
import { onLand } from './land.ts'
import { seededRandom } from './seeded.ts'
import { CITY_STREETS, GENERATED_BASES, MEDINA_BASES, MEDINA_WORDS, TUNIS_RESERVED } from './street-names.ts'
import { type StreetLine, TUNIS_BOURGUIBA, TUNIS_ID, townNetworks } from './street-network.ts'

export { TUNIS_BOURGUIBA, TUNIS_ID }

export interface Street {
  id: string
  /** Its course's key, `<locality id>:<index>`: the same street in every world (only names differ). */
  key: string
  /** e.g. "Avenue Habib Bourguiba". */
  fr: string
  ar: string
  locality: Locality
  /** The middle of its course (forward geocoding answers this point for the street). */
  lat: number
  lng: number
  /** Its course, `[lat, lng, ...]` (shared with every world: do not modify). */
  points: Float64Array
  /** Metres from its start to each vertex (the last is its length). */
  along: Float64Array
  /** Highest house number on the street. */
  maxNumber: number
  /** A main avenue (drawn wider). */
  main: boolean
  /** A lane of a medina, generated or real (Rue Jemaa Zitouna): drawn narrower than a street. */
  lane: boolean
  /** What made it: a real street, or a generated medina lane, colonial grid street, outer street or link. */
  kind: 'real' | 'medina' | 'grid' | 'suburb' | 'coast' | 'link' | 'join'
  /** A real street or square of src/data/city-streets.ts: where its course comes from. */
  source?: string
  /** A square (addresses on it are on the square). */
  square?: boolean
}

const courses = new Map<string, { along: Float64Array; middle: LatLng }>()
/** Metres along a course and its middle, computed once per course. */
function measure(key: string, points: Float64Array) {
  let found = courses.get(key)
  if (!found) {
    const along = new Float64Array(points.length / 2)
    for (let i = 1; i < along.length; i++) {
      const dy = (points[i * 2]! - points[i * 2 - 2]!) * M_PER_DEGREE_LAT
      const dx =
        (points[i * 2 + 1]! - points[i * 2 - 1]!) * KM_PER_DEGREE * 1000 * Math.cos(radians(points[i * 2]!))
      along[i] = along[i - 1]! + Math.hypot(dx, dy)
    }
    found = { along, middle: pointAt(points, along, along[along.length - 1]! / 2, 0) }
    courses.set(key, found)
  }
  return found
}

/** The road along a town's shore. */
const CORNICHE = ['Boulevard de la Corniche', 'شارع الكورنيش'] as const

/** The types a generated street takes, with their Arabic word. */
const TYPES = {
  rue: ['Rue', 'نهج'],
  avenue: ['Avenue', 'شارع'],
  boulevard: ['Boulevard', 'شارع'],
  impasse: ['Impasse', 'زنقة'],
  souk: ['Souk', 'سوق'],
} as const
type TypeKey = keyof typeof TYPES
const GENERAL_TYPES: readonly TypeKey[] = ['rue', 'impasse', 'avenue', 'boulevard']
/** MEDINA_WORDS opens with its trades: the only lanes that are souks. */
const MEDINA_TRADES = MEDINA_WORDS.slice(0, 9)

/** A name compared without case or accents. */
const fold = foldAccents
/** A street's name without its type ("Avenue Mongi Slim" -> "mongi slim"). */
const baseOf = (fr: string) => {
  let base = folded.get(fr)
  if (base === undefined) {
    base = fold(fr).replace(/^(rue|avenue|boulevard|impasse|place|route|quai|souk) /, '')
    folded.set(fr, base)
  }
  return base
}
const folded = new Map<string, string>()
/**
 * The names of Tunis's real streets, squares and souks (folded, without their type): in Tunis, a
 * generated street never takes one, so a name a real Tunis street carries is only on that street.
 */
const tunisNames = () => [
  ...TUNIS_RESERVED.map(fold),
  ...REAL_STREETS.filter((s) => s.town === 'Tunis').map((s) => baseOf(s.fr)),
  ...(CITY_STREETS.Tunis ?? []).map(([fr]) => baseOf(fr)),
]

/** Names given to generated streets, folded once, with whether Tunis has a real street of that name. */
interface Pool {
  id: string
  names: ReadonlyArray<readonly [string, string]>
  indices: number[]
  folded: string[]
  tunis: boolean[]
}
/** A town's names of one pool and type, shuffled as they are taken: those before `at` are taken. */
interface Queue {
  pool: Pool
  type: TypeKey
  order: number[]
  at: number
}
/** The pools and types a street may take its name from, the likeliest first. */
type Tries = ReadonlyArray<readonly [Pool, TypeKey]>

/**
 * The names streets are given, folded, and the order a street of each kind tries them in: made
 * when the first world names its streets (a geocoder read from the build's pack needs none).
 */
const naming = () => (names ??= makeNaming())
let names: ReturnType<typeof makeNaming> | undefined

function makeNaming() {
  const taken = tunisNames()
  /** A Tunis name (or one contained in it, or containing it: "du 9 Avril" and "du 9 Avril 1938"). */
  const tunisTaken = (base: string) => taken.some((t) => t === base || t.includes(base) || base.includes(t))
  const pool = (id: string, names: ReadonlyArray<readonly [string, string]>): Pool => {
    const folded = names.map(([fr]) => fold(fr))
    return { id, names, indices: [...names.keys()], folded, tunis: folded.map(tunisTaken) }
  }
  const general = pool('general', GENERATED_BASES)
  const lanes = pool('lanes', [...MEDINA_WORDS, ...MEDINA_BASES])
  const souks = pool('souks', MEDINA_TRADES)
  const tries = (lanesFirst: readonly TypeKey[], generalFirst: readonly TypeKey[]): Tries => [
    ...lanesFirst.map((t) => [t === 'souk' ? souks : lanes, t] as const),
    ...[...generalFirst, ...GENERAL_TYPES].map((t) => [general, t] as const),
  ]
  return {
    tunisTaken,
    LANE_IMPASSE: tries(['impasse', 'rue', 'souk'], ['impasse', 'rue']),
    LANE_SOUK: tries(['souk', 'rue', 'impasse'], ['rue', 'impasse']),
    LANE_RUE: tries(['rue', 'impasse', 'souk'], ['rue', 'impasse']),
    AVENUE: tries([], ['avenue', 'boulevard', 'rue']),
    BOULEVARD: tries([], ['boulevard', 'avenue', 'rue']),
    IMPASSE: tries([], ['impasse', 'rue']),
    RUE: tries([], ['rue', 'impasse']),
  }
}

/** The last resort, never reached for the towns of the gazetteer (tested): a numbered street. */
const numbered = (n: number) => [`Rue ${n}`, `نهج ${n}`] as const

/**
 * The streets of every town for a seed: each town's network (src/data/street-network.ts, the same
 * for every seed: real axes where they are, generated streets around them) named for this seed.
 * Real streets keep their names. The generated ones, longest first, take the town's Avenue Habib
 * Bourguiba (as nearly every Tunisian town has one) when it has no real one, then (but in Tunis,
 * where each real name is only on its real street) the city's other real names (CITY_STREETS);
 * the shore road is the town's Corniche; then GENERATED names, seeded: a medina's lanes after
 * trades, wells, families and saints ("Impasse Ben Ammar", "Souk des Potiers"), the other
 * streets after figures, dates and towns ("Rue Ibn Khaldoun", "Avenue de Kairouan"), the type by
 * the street's length (an avenue from ~1 km, an impasse under ~100 m).
 * @example generateStreets('demo').find((s) => s.fr === 'Avenue Habib Bourguiba')
 */
export function generateStreets(seed: string | number): Street[] {
  const { tunisTaken } = naming()
  const random = seededRandom(seed, 'streets')
  const streets: Street[] = []
  /** The names taken in each locality: a town's streets never share a name. */
  const taken = new Map<string, Set<string>>()
  const takenIn = (id: string) => taken.get(id) ?? taken.set(id, new Set()).get(id)!
  /** The names (without their type) of each locality's streets other than impasses and souks. */
  const named = new Map<string, Set<string>>()
  const basesIn = (id: string) => named.get(id) ?? named.set(id, new Set()).get(id)!
  for (const { locality, lines } of townNetworks())
    for (const line of lines) if (line.real) takenIn(locality.id).add(line.real.fr)
  // The real streets' names (but Avenue Habib Bourguiba, which nearly every town has) are theirs
  // alone: forward geocoding of "Rue de Marseille" finds the real one.
  const famous = new Set(REAL_STREETS.map((s) => s.fr).filter((fr) => fr !== 'Avenue Habib Bourguiba'))
  for (const { locality, lines, owners } of townNetworks()) {
    const order = lines
      .map((line, index) => ({ line, index, along: measure(`${locality.id}:${index}`, line.points).along }))
      .sort((a, b) => b.along[b.along.length - 1]! - a.along[a.along.length - 1]! || a.index - b.index)
    // The town's own names (its Avenue Habib Bourguiba, its real street names) go to its own
    // streets, not to those of its outer lattice that lie in a neighbouring locality.
    const own: Array<readonly [string, string]> = [['Avenue Habib Bourguiba', 'شارع الحبيب بورقيبة']]
    if (locality.id !== TUNIS_ID) own.push(...(CITY_STREETS[locality.name] ?? []))
    // Per pool and type, the names in a seeded order, made on first use.
    const queues = new Map<string, Queue>()
    const queueOf = (pool: Pool, type: TypeKey) => {
      const key = `${pool.id}:${type}`
      let q = queues.get(key)
      if (!q) {
        q = { pool, type, at: 0, order: [...pool.indices] }
        queues.set(key, q)
      }
      return q
    }
    let nextOwn = 0
    let number = random.int(1, 60) * 100
    for (const { line, index } of order) {
      const key = `${locality.id}:${index}`
      const owner = owners[index] ?? locality
      const used = takenIn(owner.id)
      // Tunis: the capital's network, its quarters (Mutuelleville, Bab Sidi Kassem...) included.
      const inTunis = locality.id === TUNIS_ID || owner.id === TUNIS_ID
      const bases = basesIn(owner.id)
      /**
       * Whether a name may go to this street: `base` its folded name without type, `repeat` an impasse or
       * souk.
       */
      const free = (fr: string, base: string, repeat: boolean, tunis: boolean) =>
        !used.has(fr) &&
        !famous.has(fr) &&
        // One street of a kind per name: "Impasse Ibn Sina" may branch off "Rue Ibn Sina", but a
        // town has no "Avenue de Kairouan" beside a "Boulevard de Kairouan".
        (repeat || !bases.has(base)) &&
        !(inTunis && tunis)
      const freeName = (fr: string) => {
        const base = baseOf(fr)
        return free(fr, base, /^(Impasse|Souk) /.test(fr), tunisTaken(base))
      }
      const { along, middle } = measure(key, line.points)
      const length = along[along.length - 1]!
      let name: readonly [string, string] | undefined = line.real && [line.real.fr, line.real.ar]
      /** Its folded name without type, where it is not an impasse or souk (known for generated names). */
      let base: string | undefined
      while (
        !name &&
        line.kind !== 'link' &&
        line.kind !== 'join' &&
        line.kind !== 'medina' &&
        owner === locality &&
        nextOwn < own.length
      ) {
        const candidate = own[nextOwn++]!
        if (freeName(candidate[0])) name = candidate
      }
      // The road along the shore is the town's corniche (where the town has none yet).
      if (!name && line.kind === 'coast' && !used.has(CORNICHE[0])) name = CORNICHE
      if (!name) {
        // Generated: the types this street may take, the likeliest first, from its queues.
        const drawn = drawName(triesFor(line.kind, length, random.float(0, 1)), queueOf, random, free)
        name = drawn?.name
        base = drawn?.base
      }
      while (!name || (!line.real && used.has(name[0]))) {
        number += random.int(1, 9) * 10
        name = numbered(number)
      }
      used.add(name[0])
      if (base === undefined && !/^(Impasse|Souk) /.test(name[0])) base = baseOf(name[0])
      if (base !== undefined) bases.add(base)
      streets.push(streetOf(key, name, owner, line, along, middle, length, random))
    }
  }
  return streets
}

/**
 * The pools and types a generated street may take its name from, the likeliest first, by its kind and length.
 */
function triesFor(kind: StreetLine['kind'], length: number, draw: number): Tries {
  const { LANE_IMPASSE, LANE_SOUK, LANE_RUE, AVENUE, BOULEVARD, IMPASSE, RUE } = naming()
  if (kind === 'medina') return length < 60 || draw < 0.3 ? LANE_IMPASSE : draw < 0.45 ? LANE_SOUK : LANE_RUE
  if (length >= 1000 && (kind !== 'grid' || draw < 0.25)) return draw < 0.75 ? AVENUE : BOULEVARD
  if (length < 100 && kind !== 'link' && kind !== 'join') return IMPASSE
  return draw < 0.08 && length >= 500 ? AVENUE : RUE
}

/**
 * A generated name from the first queue that has a free one, drawn as a seeded shuffle
 * (Fisher-Yates, one step a name taken), with its folded base unless it is an impasse or souk.
 */
function drawName(
  tries: Tries,
  queueOf: (pool: Pool, type: TypeKey) => Queue,
  random: ReturnType<typeof seededRandom>,
  free: (fr: string, base: string, repeat: boolean, tunis: boolean) => boolean,
): { name: readonly [string, string]; base: string | undefined } | undefined {
  for (const [pool, type] of tries) {
    const q = queueOf(pool, type)
    const repeat = type === 'impasse' || type === 'souk'
    while (q.at < q.order.length) {
      const j = q.at + Math.floor(random.float(0, 1) * (q.order.length - q.at))
      const i = q.order[j]!
      q.order[j] = q.order[q.at]!
      q.order[q.at++] = i
      const [fr, ar] = pool.names[i]!
      const full = `${TYPES[type][0]} ${fr}`
      if (free(full, pool.folded[i]!, repeat, pool.tunis[i]!))
        return { name: [full, `${TYPES[type][1]} ${ar}`], base: repeat ? undefined : pool.folded[i]! }
    }
  }
  return undefined
}

/** The street record of a named line: where it is, its house numbers (a door every 8 m or so a side). */
function streetOf(
  key: string,
  [fr, ar]: readonly [string, string],
  owner: Street['locality'],
  line: StreetLine,
  along: Float64Array,
  middle: { lat: number; lng: number },
  length: number,
  random: ReturnType<typeof seededRandom>,
): Street {
  return {
    id: `street:${key}`,
    key,
    fr,
    ar,
    locality: owner,
    lat: round6(line.real?.at?.[0] ?? middle.lat),
    lng: round6(line.real?.at?.[1] ?? middle.lng),
    points: line.points,
    along,
    // A door every ~4 m, up to 999: four digits are a postcode to the geocoder (and to a reader).
    maxNumber: line.real?.square
      ? random.int(8, 30)
      : Math.min(999, Math.max(4, Math.round((length / 4) * random.float(0.85, 1.15)))),
    main:
      (line.real !== undefined && !line.real.square && !line.real.lane) || fr === 'Avenue Habib Bourguiba',
    lane: line.kind === 'medina' || line.real?.lane === true,
    kind: line.kind,
    ...(line.real && { source: line.real.source }),
    ...(line.real?.square && { square: true }),
  }
}

/** The point `metres` along a course, moved `side` metres to its left (negative: right). */
function pointAt(points: Float64Array, along: Float64Array, metres: number, side: number): LatLng {
  const last = along.length - 1
  let i = 1
  while (i < last && along[i]! < metres) i++
  const span = along[i]! - along[i - 1]! || 1
  const t = Math.max(0, Math.min(1, (metres - along[i - 1]!) / span))
  const [lat0, lng0, lat1, lng1] = [
    points[i * 2 - 2]!,
    points[i * 2 - 1]!,
    points[i * 2]!,
    points[i * 2 + 1]!,
  ]
  const kx = KM_PER_DEGREE * 1000 * Math.cos(radians(lat0))
  const dx = (lng1 - lng0) * kx
  const dy = (lat1 - lat0) * M_PER_DEGREE_LAT
  const len = Math.hypot(dx, dy) || 1
  return {
    lat: lat0 + (lat1 - lat0) * t + ((dx / len) * side) / M_PER_DEGREE_LAT,
    lng: lng0 + (lng1 - lng0) * t - ((dy / len) * side) / kx,
  }
}

/**
 * Where a point falls on a street: the nearest point of its course, how far from it, and the
 * house number there (odd on one side, even on the other). Reverse geocoding and the addresses of
 * nearby places both read addresses this way, so they tell the same story.
 * @example snapToStreet(street, { lat: 36.8, lng: 10.18 }).number
 */
export function snapToStreet(s: Street, point: LatLng) {
  const { points, along } = s
  const kx = KM_PER_DEGREE * 1000 * Math.cos(radians(point.lat))
  const ky = M_PER_DEGREE_LAT
  let best = { d2: Number.POSITIVE_INFINITY, i: 1, t: 0, cross: 0 }
  for (let i = 1; i < along.length; i++) {
    const ax = (points[i * 2 - 1]! - point.lng) * kx
    const ay = (points[i * 2 - 2]! - point.lat) * ky
    const dx = (points[i * 2 + 1]! - points[i * 2 - 1]!) * kx
    const dy = (points[i * 2]! - points[i * 2 - 2]!) * ky
    const len2 = dx * dx + dy * dy
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2))
    const px = ax + dx * t
    const py = ay + dy * t
    const d2 = px * px + py * py
    if (d2 < best.d2) best = { d2, i, t, cross: dx * -ay - dy * -ax }
  }
  const { i, t } = best
  const metres = along[i - 1]! + (along[i]! - along[i - 1]!) * t
  const length = along[along.length - 1]! || 1
  const even = best.cross > 0
  let number = Math.max(1, Math.round((metres / length) * s.maxNumber))
  if ((number % 2 === 0) !== even) number = number === 1 ? 2 : number - 1
  return {
    lat: points[i * 2 - 2]! + (points[i * 2]! - points[i * 2 - 2]!) * t,
    lng: points[i * 2 - 1]! + (points[i * 2 + 1]! - points[i * 2 - 1]!) * t,
    meters: Math.sqrt(best.d2),
    number,
  }
}

/**
 * Where streets meet (their edges within this many metres of each other), the square, then the main street,
 * names the point.
 */
const JUNCTION_M = 5

/** How a street ranks among those that meet at a point: a square, a main street, any other. */
const junctionRank = (s: Street) => (s.square ? 0 : s.main ? 1 : 2)

/**
 * Half the width of a street in metres: a point on its carriageway or pavement is on it. A square
 * is about 50 m across, a main avenue 24 m (Avenue Habib Bourguiba is 60), a street 8.
 */
const halfWidth = (s: Street) => (s.square ? 25 : s.main ? 12 : 4)

/** One street a point may be addressed on, and where the point falls on it. */
interface StreetAt<T> {
  item: T
  snap: ReturnType<typeof snapToStreet>
  /** Metres from the point to the street's edge (its course less its half-width). */
  edge: number
}

/**
 * The rule that gives a point its address, in one place for every part that reads one (reverse
 * geocoding, nearby places, where a generated place stands): the streets ordered by the distance
 * from the point to their edge (a point on a carriageway is on that street), and where several
 * meet at the point (a junction, a square), the square first, then the main street. `items` are
 * streets or what carries one (`streetOf`).
 * @example streetsByAddress(world.streetsOf(tunis.id), (s) => s, { lat: 36.8, lng: 10.18 })[0]?.snap.number
 */
export function streetsByAddress<T>(
  items: Iterable<T>,
  streetOf: (item: T) => Street,
  point: LatLng,
): StreetAt<T>[] {
  const keyOf = (a: StreetAt<T>) => streetOf(a.item).key
  const byKey = (a: StreetAt<T>, b: StreetAt<T>) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0)
  const list: StreetAt<T>[] = []
  for (const item of items) {
    const street = streetOf(item)
    const snap = snapToStreet(street, point)
    list.push({ item, snap, edge: Math.max(0, snap.meters - halfWidth(street)) })
  }
  list.sort((a, b) => a.edge - b.edge || a.snap.meters - b.snap.meters || byKey(a, b))
  const nearest = list[0]
  if (!nearest) return list
  let meet = 1
  while (meet < list.length && list[meet]!.edge <= nearest.edge + JUNCTION_M) meet++
  const junction = list
    .slice(0, meet)
    .sort(
      (a, b) =>
        junctionRank(streetOf(a.item)) - junctionRank(streetOf(b.item)) ||
        a.snap.meters - b.snap.meters ||
        byKey(a, b),
    )
  return [...junction, ...list.slice(meet)]
}

/**
 * The door of house `n`: along the street by its number, about 13 m to its side (even numbers on
 * the left, odd on the right). Forward geocoding answers this point; generated places stand on it.
 * A street along the shore has its houses on the land side: where the door's side is water, the
 * door is on the other side (or on the street itself), so every address stands on land.
 * @example houseDoor(street, 12)
 */
export function houseDoor(s: Street, n: number): LatLng {
  const length = s.along[s.along.length - 1]!
  const metres = Math.min(1, n / s.maxNumber) * length
  const side = n % 2 === 0 ? 13 : -13
  for (const offset of [side, -side, 0]) {
    const door = pointAt(s.points, s.along, metres, offset)
    if (onLand(door.lat, door.lng)) return door
  }
  // A street over a patch of water narrower than its land test's step: the nearest dry point along it.
  for (let shift = 5; shift <= 60; shift += 5)
    for (const at of [metres - shift, metres + shift]) {
      const door = pointAt(s.points, s.along, Math.max(0, Math.min(length, at)), 0)
      if (onLand(door.lat, door.lng)) return door
    }
  return pointAt(s.points, s.along, metres, 0)
}
