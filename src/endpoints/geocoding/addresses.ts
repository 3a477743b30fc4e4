import { snapToStreet } from '../../data/streets.ts'
import type { Geocoder } from './geocoder.ts'

/** How far from a street's axis a point still has a street address (a house on it). */
export const ADDRESS_RADIUS_M = 150

/** The streets around a point, nearest axis first, with where the point falls on each. */
export function streetsNear(geocoder: Geocoder, point: { lat: number; lng: number }) {
  return geocoder.byKind.street
    .filter((p) => Math.abs(p.lat - point.lat) < 0.05 && Math.abs(p.lng - point.lng) < 0.06)
    .map((p) => ({ place: p, snap: snapToStreet(p.street!, point) }))
    .sort((a, b) => a.snap.meters - b.snap.meters || (a.place.id < b.place.id ? -1 : 1))
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
