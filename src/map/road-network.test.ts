import { describe, expect, it } from 'vitest'
import { distanceKm } from '../data/geo.ts'
import { onLand, surfaceAt } from '../data/land.ts'
import { ROAD_FACTS } from '../data/road-network.ts'
import { waypointOf } from './roads.ts'

/** Kilometres of water (not salt flats) on the straight line between two points, sampled every 50 m. */
function waterKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const d = distanceKm(a, b)
  const n = Math.max(1, Math.ceil(d / 0.05))
  let wet = 0
  for (let k = 0; k < n; k++) {
    const t = (k + 0.5) / n
    if (surfaceAt(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t) === 'water') wet += d / n
  }
  return wet
}

describe('the traced road network (src/data/road-network.ts)', () => {
  it.each(ROAD_FACTS.map((r) => [r.ref || r.name, r] as const))(
    '%s has a source and stands on land',
    (_, road) => {
      expect(road.source.length).toBeGreaterThan(10)
      const points = road.via.map(waypointOf).map(([lat, lng]) => ({ lat, lng }))
      const crossing = new Set(road.crossings ?? [])
      points.forEach((p, i) => {
        // A vertex at either end of a declared crossing may stand in the water (a bridge's pier).
        if (crossing.has(i) || crossing.has(i - 1)) return
        expect(onLand(p.lat, p.lng), `vertex ${i} (${p.lat}, ${p.lng})`).toBe(true)
      })
      for (let i = 1; i < points.length; i++) {
        if (crossing.has(i - 1)) continue
        // The mask is simplified (edges of ~0.9 km): a river mouth or a dam may graze a segment.
        expect(waterKm(points[i - 1]!, points[i]!), `segment ${i - 1}`).toBeLessThan(0.55)
      }
    },
  )

  it('runs the A1 inland from Sfax to Gabès, the A4 east of Lake Bizerte, the ferry as a ferry', () => {
    const a1 = ROAD_FACTS.find((r) => r.ref === 'A1')!
    const south = a1.via.map(waypointOf).filter(([lat]) => lat < 34.75)
    for (const [lat, lng] of south) expect(onLand(lat, lng)).toBe(true)
    const a4 = ROAD_FACTS.find((r) => r.ref === 'A4')!.via.map(waypointOf)
    for (const [lat, lng] of a4) if (lat > 37.1) expect(lng).toBeGreaterThan(9.86)
    expect(ROAD_FACTS.find((r) => r.name.startsWith('Bac'))!.kind).toBe('ferry')
  })
})
