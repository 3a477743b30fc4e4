import { houseDoor, streetsByAddress } from '../../data/streets.ts'
import type { Geocoder } from './geocoder.ts'
import { type Place, streetOf } from './places.ts'

/** How far from a street's axis a point still has a street address (a house on it). */
export const ADDRESS_RADIUS_M = 150

/**
 * The streets around a point in the order that gives it its address (`streetsByAddress`: the
 * street it is on, a square or a main street where several meet, then the nearer), with where
 * the point falls on each.
 */
export function streetsNear(geocoder: Geocoder, point: { lat: number; lng: number }) {
  const around = geocoder.byKind.street.filter((p) => {
    const [minLng, minLat, maxLng, maxLat] = p.bbox
    return (
      point.lat > minLat - 0.01 &&
      point.lat < maxLat + 0.01 &&
      point.lng > minLng - 0.012 &&
      point.lng < maxLng + 0.012
    )
  })
  return streetsByAddress(around, streetOf, point).map(({ item, snap, edge }) => ({
    place: item,
    snap,
    edge,
  }))
}

/** One house a point may be addressed by: a street, its number there and where its door stands. */
interface Address {
  place: Place
  number: number
  door: { lat: number; lng: number }
}

/**
 * The addresses of a point, the one it has first: on every street whose axis runs within `radius`
 * metres, the house where the point falls, in the order of `streetsNear` (the street the point is
 * on, a square or a main street where several meet, then the nearer). The one function every
 * endpoint reads a point's address from: reverse geocoding answers this list (`type=address`
 * too) and nearby places their first, so a place has one address whichever endpoint is asked.
 * @example addressesNear(geocoderFor('tmaps'), { lat: 36.8002, lng: 10.1815 })[0]?.number
 */
export function addressesNear(
  geocoder: Geocoder,
  point: { lat: number; lng: number },
  radius = ADDRESS_RADIUS_M,
  streets: ReturnType<typeof streetsNear> = streetsNear(geocoder, point),
): Address[] {
  const out: Address[] = []
  for (const { place, snap } of streets) {
    if (snap.meters <= radius)
      out.push({ place, number: snap.number, door: houseDoor(streetOf(place), snap.number) })
  }
  return out
}

/**
 * The street address of a point: the first of `addressesNear` within 150 m; `undefined` when no
 * street is that close.
 * @example addressAt(geocoderFor('tmaps'), { lat: 36.8002, lng: 10.1815 })?.number
 */
export function addressAt(geocoder: Geocoder, point: { lat: number; lng: number }): Address | undefined {
  return addressesNear(geocoder, point)[0]
}
