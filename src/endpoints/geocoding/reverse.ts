import type { ReverseGeocodingResponse } from '../../contract/openapi.ts'
import { distanceKm, round6 } from '../../data/geo.ts'
import { inCoverage } from '../../data/outline.ts'
import { LANDMARK_POIS } from '../../data/pois.ts'
import type { World } from '../../data/world.ts'
import type { EndpointContext } from '../endpoint.ts'
import { query } from '../params.ts'
import { ADDRESS_RADIUS_M, addressesNear, streetsNear } from './addresses.ts'
import { GEOCODER, type Geocoder } from './geocoder.ts'
import { poiPlace, poisWithin } from './nearby.ts'
import {
  componentsOf,
  formatPlace,
  LANGS,
  type Lang,
  PLACE_TYPES,
  type Place,
  type PlaceType,
  streetOf,
} from './places.ts'

const STREET_RADIUS_M = 300
const POI_RADIUS_M = 1000
/** A point this near a town's own point is in that town. */
const TOWN_POINT_M = 400
/**
 * A point this near a real landmark's point, and nearer to it than to any street, stands at the
 * landmark (an amphitheatre, a mosque and its courtyard span about this much from their centre):
 * the landmark is named before any address.
 */
const AT_LANDMARK_M = 100

/** A real landmark (its place and point read from a source), not a generated point of interest. */
const isLandmark = (place: Place) =>
  place.id.startsWith('poi_landmark_') || place.id.startsWith('poi:landmark:')

export interface ReverseResult {
  lat: number
  lng: number
  formatted: string
  /** Metres between the input point and this result. */
  distance: number
  type: PlaceType
  components: ReturnType<typeof componentsOf>
}

/**
 * `GET /geocoding/reverse`: the nearest address, street, POI or locality to a point, with the
 * distance in metres. A point at sea or outside Tunisia (more than 5 km from any town and outside
 * every governorate) answers an empty list.
 * @example
 * await reverseGeocoding({
 *   url: new URL('https://api.tmaps.tn/geocoding/reverse?lat=36.8&lng=10.18'),
 *   params: {},
 *   seed: 'demo',
 *   renderer: inThread,
 *   world: async () => worldFor('demo'),
 * })
 */
export async function reverseGeocoding(ctx: EndpointContext): Promise<ReverseGeocodingResponse> {
  const params = query(ctx.url.searchParams)
  const lat = params.requiredNumber('lat', { min: -90, max: 90 })
  const lng = params.requiredNumber('lng', { min: -180, max: 180 })
  const lang = params.oneOf('lang', LANGS, 'fr')
  const type = params.optionalOneOf('type', PLACE_TYPES)
  const limit = params.int('limit', { min: 1, max: 5, fallback: 1 })
  const point = { lat, lng }
  return {
    query: point,
    results: reverse(await ctx.world(), point, { lang, limit, ...(type && { type }) }),
  }
}

/**
 * The geocoder's landmarks that nearby has too (airports, heritage sites): found once, as nearby has them.
 */
const NEARBY_IDS = new Set(LANDMARK_POIS.map((p) => p.id))
/** `poi:landmark:mosquee-zitouna` -> `poi_landmark_mosquee_zitouna`, the id nearby gives it. */
const nearbyId = (place: Place) => `poi_${place.id.slice(4).replace(/\W/g, '_')}`

export function reverse(
  world: World,
  point: { lat: number; lng: number },
  { lang, limit, type }: { lang: Lang; limit: number; type?: PlaceType },
): ReverseResult[] {
  const geocoder = world.derived(GEOCODER)
  const { byKind } = geocoder
  const localities = byKind.locality
    .map((p) => ({ place: p, meters: distanceKm(point, p) * 1000 }))
    .sort((a, b) => a.meters - b.meters)
  if (!inCoverage(point.lat, point.lng)) return []

  const streets = streetsNear(geocoder, point)
  // The gazetteer's landmarks anywhere, and the places `GET /geocoding/nearby` finds close by.
  const pois = [
    ...byKind.poi
      .filter((p) => !NEARBY_IDS.has(nearbyId(p)))
      .map((p) => ({ place: p, meters: distanceKm(point, p) * 1000 })),
    ...poisWithin(world, point, type === 'poi' ? 10_000 : POI_RADIUS_M).map(({ poi, meters }) => ({
      place: poiPlace(geocoder, poi),
      meters,
    })),
  ].sort((a, b) => a.meters - b.meters)

  // A point's addresses as every endpoint reads them (`addressesNear`): its own first.
  const addresses = (radius: number) =>
    addressesNear(geocoder, point, radius, streets).map((a) =>
      result(a.place, a.door, 'address', lang, point, String(a.number)),
    )
  const streetResults = (radius: number) =>
    streets.filter((s) => s.snap.meters <= radius).map((s) => result(s.place, s.snap, 'street', lang, point))
  const atLandmark = landmarkTest(geocoder, point, streets)
  const poiResults = (radius: number, which: (place: Place) => boolean = () => true) =>
    pois
      .filter((p) => p.meters <= radius && which(p.place))
      .map((p) => result(p.place, p.place, 'poi', lang, point))
  // The commune containing the point, as the docs say `type=locality` answers: a town at whose own
  // point it stands (within 400 m: Kheireddine among La Goulette's streets), else the town of the
  // street the point stands on (within 300 m), before the nearest other town centres.
  const nearestStreet = streets[0]
  const atTown = localities[0] && localities[0].meters <= TOWN_POINT_M ? localities[0] : undefined
  const home =
    atTown ??
    (nearestStreet && nearestStreet.snap.meters <= STREET_RADIUS_M
      ? localities.find((l) => l.place.id === `loc:${streetOf(nearestStreet.place).locality.id}`)
      : undefined)
  const localityResults = () =>
    [...(home ? [home] : []), ...localities.filter((l) => l !== home)]
      .slice(0, 5)
      .map((l) => result(l.place, l.place, 'locality', lang, point))

  const all =
    type === 'address'
      ? addresses(STREET_RADIUS_M)
      : type === 'street'
        ? streetResults(STREET_RADIUS_M)
        : type === 'poi'
          ? poiResults(50_000)
          : type === 'locality'
            ? localityResults()
            : [
                ...poiResults(AT_LANDMARK_M, atLandmark),
                ...addresses(ADDRESS_RADIUS_M),
                ...streetResults(STREET_RADIUS_M),
                ...poiResults(POI_RADIUS_M, (place) => !atLandmark(place)),
                ...localityResults(),
              ]
  // With a type, nearest first, after the point's own where it has one (a locality: the one
  // containing it; an address: its own, as every endpoint reads it, `addressesNear`); without, by
  // kind first (address, street, POI, locality), as the docs' sample answers an address, after
  // the landmark the point stands at, if any.
  if (type === undefined) return all.slice(0, limit)
  const [own, ...rest] = all
  const nearest = (list: ReverseResult[]) => list.sort((a, b) => a.distance - b.distance)
  const ordered =
    type === 'address' || type === 'locality' ? [...(own ? [own] : []), ...nearest(rest)] : nearest(all)
  return ordered.slice(0, limit)
}

/**
 * Whether a place is the landmark a point stands at: within reach of its point and nearer to it
 * than to any street or door (a point on a street beside a monument names the street's address,
 * and a place at its door beside one its own address).
 */
function landmarkTest(
  geocoder: Geocoder,
  point: { lat: number; lng: number },
  streets: ReturnType<typeof streetsNear>,
): (place: Place) => boolean {
  let offStreet: number | undefined
  return (place) => {
    const meters = distanceKm(point, place) * 1000
    if (!isLandmark(place) || meters > AT_LANDMARK_M) return false
    if (offStreet === undefined) {
      const door = addressesNear(geocoder, point, ADDRESS_RADIUS_M, streets)[0]?.door
      offStreet = Math.min(
        streets[0]?.snap.meters ?? Number.POSITIVE_INFINITY,
        door ? distanceKm(point, door) * 1000 : Number.POSITIVE_INFINITY,
      )
    }
    return meters < offStreet
  }
}

function result(
  place: Place,
  at: { lat: number; lng: number },
  type: PlaceType,
  lang: Lang,
  from: { lat: number; lng: number },
  houseNumber?: string,
): ReverseResult {
  const lat = round6(at.lat)
  const lng = round6(at.lng)
  return {
    lat,
    lng,
    formatted: formatPlace(place, lang, houseNumber),
    distance: Math.round(distanceKm(from, { lat, lng }) * 10000) / 10,
    type,
    components: componentsOf(place, lang, houseNumber),
  }
}
