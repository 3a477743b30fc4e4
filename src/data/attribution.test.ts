import { describe, expect, it } from 'vitest'
import places from './tunisia.json' with { type: 'json' }
import { DATA_ATTRIBUTION } from './attribution.ts'

describe('DATA_ATTRIBUTION', () => {
  it('is the credit the gazetteer build wrote (npm run build:data)', () => {
    expect(DATA_ATTRIBUTION).toBe(places.attribution)
  })
})
