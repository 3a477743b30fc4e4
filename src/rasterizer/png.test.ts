import { describe, expect, it } from 'vitest'
import { decodePng } from '../../test/support/png.ts'
import { encodePng } from './png.ts'

describe('encodePng', () => {
  it('writes a PNG that an independent decoder reads back pixel for pixel', () => {
    const [w, h] = [37, 23]
    const rgb = new Uint8Array(w * h * 3).map((_, i) => (i * 37 + (i >> 5)) & 255)
    const png = encodePng(rgb, w, h)
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10])
    const decoded = decodePng(png)
    expect([decoded.width, decoded.height]).toEqual([w, h])
    for (const [x, y] of [
      [0, 0],
      [36, 0],
      [5, 11],
      [36, 22],
    ] as const) {
      const i = (y * w + x) * 3
      expect(decoded.pixel(x, y)).toEqual([rgb[i], rgb[i + 1], rgb[i + 2]])
    }
  })

  it('gives the same bytes for the same pixels', () => {
    const rgb = new Uint8Array(64 * 64 * 3).fill(200)
    expect(Buffer.from(encodePng(rgb, 64, 64)).equals(Buffer.from(encodePng(rgb, 64, 64)))).toBe(true)
  })
})
