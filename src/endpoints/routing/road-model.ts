import { distanceKm } from '../../data/geo.ts'
import { hashSeed } from '../../data/seeded.ts'

export type Profile = 'driving' | 'walking' | 'cycling' | 'truck'
export const PROFILES: readonly Profile[] = ['driving', 'walking', 'cycling', 'truck']

export interface Point {
  lat: number
  lng: number
}

/**
 * Average speed in km/h for a trip of `km` kilometres: towns are slow, intercity roads fast.
 * Walking and cycling keep one pace; a truck is never faster than a car.
 */
export function speedKmh(profile: Profile, km: number): number {
  const open = 1 - Math.exp(-km / 30)
  switch (profile) {
    case 'walking':
      return 4.8
    case 'cycling':
      return 15
    case 'driving':
      return 40 + 45 * open
    case 'truck':
      return 34 + 31 * open
  }
}

/** How much longer than the straight line a road is between two points: 1.15 to 1.45, stable per pair. */
export function detourFactor(a: Point, b: Point): number {
  const hash = hashSeed(`${a.lat.toFixed(5)},${a.lng.toFixed(5)};${b.lat.toFixed(5)},${b.lng.toFixed(5)}`)
  return 1.15 + (hash / 0xffffffff) * 0.3
}

export interface Avoid {
  tolls?: boolean
  highways?: boolean
  ferries?: boolean
}

/**
 * Road distance (m) and duration (s) between two points for a profile: never shorter than the
 * great circle, zero between identical points. Avoiding highways makes a trip slower and a
 * little longer; avoiding tolls a little longer.
 * @example leg({ lat: 36.8, lng: 10.18 }, { lat: 36.85, lng: 10.33 }, 'driving')
 */
export function leg(
  a: Point,
  b: Point,
  profile: Profile,
  avoid: Avoid = {},
): { distance: number; duration: number } {
  const straight = distanceKm(a, b)
  if (straight === 0) return { distance: 0, duration: 0 }
  let km = straight * detourFactor(a, b)
  let speed = speedKmh(profile, km)
  if (avoid.highways && (profile === 'driving' || profile === 'truck')) {
    km *= 1.06
    speed = Math.min(speed, 55)
  }
  if (avoid.tolls && (profile === 'driving' || profile === 'truck')) km *= 1.03
  const distance = Math.max(Math.ceil(straight * 1000), Math.round(km * 1000))
  return { distance, duration: Math.max(1, Math.round((km / speed) * 3600)) }
}
