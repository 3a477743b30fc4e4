import { describe, expect, it } from 'vitest'
import { decodePng, near } from '../../test/support/png.ts'
import { mercatorX, mercatorY, TILE_SIZE, worldSize } from '../map/projection.ts'
import { renderTile } from '../map/render.ts'
import { PALETTES } from '../map/styles.ts'
import { distanceKm } from './geo.ts'
import { onCauseway as onCausewayAt, surfaceAt } from './land.ts'
import { LANDMARKS } from './landmarks.ts'
import { TGM_CAUSEWAY, TGM_LINE, TGM_STATIONS } from './tgm.ts'

describe('the TGM line', () => {
  it('has its 18 stations in order, from Tunis Marine to Marsa Plage, going north-east', () => {
    expect(TGM_STATIONS).toHaveLength(18)
    expect(TGM_STATIONS[0]!.fr).toBe('Tunis Marine')
    expect(TGM_STATIONS.at(-1)!.fr).toBe('Marsa Plage')
    // From La Goulette to La Corniche, each station is north of the one before (the line runs up
    // the coast, then turns west along the Corniche to Marsa Plage).
    for (let i = 2; i < TGM_STATIONS.length - 2; i++)
      expect(TGM_STATIONS[i + 1]!.lat, TGM_STATIONS[i + 1]!.fr).toBeGreaterThan(TGM_STATIONS[i]!.lat)
  })

  // The line crosses Lake Tunis on its causeway from Tunis Marine to Le Bac and on to La Goulette,
  // the land the mask lays over the water along it (scripts/build-land.ts): every station is on
  // land, and so is every point of those stretches every 50 m, the causeway's land, which carries
  // the road beside it (the line once ran 200-500 m north of it, over open water).
  it('runs on land everywhere, over Lake Tunis on the causeway it shares with the road', () => {
    const wet = TGM_STATIONS.filter((s) => surfaceAt(s.lat, s.lng) === 'water').map((s) => s.id)
    expect(wet).toEqual([])
    for (let i = 1; i < TGM_LINE.length; i++) {
      const [a, b] = [TGM_LINE[i - 1]!, TGM_LINE[i]!]
      const steps = Math.ceil(distanceKm({ lat: a[0], lng: a[1] }, { lat: b[0], lng: b[1] }) * 20)
      const stretch = `${TGM_STATIONS[i - 1]!.id}-${TGM_STATIONS[i]!.id}`
      const onCauseway = TGM_CAUSEWAY.includes(TGM_STATIONS[i]!.id as never) && i < TGM_CAUSEWAY.length
      // Elsewhere the coast is coarse (~0.9 km): the middle of each stretch is on land.
      if (!onCauseway) expect(surfaceAt((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), stretch).toBe('land')
      else
        for (let k = 0; k <= steps; k++) {
          const [lat, lng] = [a[0] + ((b[0] - a[0]) * k) / steps, a[1] + ((b[1] - a[1]) * k) / steps]
          expect(surfaceAt(lat, lng), `${stretch} at ${lat.toFixed(5)}, ${lng.toFixed(5)}`).toBe('land')
          if (k > 0 && k < steps - 2) expect(onCausewayAt(lat, lng), stretch).toBe(true)
        }
    }
    expect(TGM_STATIONS.slice(0, 3).map((s) => s.id)).toEqual([...TGM_CAUSEWAY])
  })

  it('makes its stations landmarks the geocoder and the map know', () => {
    const stations = LANDMARKS.filter((l) => l.id.startsWith('gare-tgm-'))
    expect(stations).toHaveLength(17) // Tunis Marine is a landmark of its own
    for (const s of stations) expect(s.kind).toBe('station')
  })

  it.each([11, 13, 15])(
    'is drawn at zoom %i as a dark-grey line through Carthage Byrsa’s tile',
    async (zoom) => {
      const byrsa = TGM_STATIONS.find((s) => s.id === 'carthage-byrsa')!
      const size = worldSize(zoom)
      const [px, py] = [mercatorX(byrsa.lng) * size, mercatorY(byrsa.lat) * size]
      const [tx, ty] = [Math.floor(px / TILE_SIZE), Math.floor(py / TILE_SIZE)]
      const tile = decodePng(await renderTile('tgm', zoom, tx, ty))
      // The line's colour near the station's pixel (the station's icon covers the point itself at 14+).
      const grey = PALETTES.streets.railway
      let found = 0
      const [cx, cy] = [Math.round(px - tx * TILE_SIZE), Math.round(py - ty * TILE_SIZE)]
      for (let dy = -40; dy <= 40; dy++)
        for (let dx = -40; dx <= 40; dx++) {
          const [x, y] = [cx + dx, cy + dy]
          if (x < 0 || y < 0 || x >= TILE_SIZE || y >= TILE_SIZE) continue
          if (near(tile.pixel(x, y), grey, 20)) found++
        }
      expect(found).toBeGreaterThan(10)
    },
    120_000,
  )
})
