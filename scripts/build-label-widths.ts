/**
 * Writes `src/data/label-widths.json`: the width in em of every map label's text (towns, countries,
 * seas; French and Arabic) in the labels' typeface, as `font.layout` measures it (`labelWidths`
 * of src/map/labels.ts). Placing a zoom's labels needs every width at once; shaping them with
 * opentype.js took ~140 ms of a process's (or a page's render worker's) first tile from zoom 10.
 * The same for every seed. `src/map/labels.test.ts` checks the file against the font.
 * Run with `npm run build:data` (after the gazetteer and the font).
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fontData from '../src/data/font-cairo.json' with { type: 'json' }
import { labelWidths, mapLabels } from '../src/map/labels.ts'
import { createLabelFont } from '../src/rasterizer/font.ts'

const root = resolve(import.meta.dirname, '..')
const bytes = Uint8Array.from(Buffer.from(fontData.ttf, 'base64'))
const widths = labelWidths(mapLabels(), createLabelFont(bytes.buffer))
const text = `${JSON.stringify({ generator: 'scripts/build-label-widths.ts (labelWidths of src/map/labels.ts)', widths })}\n`
writeFileSync(join(root, 'src/data/label-widths.json'), text)
console.log(
  `wrote src/data/label-widths.json (${Object.keys(widths).length} texts, ${Math.round(text.length / 1024)} kB)`,
)
