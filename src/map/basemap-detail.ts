/**
 * The base map's finest level (zoom 8+), a module of its own so that `basemap.ts` loads it with a
 * plain dynamic `import()`: Vite's dev server fails on a dynamic JSON import with an import
 * attribute (vitejs/vite#19095), while a static one works everywhere. Tunisia's own land, water
 * and salt flats are `land.json`, the land mask the generator and the geocoder share.
 */
import detail from '../data/basemap-detail.json' with { type: 'json' }
import land from '../data/land.json' with { type: 'json' }

export const DETAIL_LEVEL = detail.level
export const TUNISIA_LAND = land
