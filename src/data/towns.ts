import { LOCALITIES, type Locality } from './gazetteer.ts'
import { radians } from './geo.ts'
import type { Names } from './lang.ts'
import { TUNIS_BOURGUIBA, TUNIS_ID } from './streets.ts'

// Towns: the gazetteer's localities as the places people and POIs cluster around, for the
// generated POIs, routing's road names and geocoding alike (asking needs no POI generation).

/** Every town once (one per point), biggest first. */
export const POI_TOWNS: readonly Locality[] = (() => {
  const seen = new Set<string>()
  const sorted = [...LOCALITIES].sort((a, b) => (b.pop ?? 0) - (a.pop ?? 0) || (a.id < b.id ? -1 : 1))
  return sorted.filter((l) => {
    const key = `${l.lat.toFixed(3)},${l.lng.toFixed(3)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
})()

/** Where a town's places cluster: its gazetteer point, except Tunis (see below). */
export function townCentre(locality: Locality): { lat: number; lng: number } {
  // The gazetteer's point for Tunis is the Kasbah; its busiest streets are downtown, the docs' "Tunis centre".
  return locality.id === TUNIS_ID ? TUNIS_BOURGUIBA : locality
}

/** How far (degrees of latitude) a town's places spread from its centre. */
export function townRadius(locality: Locality): number {
  return Math.min(0.05, 0.006 + Math.sqrt(locality.pop ?? 0) / 20000)
}

/** A town's names in the three languages. */
export const townName = (l: Locality): Names => {
  const fr = l.fr ?? l.name
  // Some gazetteer Arabic names carry the governorate after a comma ("سكرة، تونس"): keep the town.
  const ar = (l.ar ?? fr).split('،')[0]!.trim()
  return { fr, en: l.en ?? fr, ar }
}

/** The town of `towns` (default: every town) nearest a point. */
export function nearestTown(
  { lat, lng }: { lat: number; lng: number },
  towns: readonly Locality[] = POI_TOWNS,
): Locality {
  let best = towns[0]!
  let bestD = Number.POSITIVE_INFINITY
  for (const l of towns) {
    const d = (l.lat - lat) ** 2 + ((l.lng - lng) * Math.cos(radians(lat))) ** 2
    if (d < bestD) {
      bestD = d
      best = l
    }
  }
  return best
}
