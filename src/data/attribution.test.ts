import { describe, expect, it } from 'vitest'
import { DATA_ATTRIBUTION, MAP_ATTRIBUTION } from './attribution.ts'
import land from './land.json' with { type: 'json' }
import places from './tunisia.json' with { type: 'json' }

describe('DATA_ATTRIBUTION', () => {
  it('is the credit the gazetteer build wrote (npm run build:data), then OpenStreetMap for the land and GSHHG for the sea coast and two lakes', () => {
    expect(DATA_ATTRIBUTION).toBe(
      `${places.attribution} Land, lakes and coast © OpenStreetMap contributors (ODbL 1.0, www.openstreetmap.org/copyright); sea coast and two lakes (Ichkeul, the Mellègue reservoir) from GSHHG 2.3.7 (Wessel & Smith, LGPL-3.0-or-later, www.soest.hawaii.edu/pwessel/gshhg).`,
    )
    expect(land.attribution).toContain('GSHHG 2.3.7')
  })

  it('credits OpenStreetMap contributors on the map, as the ODbL land requires', () => {
    expect(MAP_ATTRIBUTION).toMatch(/^© OpenStreetMap contributors/)
    expect(land.attribution).toMatch(/^© OpenStreetMap contributors \(ODbL 1\.0\)/)
  })
})
