import { poiTowns, townCentre, townPlaces, townRadius } from '../data/pois.ts'
import { worldFor } from '../data/world.ts'
import type { MapPoi } from './detail-labels.ts'
import { latitudeOf, longitudeOf } from './projection.ts'

/**
 * The places (generated POIs of `src/data/pois.ts`, the ones `GET /geocoding/nearby` answers) of
 * the towns whose places can stand in a box of Web Mercator units. Loaded by the renderer only
 * for views at zoom 16 and more: this module brings faker, which lower zooms never load.
 * @example poisIn('tmaps', [0.5282, 0.3979, 0.5284, 0.3981]).length > 0
 */
export function poisIn(seed: string | number, box: readonly [number, number, number, number]): MapPoi[] {
  const [west, east] = [longitudeOf(box[0]), longitudeOf(box[2])]
  const [north, south] = [latitudeOf(box[1]), latitudeOf(box[3])]
  const world = worldFor(seed)
  const out: MapPoi[] = []
  for (const town of poiTowns()) {
    const c = townCentre(town)
    const r = townRadius(town) * 1.5
    if (c.lat + r < south || c.lat - r > north) continue
    const rl = r / Math.cos((c.lat * Math.PI) / 180)
    if (c.lng + rl < west || c.lng - rl > east) continue
    for (const p of townPlaces(world, town))
      if (p.lat >= south && p.lat <= north && p.lng >= west && p.lng <= east)
        out.push({ id: p.id, category: p.category, name: p.name, lat: p.lat, lng: p.lng })
  }
  return out
}
