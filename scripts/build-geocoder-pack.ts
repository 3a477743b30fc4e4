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
const { packGeocoder } = await import(join(dist, 'endpoints/geocoding/geocoder.js'))
const { PACK_FILE, PACKED_SEED } = await import(join(dist, 'endpoints/geocoding/prebuilt.js'))

if (PACKED_SEED !== DEFAULT_DATA_SEED)
  throw new Error(
    `prebuilt.ts packs seed ${PACKED_SEED} but the default seed is ${DEFAULT_DATA_SEED}: make them one`,
  )
const pack = packGeocoder(worldFor(PACKED_SEED))
const file = join(dist, 'endpoints/geocoding', PACK_FILE)
// ASCII only (other characters as JSON escapes): Node reads it ~3x faster than UTF-8 with Arabic in it.
const text = JSON.stringify(pack).replace(
  /[\u0080-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
)
writeFileSync(file, text)
console.log(`${file}: the geocoder of seed ${PACKED_SEED} (${text.length} bytes)`)
