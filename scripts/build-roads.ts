/**
 * Writes `src/data/roads.json`: the roads between towns (`buildRoads` in src/map/roads.ts: the
 * traced main roads of src/data/road-network.ts and the generated local roads), the
 * same for every seed, computed here once rather than in every page that draws a map (~70 ms
 * of the render worker's start). `src/map/roads.test.ts` checks the file against the generator.
 * Run with `npm run build:data`.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildRoads } from '../src/map/roads.ts'

const root = resolve(import.meta.dirname, '..')
const roads = buildRoads().map(({ points, ...road }) => ({ ...road, points: [...points] }))
const text = `${JSON.stringify({ generator: 'scripts/build-roads.ts (buildRoads of src/map/roads.ts)', roads })}\n`
writeFileSync(join(root, 'src/data/roads.json'), text)
console.log(`wrote src/data/roads.json (${roads.length} roads, ${Math.round(text.length / 1024)} kB)`)
