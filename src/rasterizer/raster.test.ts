import { describe, expect, it } from 'vitest'
import { createRaster, type Rgba } from './raster.ts'

const WHITE: Rgba = [255, 255, 255, 255]
const BLACK: Rgba = [0, 0, 0, 255]
const square = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1]
const reversed = (ring: number[]) =>
  ring.flatMap((_, i) => (i % 2 === 0 ? ring.slice(ring.length - i - 2, ring.length - i) : []))
const at = (r: ReturnType<typeof createRaster>, x: number, y: number) => {
  const i = (y * r.width + x) * 3
  return [r.pixels[i], r.pixels[i + 1], r.pixels[i + 2]]
}

describe('createRaster', () => {
  it('fills a pixel-aligned square exactly and leaves the rest untouched', () => {
    const r = createRaster(8, 8, WHITE)
    r.fill([square(2, 2, 5, 6)], BLACK)
    expect(at(r, 2, 2)).toEqual([0, 0, 0])
    expect(at(r, 4, 5)).toEqual([0, 0, 0])
    expect(at(r, 1, 2)).toEqual([255, 255, 255])
    expect(at(r, 5, 5)).toEqual([255, 255, 255])
    expect(at(r, 4, 6)).toEqual([255, 255, 255])
  })

  it('fills an edge that ends on the left border within its row: rounding never paints the row black', () => {
    // Clamped to x = 0, the edge's x stepped a hair below 0 and wrote the cell before the row: on
    // row 0 the row's sum was NaN and its first 7 pixels came out black.
    const r = createRaster(8, 4, WHITE)
    r.fill(
      [[1.922861993524508, 0.4562705761617923, 0, 0.8372293792135772, 6, 0.8372293792135772]],
      [200, 0, 0, 255],
    )
    for (let x = 0; x < 8; x++) {
      const [red, green] = at(r, x, 0)
      expect(red, `pixel ${x} of row 0`).toBeGreaterThanOrEqual(200)
      // A thin sliver covers at most ~40% of a pixel: lighter than half-way to the red.
      expect(green, `pixel ${x} of row 0`).toBeGreaterThan(128)
    }
    for (let y = 1; y < 4; y++) for (let x = 0; x < 8; x++) expect(at(r, x, y)).toEqual([255, 255, 255])
  })

  it('antialiases by covered area: a half-covered pixel gets the mid colour', () => {
    const r = createRaster(4, 4, WHITE)
    r.fill([square(0.5, 0, 4, 4)], BLACK)
    expect(at(r, 0, 1)).toEqual([128, 128, 128])
    expect(at(r, 1, 1)).toEqual([0, 0, 0])
  })

  it('cuts a hole with a ring wound the other way, and unites rings wound the same way', () => {
    const r = createRaster(10, 10, WHITE)
    r.fill([square(0, 0, 10, 10), reversed(square(3, 3, 7, 7))], BLACK)
    expect(at(r, 1, 1)).toEqual([0, 0, 0])
    expect(at(r, 5, 5)).toEqual([255, 255, 255])
    const u = createRaster(10, 10, WHITE)
    u.fill([square(0, 0, 6, 6), square(4, 4, 10, 10)], BLACK)
    expect(at(u, 5, 5)).toEqual([0, 0, 0])
    expect(at(u, 8, 8)).toEqual([0, 0, 0])
    expect(at(u, 8, 1)).toEqual([255, 255, 255])
  })

  it('clips shapes far beyond the image (a zoom-18 coastline) without losing the inside', () => {
    const r = createRaster(16, 16, WHITE)
    r.fill([[-1e7, -1e7, 1e7, -1e7, 1e7, 1e7, -1e7, 1e7]], BLACK)
    expect(at(r, 0, 0)).toEqual([0, 0, 0])
    expect(at(r, 15, 15)).toEqual([0, 0, 0])
    r.fill([[-50, 40, 100, -40, 100, 100]], WHITE)
    expect(at(r, 15, 15)).toEqual([255, 255, 255])
    expect(at(r, 0, 0)).toEqual([0, 0, 0])
  })

  it('blends a translucent colour over what is there', () => {
    const r = createRaster(2, 2, WHITE)
    r.fill([square(0, 0, 2, 2)], [0, 0, 0, 128])
    expect(at(r, 0, 0)).toEqual([127, 127, 127])
  })

  it('draws a halo around a shape in another colour, the shape itself on top', () => {
    const r = createRaster(12, 12, [0, 0, 255, 255])
    r.fillWithHalo([square(5, 5, 7, 7)], BLACK, { radius: 2, color: WHITE })
    expect(at(r, 5, 5)).toEqual([0, 0, 0])
    expect(at(r, 3, 5)).toEqual([255, 255, 255])
    expect(at(r, 8, 6)).toEqual([255, 255, 255])
    expect(at(r, 0, 0)).toEqual([0, 0, 255])
  })

  it('fills with a per-pixel paint (a gradient)', () => {
    const r = createRaster(2, 4, WHITE)
    r.fill([square(0, 0, 2, 4)], (_x, y) => (y < 2 ? BLACK : [255, 0, 0, 255]))
    expect(at(r, 0, 0)).toEqual([0, 0, 0])
    expect(at(r, 1, 3)).toEqual([255, 0, 0])
  })
})
