import { describe, expect, it } from 'vitest'
import { mapWorldFor } from '../map/map-world.ts'

const { font } = mapWorldFor('tmaps')

describe('the label font (Cairo, shaped by opentype.js)', () => {
  it('joins Arabic letters: a word is narrower than its letters set apart', () => {
    const word = font.layout('تونس')
    const apart = ['ت', 'و', 'ن', 'س'].reduce((w, c) => w + font.layout(c).width, 0)
    expect(word.glyphs).toHaveLength(4)
    expect(word.width).toBeLessThan(apart)
  })

  it('sets Arabic right to left: the first word of a name ends up on the right', () => {
    const both = font.layout('سيدي بوزيد')
    const first = font.layout('سيدي')
    // The last glyphs drawn (rightmost) are those of the first word.
    const rightmost = both.glyphs.slice(-first.glyphs.length).map((g) => g.contours)
    expect(rightmost).toEqual(first.glyphs.map((g) => g.contours))
    expect(both.glyphs[0]!.x).toBe(0)
  })

  it('lays Latin text left to right with its accents', () => {
    const text = font.layout('Béja')
    expect(text.glyphs).toHaveLength(4)
    expect(text.glyphs.map((g) => g.x)).toEqual([...text.glyphs.map((g) => g.x)].sort((a, b) => a - b))
    expect(font.layout('Gabès').width).toBeGreaterThan(font.layout('Gab').width)
  })
})
