import type { NearbySearchResponse } from '../../contract/openapi.ts'
import { distanceKm, KM_PER_DEGREE } from '../../data/geo.ts'
import {
  LANDMARK_POIS,
  POI_CATEGORIES,
  type Poi,
  type PoiCategory,
  poiTowns,
  townCentre,
  townPlaces,
  townRadius,
} from '../../data/pois.ts'
import type { World } from '../../data/world.ts'
import { tokenize } from '../../text/fold.ts'
import type { EndpointContext } from '../endpoint.ts'
import { query } from '../params.ts'
import { addressAt } from './addresses.ts'
import { GEOCODER, type Geocoder } from './geocoder.ts'
import { formatPlace, LANGS, type Lang, type Place, streetOf } from './places.ts'

/** One item of `GET /geocoding/nearby` (the mock's shape: the documentation cuts it). */
export interface NearbyResult {
  id: string
  name: string
  category: PoiCategory
  categories: PoiCategory[]
  lat: number
  lng: number
  /** Metres from the search centre. */
  distance: number
  address: string
  phone?: string
  opening_hours?: string
}

/**
 * `GET /geocoding/nearby`: points of interest within `radius` metres (at most 10 000) of a point,
 * nearest first, filtered by any of `categories` and by `q` on the name.
 * @example
 * await nearbySearch({
 *   url: new URL('https://api.tmaps.tn/geocoding/nearby?lat=36.8&lng=10.18&radius=1500'),
 *   params: {},
 *   seed: 'demo',
 *   renderer: inThread,
 *   world: async () => worldFor('demo'),
 * })
 */
export async function nearbySearch(ctx: EndpointContext): Promise<NearbySearchResponse> {
  const params = query(ctx.url.searchParams)
  const lat = params.requiredNumber('lat', { min: -90, max: 90 })
  const lng = params.requiredNumber('lng', { min: -180, max: 180 })
  const radius = params.requiredInt('radius', { min: 1, max: 10_000 })
  const categories = params.list('categories', POI_CATEGORIES)
  const q = params.optionalText('q', { max: 256 })
  const limit = params.int('limit', { min: 1, max: 100, fallback: 20 })
  const lang = params.oneOf('lang', LANGS, 'fr')
  return {
    query: { lat, lng, radius, ...(categories && { categories }), ...(q && { q }), limit, lang },
    results: nearby(await ctx.world(), { lat, lng }, radius, {
      limit,
      lang,
      ...(categories && { categories }),
      ...(q && { q }),
    }),
  }
}

export function nearby(
  world: World,
  center: { lat: number; lng: number },
  radiusM: number,
  {
    limit,
    lang,
    categories,
    q,
  }: { limit: number; lang: Lang; categories?: readonly PoiCategory[]; q?: string },
): NearbyResult[] {
  const words = q === undefined ? [] : tokenize(q)
  const matches = (poi: Poi) =>
    (!categories || poi.categories.some((c) => categories.includes(c))) &&
    (words.length === 0 || matchesName(poi, words))
  const found = poisWithin(world, center, radiusM).filter((p) => matches(p.poi))
  const geocoder = world.derived(GEOCODER)
  return found.slice(0, limit).map(({ poi, meters }) => ({
    id: poi.id,
    name: poi.name[lang],
    category: poi.category,
    categories: poi.categories,
    lat: poi.lat,
    lng: poi.lng,
    distance: Math.round(meters * 10) / 10,
    address: addressOf(geocoder, poi, lang),
    ...(poi.phone && { phone: poi.phone }),
    ...(poi.openingHours && { opening_hours: poi.openingHours }),
  }))
}

/** Every place within `radiusM` metres, nearest first (ties by id, so the order is stable). */
export function poisWithin(world: World, center: { lat: number; lng: number }, radiusM: number) {
  const reachKm = radiusM / 1000
  const out: { poi: Poi; meters: number }[] = []
  const consider = (poi: Poi) => {
    const km = distanceKm(center, poi)
    if (km <= reachKm) out.push({ poi, meters: km * 1000 })
  }
  for (const town of poiTowns()) {
    // Towns whose places could reach the circle: centre distance <= radius + the town's spread.
    const spreadKm = townRadius(town) * KM_PER_DEGREE * 1.2
    const at = townCentre(town)
    if (Math.abs(at.lat - center.lat) * KM_PER_DEGREE > reachKm + spreadKm) continue
    if (distanceKm(center, at) > reachKm + spreadKm) continue
    for (const poi of townPlaces(world, town)) consider(poi)
  }
  for (const poi of LANDMARK_POIS) consider(poi)
  return out.sort((a, b) => a.meters - b.meters || (a.poi.id < b.poi.id ? -1 : 1))
}

function matchesName(poi: Poi, words: string[]): boolean {
  const names = new Set([...tokenize(poi.name.fr), ...tokenize(poi.name.en), ...tokenize(poi.name.ar)])
  return words.every((w) => [...names].some((n) => n.startsWith(w)))
}

/** How near its house's door (km) a place stands to be addressed by it. */
const DOOR_KM = 0.03

/** The real landmarks among the nearby places. */
const REAL_LANDMARKS: ReadonlySet<string> = new Set(LANDMARK_POIS.map((p) => p.id))

/**
 * The street address of a place, exactly as reverse geocoding answers it first at the place's
 * point (`addressAt`: its house on the nearest street within 150 m) when it stands at that
 * house's door (within 30 m: forward geocoding of the address finds it), else its town.
 */
function addressOf(geocoder: Geocoder, poi: Poi, lang: Lang): string {
  // A real landmark stands where it stands and is addressed by its town, as forward and reverse
  // geocoding answer it (its own page's point is rarely a door of the generated numbering); a
  // generated place stands at its door and has that address.
  if (REAL_LANDMARKS.has(poi.id)) {
    const town = addressBook(geocoder).towns.get(`loc:${poi.locality.id}`)
    return town ? formatPlace(town, lang) : poi.locality.name
  }
  const at = addressAt(geocoder, poi)
  if (at && distanceKm(at.door, poi) <= DOOR_KM) return formatPlace(at.place, lang, String(at.number))
  const town = addressBook(geocoder).towns.get(`loc:${poi.locality.id}`)
  return town ? formatPlace(town, lang) : poi.locality.name
}

/** A generated place as a geocoding `Place` (for reverse geocoding): its town's address, its own name. */
export function poiPlace(geocoder: Geocoder, poi: Poi): Place {
  const town = addressBook(geocoder).towns.get(`loc:${poi.locality.id}`)
  if (!town) throw new Error(`no town ${poi.locality.id} for ${poi.id}`)
  return {
    ...town,
    id: poi.id,
    kind: 'poi',
    type: 'poi',
    name: poi.name,
    lat: poi.lat,
    lng: poi.lng,
    aliases: [],
  }
}

const books = new WeakMap<Geocoder, { streets: Map<string, Place[]>; towns: Map<string, Place> }>()
function addressBook(geocoder: Geocoder) {
  let book = books.get(geocoder)
  if (!book) {
    book = { streets: new Map(), towns: new Map(geocoder.byKind.locality.map((p) => [p.id, p])) }
    for (const street of geocoder.byKind.street) {
      const id = streetOf(street).locality.id
      book.streets.set(id, [...(book.streets.get(id) ?? []), street])
    }
    books.set(geocoder, book)
  }
  return book
}
