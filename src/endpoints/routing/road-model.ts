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
