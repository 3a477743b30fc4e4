import { LOCALITIES } from './gazetteer.ts'
import { KM_PER_DEGREE, radians } from './geo.ts'
import outline from './tunisia-outline.json' with { type: 'json' }

type Ring = number[][]
interface Area {
  id: string
  bbox: [number, number, number, number]
  polygons: Ring[][]
}

const areas: Area[] = outline.features
  .filter((f) => f.properties.layer === 'governorate')
  .map((f) => {
    const geometry = f.geometry as { type: string; coordinates: unknown }
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Ring[][]
    let [minLng, minLat, maxLng, maxLat] = [180, 90, -180, -90]
    for (const polygon of polygons)
      for (const [lng, lat] of polygon[0]!) {
        minLng = Math.min(minLng, lng!)
        maxLng = Math.max(maxLng, lng!)
        minLat = Math.min(minLat, lat!)
        maxLat = Math.max(maxLat, lat!)
      }
    return { id: String(f.properties.id), bbox: [minLng, minLat, maxLng, maxLat], polygons }
  })

function inRing(ring: Ring, lng: number, lat: number): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number]
    const [xj, yj] = ring[j] as [number, number]
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/**
 * The governorate (ISO 3166-2 id) whose outline contains a point, or `null` at sea or abroad.
 * Outlines are simplified (see data/README): within a few hundred metres of a border or the
 * coast the answer may be the neighbour, or `null`.
 * @example governorateAt(36.8, 10.18) // 'TN-11'
 */
function governorateAt(lat: number, lng: number): string | null {
  for (const area of areas) {
    const [minLng, minLat, maxLng, maxLat] = area.bbox
    if (lng < minLng || lng > maxLng || lat < minLat || lat > maxLat) continue
    for (const [outer, ...holes] of area.polygons) {
      if (inRing(outer!, lng, lat) && !holes.some((h) => inRing(h, lng, lat))) return area.id
    }
  }
  return null
}

/** Beyond this distance from every town, a point outside the outlines is at sea or abroad. */
const COAST_TOLERANCE_KM = 5

/**
 * Whether the offline data covers a point: inside a governorate outline, or within 5 km of a
 * town (the outlines are simplified, and a harbour or a beach hotel may fall just outside them).
 * @example inCoverage(36.8, 10.18) // true; inCoverage(37.5, 11) // false (at sea)
 */
export function inCoverage(lat: number, lng: number): boolean {
  if (governorateAt(lat, lng) !== null) return true
  const cos = Math.cos(radians(lat))
  const limit = (COAST_TOLERANCE_KM / KM_PER_DEGREE) ** 2
  return LOCALITIES.some((l) => (l.lat - lat) ** 2 + ((l.lng - lng) * cos) ** 2 <= limit)
}
