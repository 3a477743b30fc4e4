export type Profile = 'driving' | 'walking' | 'cycling' | 'truck'
export const PROFILES: readonly Profile[] = ['driving', 'walking', 'cycling', 'truck']

export interface Point {
  lat: number
  lng: number
}

export interface Avoid {
  tolls?: boolean
  highways?: boolean
  ferries?: boolean
}

/**
 * Why a point is unreachable, for the 400's body (the routing endpoints and the at-sea scenario say it
 * alike).
 */
export const UNREACHABLE_WHY = 'no road reaches it: at sea, abroad or on an island without a crossing'
