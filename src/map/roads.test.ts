import { describe, expect, it } from 'vitest'
import roadData from '../data/roads.json' with { type: 'json' }
import { roadsOf } from '../data/roads.ts'
import { buildRoads } from './roads.ts'

describe('the roads between towns', () => {
  it('shipped in src/data/roads.json are exactly what buildRoads makes (npm run build:data)', () => {
    expect(roadsOf(roadData.roads)).toEqual(buildRoads())
  })
})
