import { zlibSync } from 'fflate'

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10]

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(bytes: Uint8Array, from: number, to: number): number {
  let c = 0xffffffff
  for (let i = from; i < to; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A zlib-format deflater (level 1). */
type Deflate = (data: Uint8Array) => Uint8Array

let deflate: Deflate = (data) => zlibSync(data, { level: 1 })

/**
 * Replaces the deflater of every PNG this thread encodes. Node's render processes use `node:zlib`
 * (2-3x faster than fflate there): the decoded pixels are the same, the compressed bytes are not.
 * @example useDeflate((data) => deflateSync(data, { level: 1 })) // in a Node render process
 */
export function useDeflate(next: Deflate): void {
  deflate = next
}

/**
 * Encodes RGB pixels (3 bytes a pixel, row by row) as an 8-bit truecolour PNG. Each row gets the
 * filter (Sub or Up) that leaves the smallest sum (libpng's heuristic, on the two filters that
 * suit flat map colours), and the result is deflated by fflate (the same bytes in every
 * JavaScript engine) unless `useDeflate` chose another deflater.
 * @example encodePng(createRaster(256, 256, [255, 255, 255, 255]).pixels, 256, 256)
 */
export function encodePng(rgb: Uint8Array, width: number, height: number): Uint8Array<ArrayBuffer> {
  const rowBytes = width * 3
  const filtered = new Uint8Array((rowBytes + 1) * height)
  const sub = new Uint8Array(rowBytes)
  const up = new Uint8Array(rowBytes)
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes
    const prev = row - rowBytes
    let subSum = 0
    let upSum = 0
    for (let i = 0; i < rowBytes; i++) {
      const cur = rgb[row + i]!
      const s = (cur - (i >= 3 ? rgb[row + i - 3]! : 0)) & 0xff
      const u = (cur - (y > 0 ? rgb[prev + i]! : 0)) & 0xff
      sub[i] = s
      up[i] = u
      subSum += s < 128 ? s : 256 - s
      upSum += u < 128 ? u : 256 - u
    }
    const at = y * (rowBytes + 1)
    filtered[at] = upSum < subSum ? 2 : 1
    filtered.set(upSum < subSum ? up : sub, at + 1)
  }
  const idat = deflate(filtered)

  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit, truecolour, deflate, adaptive filtering, no interlace

  const chunks: Array<[string, Uint8Array]> = [
    ['IHDR', ihdr],
    ['IDAT', idat],
    ['IEND', new Uint8Array(0)],
  ]
  const size = SIGNATURE.length + chunks.reduce((n, [, data]) => n + 12 + data.length, 0)
  const png = new Uint8Array(size)
  const out = new DataView(png.buffer)
  png.set(SIGNATURE, 0)
  let at = SIGNATURE.length
  for (const [type, data] of chunks) {
    out.setUint32(at, data.length)
    for (let i = 0; i < 4; i++) png[at + 4 + i] = type.charCodeAt(i)
    png.set(data, at + 8)
    out.setUint32(at + 8 + data.length, crc32(png, at + 4, at + 8 + data.length))
    at += 12 + data.length
  }
  return png
}
