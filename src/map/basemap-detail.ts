/**
 * The base map's finest level (zoom 8+), a module of its own so that `basemap.ts` loads it with a
 * plain dynamic `import()`: Vite's dev server fails on a dynamic JSON import with an import
 * attribute (vitejs/vite#19095), while a static one works everywhere.
 */
import detail from '../data/basemap-detail.json' with { type: 'json' }

export const DETAIL_LEVEL = detail.level
