import { describe, expect, it } from 'vitest'
import { DATA_ATTRIBUTION } from './attribution.ts'
import places from './tunisia.json' with { type: 'json' }

describe('DATA_ATTRIBUTION', () => {
  it('is the credit the gazetteer build wrote (npm run build:data)', () => {
    expect(DATA_ATTRIBUTION).toBe(places.attribution)
  })
})
