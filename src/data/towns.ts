import { must } from '../validate/must.ts'
import { LOCALITIES, type Locality } from './gazetteer.ts'
import { radians } from './geo.ts'
import type { Names } from './lang.ts'
import { isOwnPlace, placeName } from './place-names.ts'
import { townCentre } from './town-centre.ts'

export { townCentre }

// Towns: the gazetteer's localities as the places people and POIs cluster around, for the
// generated POIs, routing's road names and geocoding alike (asking needs no POI generation).

/**
 * Every town once (one per point), biggest first; not the points that are part of another town
 * (GeoNames' "Douane" with Nabeul's population: Nabeul's places are Nabeul's, not twice over).
 * Made on first use (a geocoder read from the build's pack never needs it).
 */
export const poiTowns = (): readonly Locality[] => (towns ??= sortTowns())
let towns: readonly Locality[] | undefined

function sortTowns(): readonly Locality[] {
  const seen = new Set<string>()
  const sorted = [...LOCALITIES].sort((a, b) => (b.pop ?? 0) - (a.pop ?? 0) || (a.id < b.id ? -1 : 1))
  return sorted.filter((l) => {
    if (!isOwnPlace(l)) return false
    const key = `${l.lat.toFixed(3)},${l.lng.toFixed(3)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** How far (degrees of latitude) a town's places spread from its centre. */
export function townRadius(locality: Locality): number {
  return Math.min(0.05, 0.006 + Math.sqrt(locality.pop ?? 0) / 20000)
}

/** A town's names in the three languages: the names the map draws (`placeName`). */
export const townName = (l: Locality): Names => placeName(l)

/** The town of `towns` (default: every town) nearest a point. */
export function nearestTown(
  { lat, lng }: { lat: number; lng: number },
  towns: readonly Locality[] = poiTowns(),
): Locality {
  let best = must(towns[0], 'nearestTown() was given no towns')
  let bestD = Number.POSITIVE_INFINITY
  const lngScale = Math.cos(radians(lat))
  for (const l of towns) {
    const d = (l.lat - lat) ** 2 + ((l.lng - lng) * lngScale) ** 2
    if (d < bestD) {
      bestD = d
      best = l
    }
  }
  return best
}
