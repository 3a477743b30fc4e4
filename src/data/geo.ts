/** A point on the map, in WGS84 degrees. */
export interface LatLng {
  lat: number
  lng: number
}

/** Kilometres in a degree of longitude at the equator (and the mean length of a degree used here). */
export const KM_PER_DEGREE = 111.32
/** Metres in a degree of latitude around Tunisia's latitudes. */
export const M_PER_DEGREE_LAT = 110_540

/** Degrees to radians. */
export function radians(degrees: number): number {
  return (degrees * Math.PI) / 180
}

/** Kilometres in a degree of longitude at a latitude. */
export function kmPerDegreeLng(lat: number): number {
  return KM_PER_DEGREE * Math.cos(radians(lat))
}

/**
 * Great-circle distance in kilometres (haversine, on a sphere of 6,371 km).
 * @example distanceKm({ lat: 36.8, lng: 10.18 }, { lat: 34.74, lng: 10.76 }) // about 234
 */
export function distanceKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 12742 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Flat-earth kilometres between two nearby points (fast; fine within a few tens of km). */
export function flatKm(a: LatLng, b: LatLng): number {
  return Math.hypot(a.lat - b.lat, (a.lng - b.lng) * Math.cos(radians(a.lat))) * KM_PER_DEGREE
}

/** A coordinate rounded to 6 decimals (~0.1 m), as the API's answers give them. */
export function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6
}

/**
 * Delta-encoded integer pairs (each the step from the pair before, as the build scripts write
 * them) as flat coordinates: `x / scale` and `y / scale`, each through `toX` and `toY`.
 */
export function decodeDeltas(
  encoded: readonly number[],
  scale: number,
  toX: (v: number) => number = (v) => v,
  toY: (v: number) => number = (v) => v,
): Float64Array {
  const out = new Float64Array(encoded.length)
  let [x, y] = [0, 0]
  // Pairs below `length`: `?? 0` is never taken.
  for (let i = 0; i < encoded.length; i += 2) {
    x += encoded[i] ?? 0
    y += encoded[i + 1] ?? 0
    out[i] = toX(x / scale)
    out[i + 1] = toY(y / scale)
  }
  return out
}
