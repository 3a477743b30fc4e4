/**
 * A step of `npm run build`: the default seed's geocoder, made by the compiled code and written
 * beside it (`dist/endpoints/geocoding/geocoder-pack.json`; src/endpoints/geocoding/prebuilt.ts):
 * a fresh Node process then answers its first geocode without naming the seed's ~6,700 streets
 * nor indexing ~9,000 places (bench: cold start).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dist = join(import.meta.dirname, '../dist')
const { DEFAULT_DATA_SEED } = await import(join(dist, 'core/options.js'))
const { worldFor } = await import(join(dist, 'data/world.js'))
const { geocoderParts, indexOptions } = await import(join(dist, 'endpoints/geocoding/geocoder.js'))
const { gazetteerPlaces } = await import(join(dist, 'endpoints/geocoding/places.js'))
const { PACK_FILE, PACKED_SEED, toPack } = await import(join(dist, 'endpoints/geocoding/prebuilt.js'))
const { installIndex, termTree } = await import(join(dist, 'endpoints/geocoding/search-index.js'))

if (PACKED_SEED !== DEFAULT_DATA_SEED)
  throw new Error(
    `prebuilt.ts packs seed ${PACKED_SEED} but the default seed is ${DEFAULT_DATA_SEED}: make them one`,
  )
const parts = geocoderParts(worldFor(PACKED_SEED), undefined)
const { index } = parts
const entries = parts.entries()
const tree = termTree(installIndex(index, indexOptions()), index)
const gazetteer = gazetteerPlaces()
const file = join(dist, 'endpoints/geocoding', PACK_FILE)
// ASCII only (other characters as JSON escapes): Node reads it ~3x faster than UTF-8 with Arabic in it.
const text = JSON.stringify(toPack(PACKED_SEED, gazetteer, entries, { ...index, tree })).replace(
  /[\u0080-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
)
writeFileSync(file, text)
console.log(`${file}: the geocoder of seed ${PACKED_SEED} (${entries.length} streets; ${text.length} bytes)`)
