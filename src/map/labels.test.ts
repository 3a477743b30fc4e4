import { describe, expect, it } from 'vitest'
import { LOCALITIES } from '../data/gazetteer.ts'
import widthData from '../data/label-widths.json' with { type: 'json' }
import { labelWidths, mapLabels, placeLabels } from './labels.ts'
import { mapWorldFor } from './map-world.ts'

const CAPITALS = LOCALITIES.filter((l) => l.fc === 'PPLA' || l.fc === 'PPLC')
const placedAt = (zoom: number) =>
  mapWorldFor('labels')
    .labelsAt(zoom)
    .map((p) => p.label)

describe('the map labels', () => {
  it('have their widths in src/data/label-widths.json exactly as the font measures them (npm run build:data)', () => {
    const { font } = mapWorldFor('labels')
    expect(widthData.widths).toEqual(labelWidths(mapLabels(), font))
  })

  it('are placed at every zoom as the font alone would place them', () => {
    const { font } = mapWorldFor('labels')
    const labels = mapLabels()
    for (const zoom of [6, 9, 12, 15])
      expect(placeLabels(labels, zoom, font, widthData.widths)).toEqual(placeLabels(labels, zoom, font))
  })

  it.each([7, 8])(
    'names the governorate capitals at zoom %i (Kairouan, Nabeul), before any other town',
    (zoom) => {
      const names = new Set(placedAt(zoom).map((l) => l.fr))
      expect(CAPITALS.length).toBe(24)
      expect(names).toContain('Kairouan')
      expect(names).toContain('Nabeul')
      expect(names).not.toContain('Douane')
      // Greater Tunis's four capitals stand within 10 km of each other: Tunis speaks for them. At
      // zoom 7 the Sahel's and Cap Bon's capitals are 20 pixels apart: one or two may lack room.
      const others = CAPITALS.map((c) => c.fr ?? c.name).filter(
        (n) => !['Ariana', 'Ben Arous', 'La Manouba'].includes(n),
      )
      const missing = others.filter((n) => !names.has(n))
      expect(missing.length, missing.join(', ')).toBeLessThanOrEqual(zoom === 7 ? 2 : 0)
    },
  )

  it.each([11, 12])(
    'names the famous places first at zoom %i: Carthage and Sidi Bou Saïd beside La Marsa, once each',
    (zoom) => {
      const names = placedAt(zoom).map((l) => l.fr)
      for (const name of ['Carthage', 'Sidi Bou Saïd', 'La Marsa', 'La Goulette'])
        expect(
          names.filter((n) => n === name),
          name,
        ).toHaveLength(1)
      // WOF's duplicate of Sidi Bou Saïd is not a second village.
      expect(names).not.toContain('Sidi Abi Said')
    },
  )

  it('has one label per place: no two towns of one name within 10 km (Gammarth, Monastir)', () => {
    const towns = mapLabels().filter((l) => l.kind === 'town')
    for (const name of ['Gammarth', 'Monastir', 'Ariana']) {
      const same = towns.filter((l) => l.fr === name)
      for (const a of same)
        for (const b of same)
          if (a !== b) expect(Math.hypot(a.x - b.x, a.y - b.y) * 40_075).toBeGreaterThan(10)
    }
    expect(towns.filter((l) => l.fr === 'Gamart')).toEqual([])
  })

  it('names a quarter called after its landmark once: Bab Saadoun by the gate from zoom 14, by the quarter before', () => {
    const quarter = mapLabels().find((l) => l.kind === 'town' && l.fr === 'Bab Saadoun')!
    expect(quarter.maxZoom).toBe(13)
    expect(quarter.minZoom).toBeLessThanOrEqual(13)
    // Other towns are named at every zoom from theirs (Tunis beside its Kasbah, Zitouna, its gates).
    expect(mapLabels().find((l) => l.kind === 'town' && l.fr === 'Tunis')!.maxZoom).toBe(18)
  })

  it('writes the names as Tunisians do, in French and in Arabic', () => {
    const towns = mapLabels().filter((l) => l.kind === 'town')
    const byName = (fr: string) => towns.find((l) => l.fr === fr)
    for (const fr of [
      'Ariana',
      'Salammbô',
      'Le Kram',
      'Kheireddine',
      'Menzel Bouzelfa',
      'Galaat el Andalous',
    ])
      expect(byName(fr), fr).toBeDefined()
    for (const wrong of [
      'Aryanah',
      'Salambaw',
      'Al Karm',
      'Khayr ad Din',
      'Mennzel Bou Zelfa',
      'Galaat el Andeless',
    ])
      expect(byName(wrong), wrong).toBeUndefined()
    expect(byName('La Soukra')?.ar).toBe('السكرة')
    expect(byName('Sidi Daoud')?.ar).toBe('سيدي داود')
  })
})
