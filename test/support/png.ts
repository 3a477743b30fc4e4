import { PNG } from 'pngjs'

/** A decoded PNG (by pngjs, independent of the mock's own encoder) with a pixel reader. */
export interface DecodedPng {
  width: number
  height: number
  /** `[r, g, b]` of the pixel at `x, y`. */
  pixel(x: number, y: number): [number, number, number]
  /** Mean luminance (0-255) of the whole picture. */
  luminance(): number
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const png = PNG.sync.read(Buffer.from(bytes))
  const pixel = (x: number, y: number): [number, number, number] => {
    const i = (Math.round(y) * png.width + Math.round(x)) * 4
    return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!]
  }
  return {
    width: png.width,
    height: png.height,
    pixel,
    luminance() {
      let sum = 0
      for (let i = 0; i < png.data.length; i += 4)
        sum += 0.299 * png.data[i]! + 0.587 * png.data[i + 1]! + 0.114 * png.data[i + 2]!
      return sum / (png.width * png.height)
    },
  }
}

/** Whether two colours are within `tolerance` on every channel. */
export function near(a: readonly number[], b: readonly number[], tolerance = 12): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) <= tolerance)
}
