import { snapToStreet } from '../../data/streets.ts'
import type { Geocoder } from './geocoder.ts'
import type { Place } from './places.ts'

/** How far from a street's axis a point still has a street address (a house on it). */
export const ADDRESS_RADIUS_M = 150

/** Where streets meet (within this many metres of each), the square, then the main street, names the point. */
const JUNCTION_M = 2

/** How a street ranks among those that meet at a point: a square, a main street, any other. */
const rank = (p: Place) => (p.street!.square ? 0 : p.street!.main ? 1 : 2)

/**
 * Half the width of a street in metres: a point on its carriageway or pavement is on it. A square
 * is about 50 m across, a main avenue 24 m (Avenue Habib Bourguiba is 60), a street 8.
 */
const halfWidth = (p: Place) => (p.street!.square ? 25 : p.street!.main ? 12 : 4)

/**
 * The streets around a point, nearest first (by the distance to the street's edge: its course
 * less its half-width), with where the point falls on each. Where several meet at the point (a
 * junction, a square), the square comes first, then the main street.
 */
export function streetsNear(geocoder: Geocoder, point: { lat: number; lng: number }) {
  const byId = (a: { place: Place }, b: { place: Place }) => (a.place.id < b.place.id ? -1 : 1)
  const list = geocoder.byKind.street
    .filter((p) => {
      const [minLng, minLat, maxLng, maxLat] = p.bbox
      return (
        point.lat > minLat - 0.01 &&
        point.lat < maxLat + 0.01 &&
        point.lng > minLng - 0.012 &&
        point.lng < maxLng + 0.012
      )
    })
    .map((p) => {
      const snap = snapToStreet(p.street!, point)
      return { place: p, snap, edge: Math.max(0, snap.meters - halfWidth(p)) }
    })
    .sort((a, b) => a.edge - b.edge || a.snap.meters - b.snap.meters || byId(a, b))
  const nearest = list[0]
  if (!nearest) return list
  let meet = 1
  while (meet < list.length && list[meet]!.edge <= nearest.edge + JUNCTION_M) meet++
  const junction = list
    .slice(0, meet)
    .sort((a, b) => rank(a.place) - rank(b.place) || a.snap.meters - b.snap.meters || byId(a, b))
  return [...junction, ...list.slice(meet)]
}

/**
 * The street address of a point, as reverse geocoding answers it first: the nearest street axis
 * within 150 m and the house number there; `undefined` when no street is that close.
 * Nearby places read their addresses here too.
 * @example addressAt(geocoderFor('tmaps'), { lat: 36.8002, lng: 10.1815 })?.number
 */
export function addressAt(geocoder: Geocoder, point: { lat: number; lng: number }) {
  const nearest = streetsNear(geocoder, point)[0]
  return nearest && nearest.snap.meters <= ADDRESS_RADIUS_M
    ? { place: nearest.place, number: nearest.snap.number }
    : undefined
}
