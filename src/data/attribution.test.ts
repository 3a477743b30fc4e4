import { describe, expect, it } from 'vitest'
import { DATA_ATTRIBUTION, MAP_ATTRIBUTION } from './attribution.ts'
import land from './land.json' with { type: 'json' }
import places from './tunisia.json' with { type: 'json' }

describe('DATA_ATTRIBUTION', () => {
  it('is the credit the gazetteer build wrote (npm run build:data), then OpenStreetMap for the land', () => {
    expect(DATA_ATTRIBUTION).toBe(
      `${places.attribution} Land, lakes and coast © OpenStreetMap contributors (ODbL 1.0, www.openstreetmap.org/copyright).`,
    )
  })

  it('credits OpenStreetMap contributors on the map, as the ODbL land requires', () => {
    expect(MAP_ATTRIBUTION).toMatch(/^© OpenStreetMap contributors/)
    expect(land.attribution).toMatch(/^© OpenStreetMap contributors \(ODbL 1\.0\)/)
  })
})
