import type { Font } from 'opentype.js'
import { parse } from 'opentype.js/dist/opentype.mjs'

/** One glyph of a laid-out label: its outline contours and where it starts, in em units. */
interface PlacedGlyph {
  /** Closed contours, flat `[x, y, ...]` in em units, y down, relative to the glyph's origin. */
  contours: readonly Float64Array[]
  x: number
}

/** A label laid out once at 1 em: glyphs in visual order (left to right) and its width. */
interface TextLayout {
  glyphs: readonly PlacedGlyph[]
  /** Width in em. */
  width: number
}

/** The labels' typeface: Latin and Arabic shaping (joined forms, ligatures, right to left). */
export interface LabelFont {
  /** Lays a label out at 1 em; Arabic words are shaped and set right to left. */
  layout(text: string): TextLayout
  /** Ascender and descender in em (positive down for the descender). */
  readonly ascent: number
  readonly descent: number
}

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/
const LAYOUT_CACHE = 4096
/** Quadratic and cubic curves become this many straight segments (labels are small). */
const CURVE_STEPS = 5

/**
 * Wraps an OpenType font (opentype.js) for map labels: shaping, kerning and flattened outlines,
 * cached per glyph and per label.
 * @example const font = createLabelFont(ttfBytes); font.layout('Tunis تونس').width
 */
export function createLabelFont(ttf: ArrayBuffer): LabelFont {
  const font: Font = parse(ttf)
  const em = font.unitsPerEm
  const outlines = new Map<number, Float64Array[]>()
  const layouts = new Map<string, TextLayout>()

  const outline = (glyph: import('opentype.js').Glyph): Float64Array[] => {
    let contours = outlines.get(glyph.index)
    if (contours) return contours
    contours = []
    let current: number[] = []
    let [cx, cy] = [0, 0]
    const close = () => {
      if (current.length >= 6) contours!.push(Float64Array.from(current, (v) => v / em))
      current = []
    }
    for (const c of glyph.getPath(0, 0, em).commands) {
      if (c.type === 'M') {
        close()
        current.push(c.x, c.y)
      } else if (c.type === 'L') current.push(c.x, c.y)
      else if (c.type === 'Q') {
        for (let i = 1; i <= CURVE_STEPS; i++) {
          const t = i / CURVE_STEPS
          const u = 1 - t
          current.push(
            u * u * cx + 2 * u * t * c.x1 + t * t * c.x,
            u * u * cy + 2 * u * t * c.y1 + t * t * c.y,
          )
        }
      } else if (c.type === 'C') {
        for (let i = 1; i <= CURVE_STEPS; i++) {
          const t = i / CURVE_STEPS
          const u = 1 - t
          const [a, b, d, e] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]
          current.push(a * cx + b * c.x1 + d * c.x2 + e * c.x, a * cy + b * c.y1 + d * c.y2 + e * c.y)
        }
      } else if (c.type === 'Z') close()
      if (c.type !== 'Z') [cx, cy] = [c.x, c.y]
    }
    close()
    outlines.set(glyph.index, contours)
    return contours
  }

  /** One run in one direction: opentype.js shapes Arabic and returns it in visual order. */
  const run = (text: string, glyphs: PlacedGlyph[], start: number): number => {
    return (
      font.forEachGlyph(text, start * em, 0, em, { kerning: true }, (glyph, x) => {
        glyphs.push({ contours: outline(glyph), x: x / em })
      }) / em
    )
  }

  return {
    ascent: font.ascender / em,
    descent: -font.descender / em,
    layout(text) {
      let layout = layouts.get(text)
      if (layout) return layout
      const glyphs: PlacedGlyph[] = []
      let width = 0
      if (ARABIC.test(text)) {
        // Words right to left (opentype.js orders the letters of a word, not the words).
        const words = text.split(/\s+/).filter(Boolean).reverse()
        const space = (font.charToGlyph(' ').advanceWidth ?? em / 4) / em
        words.forEach((word, i) => {
          width = run(word, glyphs, width) + (i < words.length - 1 ? space : 0)
        })
      } else {
        width = run(text, glyphs, 0)
      }
      layout = { glyphs, width }
      if (layouts.size >= LAYOUT_CACHE) layouts.clear()
      layouts.set(text, layout)
      return layout
    },
  }
}
