import { encode } from '@placemarkio/polyline'
import { distanceKm, KM_PER_DEGREE, M_PER_DEGREE_LAT, radians } from '../../data/geo.ts'
import { hashSeed } from '../../data/seeded.ts'
import { STREET_NAMESAKES } from '../../data/street-names.ts'
import { nearestTown, POI_TOWNS, townName } from '../../data/towns.ts'
import { type Geocoder, geocoderFor } from '../geocoding/geocoder.ts'
import type { Lang, Place } from '../geocoding/places.ts'
import { type Avoid, leg, type Point, type Profile } from './road-model.ts'

export const GEOMETRIES = ['polyline', 'geojson'] as const
export type GeometryFormat = (typeof GEOMETRIES)[number]
export const AVOIDABLE = ['tolls', 'highways', 'ferries'] as const

export interface RouteOptions {
  profile: Profile
  avoid: Avoid
  geometry: GeometryFormat
  steps: boolean
  language: Lang
  seed: string | number
}

export interface Step {
  distance: number
  duration: number
  instruction: string
  /** The street or road the step follows; empty when it has no name. */
  name: string
  maneuver: {
    type: 'depart' | 'turn' | 'continue' | 'arrive'
    modifier?: Modifier
    location: Point
  }
}

export interface Leg {
  from: Point
  to: Point
  distance: number
  duration: number
  steps?: Step[]
}

export interface Route {
  distance: number
  duration: number
  geometry: string | { type: 'LineString'; coordinates: [number, number][] }
  legs: Leg[]
}

type Modifier = 'straight' | 'slight left' | 'slight right' | 'left' | 'right' | 'sharp left' | 'sharp right'

/**
 * The route through `points` in order: one leg a pair, distances and durations from the road
 * model, a geometry whose length is the route's distance, and turn-by-turn steps on request.
 * `variant` 1 and 2 are the alternatives: the same stops by longer roads.
 * @example route([tunis, carthage], { profile: 'driving', avoid: {}, geometry: 'polyline', steps: true, language: 'fr', seed: 'demo' })
 */
export function route(points: readonly Point[], options: RouteOptions, variant = 0): Route {
  const legs: Leg[] = []
  const path: Point[] = [points[0]!]
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1]!
    const to = points[i]!
    const base = leg(from, to, options.profile, options.avoid)
    const stretch = 1 + 0.09 * variant
    const distance = Math.round(base.distance * stretch)
    const duration = Math.round(base.duration * stretch)
    const vertices = roadPath(from, to, distance, variant)
    path.push(...vertices.slice(1))
    legs.push({
      from,
      to,
      distance,
      duration,
      ...(options.steps && {
        steps: steps(vertices, distance, duration, options, i === points.length - 1 ? 0 : i),
      }),
    })
  }
  const rounded = path.map((p): [number, number] => [round6(p.lng), round6(p.lat)])
  return {
    distance: legs.reduce((sum, l) => sum + l.distance, 0),
    duration: legs.reduce((sum, l) => sum + l.duration, 0),
    geometry:
      options.geometry === 'geojson' ? { type: 'LineString', coordinates: rounded } : encode(rounded, 5),
    legs,
  }
}

/** Local planar metres around a latitude (good to a fraction of a percent across Tunisia). */
function plane(lat: number) {
  const kx = KM_PER_DEGREE * 1000 * Math.cos(radians(lat))
  const ky = M_PER_DEGREE_LAT
  return { kx, ky }
}

/**
 * The vertices of a road from `a` to `b` of about `distance` metres: a zigzag that leaves the
 * straight line by the angle whose secant is the road's detour factor, in segments of varied
 * length, so its length is `distance` and it ends exactly at `b`. Stable per pair and variant.
 */
export function roadPath(a: Point, b: Point, distance: number, variant: number): Point[] {
  const { kx, ky } = plane((a.lat + b.lat) / 2)
  const dx = (b.lng - a.lng) * kx
  const dy = (b.lat - a.lat) * ky
  const straight = Math.hypot(dx, dy)
  if (straight < 1 || distance <= straight) return [a, b]
  const theta = Math.acos(Math.min(1, straight / distance))
  const pairs = Math.max(1, Math.min(12, Math.round(straight / 900)))
  const random = prng(`${a.lat},${a.lng};${b.lat},${b.lng};${variant}`)
  const weights = (n: number) => {
    const w = Array.from({ length: n }, () => 0.5 + random())
    const total = w.reduce((s, x) => s + x, 0)
    return w.map((x) => x / total)
  }
  // Half the length goes left of the line and half right, so the zigzag ends on the line.
  const left = weights(pairs)
  const right = weights(pairs)
  const ux = dx / straight
  const uy = dy / straight
  const first = variant % 2 === 0 ? 1 : -1
  const vertices: Point[] = [a]
  let x = 0
  let y = 0
  for (let i = 0; i < pairs * 2; i++) {
    const side = (i % 2 === 0 ? first : -first) * Math.sin(theta)
    const length = (distance / 2) * (i % 2 === 0 ? left[i / 2]! : right[(i - 1) / 2]!)
    const along = Math.cos(theta)
    x += length * (ux * along - uy * side)
    y += length * (uy * along + ux * side)
    vertices.push(i === pairs * 2 - 1 ? b : { lat: a.lat + y / ky, lng: a.lng + x / kx })
  }
  return vertices
}

/** A small deterministic generator (mulberry32) seeded from text. */
function prng(text: string): () => number {
  let state = hashSeed(text)
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6

/** Turn-by-turn steps along a leg's vertices: depart, one turn a vertex, arrive (at a waypoint or the end). */
function steps(
  vertices: readonly Point[],
  distance: number,
  duration: number,
  options: RouteOptions,
  waypoint: number,
): Step[] {
  const words = WORDS[options.language]
  const lengths = vertices.slice(1).map((v, i) => distanceKm(vertices[i]!, v))
  const total = lengths.reduce((s, x) => s + x, 0)
  const out: Step[] = []
  let spentDistance = 0
  let spentDuration = 0
  const destination = vertices[vertices.length - 1]!
  for (let i = 0; i < lengths.length; i++) {
    const last = i === lengths.length - 1
    const share = total === 0 ? 1 : lengths[i]! / total
    const d = last ? distance - spentDistance : Math.round(distance * share)
    const t = last ? duration - spentDuration : Math.round(duration * share)
    spentDistance += d
    spentDuration += t
    const from = vertices[i]!
    const to = vertices[i + 1]!
    const name = roadName(options, from, to, destination)
    const location = { lat: round6(from.lat), lng: round6(from.lng) }
    if (i === 0) {
      out.push({
        distance: d,
        duration: t,
        instruction: words.depart(words.headings[headingIndex(from, to)]!, name),
        name,
        maneuver: { type: 'depart', location },
      })
      continue
    }
    const modifier = turn(vertices[i - 1]!, from, to)
    out.push({
      distance: d,
      duration: t,
      instruction: modifier === 'straight' ? words.continue(name) : words.turn(modifier, name),
      name,
      maneuver: { type: modifier === 'straight' ? 'continue' : 'turn', modifier, location },
    })
  }
  out.push({
    distance: 0,
    duration: 0,
    instruction: waypoint === 0 ? words.arrive : words.waypoint(waypoint),
    name: out[out.length - 1]?.name ?? '',
    maneuver: { type: 'arrive', location: { lat: round6(destination.lat), lng: round6(destination.lng) } },
  })
  return out
}

/** 0 = north, 1 = north-east, ... 7 = north-west. */
function headingIndex(a: Point, b: Point): number {
  const { kx, ky } = plane(a.lat)
  const bearing = Math.atan2((b.lng - a.lng) * kx, (b.lat - a.lat) * ky)
  return (Math.round(bearing / (Math.PI / 4)) + 8) % 8
}

function turn(a: Point, b: Point, c: Point): Modifier {
  const { kx, ky } = plane(b.lat)
  const h1 = Math.atan2((b.lat - a.lat) * ky, (b.lng - a.lng) * kx)
  const h2 = Math.atan2((c.lat - b.lat) * ky, (c.lng - b.lng) * kx)
  let angle = ((h2 - h1) * 180) / Math.PI
  if (angle > 180) angle -= 360
  if (angle < -180) angle += 360
  const side = angle > 0 ? 'left' : 'right'
  const size = Math.abs(angle)
  if (size < 20) return 'straight'
  if (size < 45) return `slight ${side}`
  if (size < 135) return side
  return `sharp ${side}`
}

/**
 * The road a segment follows: the seed's street at its start (100 m) or its middle (250 m); a
 * long open-road segment is the "Route de <town ahead>"; any other is a side street named as
 * Tunisian streets are, stable per segment.
 */
function roadName(options: RouteOptions, a: Point, b: Point, destination: Point): string {
  const middle = { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 }
  const geocoder = geocoderFor(options.seed)
  const street = nearestStreet(geocoder, a, 0.1) ?? nearestStreet(geocoder, middle, 0.25)
  if (street) return street.name[options.language]
  if (distanceKm(a, b) >= 2)
    return WORDS[options.language].roadTo(townName(nearestTown(destination, BIG_TOWNS)))
  const [fr, ar] = STREET_NAMESAKES[hashSeed(`${middle.lat},${middle.lng}`) % STREET_NAMESAKES.length]!
  return options.language === 'ar' ? `نهج ${ar}` : `Rue ${fr}`
}

/** Towns a road is named after ("Route de Sousse"). */
const BIG_TOWNS = POI_TOWNS.filter((t) => (t.pop ?? 0) >= 10_000)

const CELL = 0.02
const grids = new WeakMap<Geocoder, Map<string, Place[]>>()
const cellOf = (lat: number, lng: number) => `${Math.floor(lat / CELL)},${Math.floor(lng / CELL)}`

function nearestStreet(geocoder: Geocoder, p: Point, maxKm: number): Place | undefined {
  let grid = grids.get(geocoder)
  if (!grid) {
    grid = new Map()
    for (const street of geocoder.byKind.street) {
      const cell = cellOf(street.lat, street.lng)
      grid.set(cell, [...(grid.get(cell) ?? []), street])
    }
    grids.set(geocoder, grid)
  }
  let best: Place | undefined
  let bestKm = maxKm
  const row = Math.floor(p.lat / CELL)
  const col = Math.floor(p.lng / CELL)
  for (let r = row - 1; r <= row + 1; r++) {
    for (let c = col - 1; c <= col + 1; c++) {
      for (const street of grid.get(`${r},${c}`) ?? []) {
        const km = distanceKm(p, street)
        if (km < bestKm) {
          bestKm = km
          best = street
        }
      }
    }
  }
  return best
}

interface Words {
  headings: readonly string[]
  depart(heading: string, name: string): string
  turn(modifier: Exclude<Modifier, 'straight'>, name: string): string
  continue(name: string): string
  arrive: string
  waypoint(n: number): string
  roadTo(town: { fr: string; ar: string }): string
}

const frTurn: Record<Exclude<Modifier, 'straight'>, string> = {
  left: 'à gauche',
  right: 'à droite',
  'slight left': 'légèrement à gauche',
  'slight right': 'légèrement à droite',
  'sharp left': 'fortement à gauche',
  'sharp right': 'fortement à droite',
}
const enTurn: Record<Exclude<Modifier, 'straight'>, string> = {
  left: 'left',
  right: 'right',
  'slight left': 'slightly left',
  'slight right': 'slightly right',
  'sharp left': 'sharp left',
  'sharp right': 'sharp right',
}
const arTurn: Record<Exclude<Modifier, 'straight'>, string> = {
  left: 'يسارًا',
  right: 'يمينًا',
  'slight left': 'قليلًا إلى اليسار',
  'slight right': 'قليلًا إلى اليمين',
  'sharp left': 'بحدة إلى اليسار',
  'sharp right': 'بحدة إلى اليمين',
}

/** Instructions in the three languages of the API (`language`). */
const WORDS: Record<Lang, Words> = {
  fr: {
    headings: [
      'le nord',
      'le nord-est',
      "l'est",
      'le sud-est',
      'le sud',
      'le sud-ouest',
      "l'ouest",
      'le nord-ouest',
    ],
    depart: (h, name) => `Partez vers ${h}${name ? ` sur ${name}` : ''}`,
    turn: (m, name) => `Tournez ${frTurn[m]}${name ? ` sur ${name}` : ''}`,
    continue: (name) => (name ? `Continuez sur ${name}` : 'Continuez tout droit'),
    arrive: 'Vous êtes arrivé à destination',
    waypoint: (n) => `Vous êtes arrivé à l'étape ${n}`,
    roadTo: ({ fr }) => (/^[AEIOUÉÈaeiou]/.test(fr) ? `Route d'${fr}` : `Route de ${fr}`),
  },
  en: {
    headings: ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'],
    depart: (h, name) => `Head ${h}${name ? ` on ${name}` : ''}`,
    turn: (m, name) => `Turn ${enTurn[m]}${name ? ` onto ${name}` : ''}`,
    continue: (name) => (name ? `Continue on ${name}` : 'Continue straight'),
    arrive: 'You have arrived at your destination',
    waypoint: (n) => `You have arrived at waypoint ${n}`,
    roadTo: ({ fr }) => `${fr} road`,
  },
  ar: {
    headings: [
      'الشمال',
      'الشمال الشرقي',
      'الشرق',
      'الجنوب الشرقي',
      'الجنوب',
      'الجنوب الغربي',
      'الغرب',
      'الشمال الغربي',
    ],
    depart: (h, name) => `انطلق نحو ${h}${name ? ` على ${name}` : ''}`,
    turn: (m, name) => `انعطف ${arTurn[m]}${name ? ` إلى ${name}` : ''}`,
    continue: (name) => (name ? `تابع على ${name}` : 'تابع مباشرة'),
    arrive: 'لقد وصلت إلى وجهتك',
    waypoint: (n) => `لقد وصلت إلى المحطة ${n}`,
    roadTo: ({ ar }) => `طريق ${ar}`,
  },
}
