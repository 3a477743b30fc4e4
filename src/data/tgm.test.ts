import { describe, expect, it } from 'vitest'
import { decodePng, near } from '../../test/support/png.ts'
import { mercatorX, mercatorY, TILE_SIZE, worldSize } from '../map/projection.ts'
import { renderTile } from '../map/render.ts'
import { PALETTES } from '../map/styles.ts'
import { surfaceAt } from './land.ts'
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

  // The line crosses Lake Tunis on its causeway from Tunis Marine to Le Bac: a real crossing of the
  // water. The land mask is coarse at the causeway's east end and puts Le Bac's point, and the
  // stretch on to La Goulette by the canal, in the water: the exceptions (TGM_CAUSEWAY). Every
  // other station, and the middle of every other stretch, is on land.
  it('has no vertex in the water but at the causeway’s end, and crosses the water only on it', () => {
    const wet = TGM_STATIONS.filter((s) => surfaceAt(s.lat, s.lng) === 'water').map((s) => s.id)
    expect(wet).toEqual(['le-bac'])
    const wetStretches: string[] = []
    for (let i = 1; i < TGM_LINE.length; i++) {
      const [a, b] = [TGM_LINE[i - 1]!, TGM_LINE[i]!]
      if (surfaceAt((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) === 'water')
        wetStretches.push(`${TGM_STATIONS[i - 1]!.id}-${TGM_STATIONS[i]!.id}`)
    }
    expect(wetStretches).toEqual(['tunis-marine-le-bac', 'le-bac-la-goulette'])
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
