/** An RGBA colour, each channel 0-255 (alpha 255 is opaque). */
export type Rgba = readonly [number, number, number, number]

/** A closed ring as flat pixel coordinates `[x0, y0, x1, y1, ...]`. */
export type PixelRing = ArrayLike<number>

/** Paint per pixel (a gradient): the colour at a pixel's centre. */
export type Paint = Rgba | ((x: number, y: number) => Rgba)

/**
 * An opaque RGB image that fills rings with exact-area antialiasing (the signed-area
 * accumulation of font-rs / stb_truetype), so edges are smooth and the same in every
 * JavaScript engine. Overlapping rings of one fill are a union (non-zero winding): a ring wound
 * the other way cuts a hole.
 * @example
 * const r = createRaster(256, 256, [170, 211, 223, 255]); r.fill([[0, 0, 10, 0, 10, 10]], [0, 0, 0, 255])
 */
export interface Raster {
  readonly width: number
  readonly height: number
  /** RGB, row by row, 3 bytes a pixel. */
  readonly pixels: Uint8Array
  fill(rings: readonly PixelRing[], paint: Paint): void
  /**
   * Fills rings over a halo: the same shape grown by `radius` pixels in another colour (what
   * keeps a map label readable over roads and borders).
   */
  fillWithHalo(rings: readonly PixelRing[], paint: Rgba, halo: { radius: number; color: Rgba }): void
}

export function createRaster(width: number, height: number, background: Rgba): Raster {
  const pixels = new Uint8Array(width * height * 3)
  for (let i = 0; i < width * 3; i += 3) pixels.set([background[0], background[1], background[2]], i)
  for (let y = 1; y < height; y++) pixels.copyWithin(y * width * 3, 0, width * 3)
  // One accumulation row per pixel row, two cells wider than the image (coverage spills right).
  const stride = width + 2
  const image: Image = {
    width,
    height,
    pixels,
    stride,
    acc: new Float32Array(stride * height),
    // The cells each row's edges touched: coverage is summed from the first to past the last.
    spanFrom: new Int32Array(height).fill(stride),
    spanTo: new Int32Array(height),
    cover: new Float64Array(width + 1),
  }
  return {
    width,
    height,
    pixels,
    fill: (rings, paint) => fill(image, rings, paint),
    fillWithHalo: (rings, paint, halo) => fillWithHalo(image, rings, paint, halo),
  }
}

/** A raster's pixels and its accumulation rows (the signed area of the edges added, per cell). */
interface Image {
  width: number
  height: number
  pixels: Uint8Array
  stride: number
  acc: Float32Array
  spanFrom: Int32Array
  spanTo: Int32Array
  /**
   * One row's coverage, as the last `sweep` left it: pixel x's at index x + 1, since a span may start
   * at cell -1 (an edge clamped to x = 0 whose float steps end a hair below it).
   */
  cover: Float64Array
}

/**
 * Fills rings: row by row, `sweep` turns the accumulated edges into coverage, then a loop of its own
 * blends the paint (one loop a function, so the engine optimises each alone, and a solid colour's
 * loop has no gradient call in it).
 */
function fill(image: Image, rings: readonly PixelRing[], paint: Paint): void {
  const rows = accumulate(image, rings)
  if (!rows) return
  for (let y = rows[0]; y < rows[1]; y++) {
    const from = image.spanFrom[y]!
    const to = sweep(image, y)
    if (typeof paint === 'function') paintRow(image, y, from, to, paint)
    else colourRow(image, y, from, to, paint)
  }
}

/**
 * Blends a colour over row `y` from pixel `from` to `to` by the coverage `sweep` left. A covered cell
 * -1 lands on the pixel before the row's first (the last of the row above).
 */
function colourRow(image: Image, y: number, from: number, to: number, colour: Rgba): void {
  const { width, cover, pixels } = image
  const [r, g, b, a] = colour
  const row = y * width
  for (let x = from; x < to; x++) {
    const c = cover[x + 1]!
    if (c < 1 / 512) continue
    blend(pixels, (row + x) * 3, c, r, g, b, a)
  }
}

/** `colourRow` with a gradient: the colour at each covered pixel's centre. */
function paintRow(
  image: Image,
  y: number,
  from: number,
  to: number,
  paint: (x: number, y: number) => Rgba,
): void {
  const { width, cover, pixels } = image
  const row = y * width
  for (let x = from; x < to; x++) {
    const c = cover[x + 1]!
    if (c < 1 / 512) continue
    const colour = paint(x + 0.5, y + 0.5)
    blend(pixels, (row + x) * 3, c, colour[0], colour[1], colour[2], colour[3])
  }
}

/**
 * Sums row `y`'s accumulation cells into `image.cover`: the coverage (0-1) of each cell from the
 * row's `spanFrom` (read it before the call) to the returned end (at most the width). Clears the
 * row's cells and span for the next fill.
 */
function sweep(image: Image, y: number): number {
  const { width, stride, acc, spanFrom, spanTo, cover } = image
  const row = y * stride
  const from = spanFrom[y]!
  const end = Math.min(spanTo[y]!, stride)
  const to = Math.min(end, width)
  // `sum` and `cover` are doubles: a coverage rounded to a float would change some blended pixels.
  let sum = 0
  for (let x = from; x < to; x++) {
    sum += acc[row + x]!
    acc[row + x] = 0
    const c = sum < 0 ? -sum : sum
    cover[x + 1] = c > 1 ? 1 : c
  }
  // Cells past the last pixel take coverage that spilled right: cleared, never drawn.
  for (let x = Math.max(from, width); x < end; x++) acc[row + x] = 0
  spanFrom[y] = stride
  spanTo[y] = 0
  return to
}

function fillWithHalo(
  image: Image,
  rings: readonly PixelRing[],
  paint: Rgba,
  halo: { radius: number; color: Rgba },
): void {
  const { width, height, stride, spanFrom, spanTo, cover, pixels } = image
  const rows = accumulate(image, rings)
  if (!rows) return
  const reach = Math.ceil(halo.radius + 0.5)
  const y0 = Math.max(0, rows[0] - reach)
  const y1 = Math.min(height, rows[1] + reach)
  let x0 = stride
  let x1 = 0
  for (let y = rows[0]; y < rows[1]; y++) {
    x0 = Math.min(x0, spanFrom[y]!)
    x1 = Math.max(x1, spanTo[y]!)
  }
  x0 = Math.max(0, x0 - reach)
  x1 = Math.min(width, x1 + reach)
  if (x1 <= x0) return
  const w = x1 - x0
  const h = y1 - y0
  // Every row's span lies within [x0, x1) but for a cell -1 (no pixel): the box was grown from the spans.
  const mask = new Float32Array(w * h)
  for (let y = rows[0]; y < rows[1]; y++) {
    const from = spanFrom[y]!
    const to = sweep(image, y)
    const at = (y - y0) * w - x0
    for (let x = Math.max(from, 0); x < to; x++) mask[at + x] = cover[x + 1]!
  }
  // Grow the shape by the radius (a separable max filter, softened at its last pixel).
  const weights = Array.from({ length: reach + 1 }, (_, d) => Math.max(0, Math.min(1, halo.radius + 1 - d)))
  const across = new Float32Array(w * h)
  const grown = new Float32Array(w * h)
  dilate(mask, across, w, h, 1, weights)
  dilate(across, grown, w, h, w, weights)
  const [hr, hg, hb, ha] = halo.color
  const [r, g, b, a] = paint
  for (let i = 0; i < grown.length; i++) {
    const m = grown[i]!
    if (m >= 1 / 512) blend(pixels, ((Math.floor(i / w) + y0) * width + (i % w) + x0) * 3, m, hr, hg, hb, ha)
  }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const m = mask[y * w + x]!
      if (m >= 1 / 512) blend(pixels, ((y + y0) * width + x + x0) * 3, m, r, g, b, a)
    }
}

/**
 * Blends a colour over the pixel at byte `p` by `cover`. The channels come as numbers: unpacking an
 * array at every pixel costs more than the blend.
 */
function blend(
  pixels: Uint8Array,
  p: number,
  cover: number,
  r: number,
  g: number,
  b: number,
  a: number,
): void {
  const alpha = (cover * a) / 255
  if (alpha >= 1) {
    pixels[p] = r
    pixels[p + 1] = g
    pixels[p + 2] = b
  } else {
    pixels[p] = Math.round(pixels[p]! + (r - pixels[p]!) * alpha)
    pixels[p + 1] = Math.round(pixels[p + 1]! + (g - pixels[p + 1]!) * alpha)
    pixels[p + 2] = Math.round(pixels[p + 2]! + (b - pixels[p + 2]!) * alpha)
  }
}

/** Adds every edge of the rings to the accumulation rows; the rows touched, or `undefined`. */
function accumulate(image: Image, rings: readonly PixelRing[]): [number, number] | undefined {
  const { width, height } = image
  let minY = Number.POSITIVE_INFINITY
  let maxY = Number.NEGATIVE_INFINITY
  let minX = Number.POSITIVE_INFINITY
  let maxX = Number.NEGATIVE_INFINITY
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i += 2) {
      const x = ring[i]!
      const y = ring[i + 1]!
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
  }
  if (!(maxX > 0 && minX < width && maxY > 0 && minY < height)) return undefined
  for (const ring of rings) {
    const n = ring.length
    if (n < 6) continue
    for (let i = 0; i < n; i += 2) {
      const j = i + 2 === n ? 0 : i + 2
      edge(image, ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)
    }
  }
  return [Math.max(0, Math.floor(minY)), Math.min(height, Math.ceil(maxY))]
}

/** Clips an edge to the rows, splits it where it leaves the columns, and clamps x. */
function edge(image: Image, x0: number, y0: number, x1: number, y1: number): void {
  const { width, height } = image
  if ((y0 <= 0 && y1 <= 0) || (y0 >= height && y1 >= height) || y0 === y1) return
  if (y0 < 0 || y0 > height || y1 < 0 || y1 > height) {
    const t0 = Math.max(0, Math.min(1, ((y0 < y1 ? 0 : height) - y0) / (y1 - y0)))
    const t1 = Math.max(0, Math.min(1, ((y0 < y1 ? height : 0) - y0) / (y1 - y0)))
    const [ax, ay] = [x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0]
    const [bx, by] = [x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1]
    ;[x0, y0, x1, y1] = [ax, Math.max(0, Math.min(height, ay)), bx, Math.max(0, Math.min(height, by))]
    if (y0 === y1) return
  }
  for (const bound of [0, width]) {
    if ((x0 - bound) * (x1 - bound) < 0) {
      const t = (bound - x0) / (x1 - x0)
      const ym = y0 + (y1 - y0) * t
      edge(image, x0, y0, bound, ym)
      edge(image, bound, ym, x1, y1)
      return
    }
  }
  const clamp = (x: number) => (x < 0 ? 0 : x > width ? width : x)
  line(image, clamp(x0), y0, clamp(x1), y1)
}

/** Adds one edge's signed area to the cells it crosses (y already within [0, height]). */
function line(image: Image, x0: number, y0: number, x1: number, y1: number): void {
  const { stride, acc, spanFrom, spanTo } = image
  if (y0 === y1) return
  let dir = 1
  if (y0 > y1) {
    dir = -1
    ;[x0, y0, x1, y1] = [x1, y1, x0, y0]
  }
  const dxdy = (x1 - x0) / (y1 - y0)
  let x = x0
  const yEnd = Math.ceil(y1)
  for (let y = Math.floor(y0); y < yEnd; y++) {
    const row = y * stride
    const dy = Math.min(y + 1, y1) - Math.max(y, y0)
    // Stepping can round a hair below 0 on an edge clamped to the left border: the cell before the
    // row is not the row's (the row above's spare cell, and on row 0 out of the array).
    let xNext = x + dxdy * dy
    if (xNext < 0) xNext = 0
    const d = dy * dir
    const a = x < xNext ? x : xNext
    const b = x < xNext ? xNext : x
    const aFloor = Math.floor(a)
    const ai = aFloor
    const bCeil = Math.ceil(b)
    const bi = bCeil
    if (ai < spanFrom[y]!) spanFrom[y] = ai
    const end = (bi > ai ? bi : ai + 1) + 1
    if (end > spanTo[y]!) spanTo[y] = end
    if (bi <= ai + 1) {
      const xmf = 0.5 * (x + xNext) - aFloor
      acc[row + ai] = acc[row + ai]! + d - d * xmf
      acc[row + ai + 1] = acc[row + ai + 1]! + d * xmf
    } else {
      const s = 1 / (b - a)
      const af = a - aFloor
      const a0 = 0.5 * s * (1 - af) * (1 - af)
      const bf = b - bCeil + 1
      const am = 0.5 * s * bf * bf
      acc[row + ai] = acc[row + ai]! + d * a0
      if (bi === ai + 2) {
        acc[row + ai + 1] = acc[row + ai + 1]! + d * (1 - a0 - am)
      } else {
        const a1 = s * (1.5 - af)
        acc[row + ai + 1] = acc[row + ai + 1]! + d * (a1 - a0)
        for (let xi = ai + 2; xi < bi - 1; xi++) acc[row + xi] = acc[row + xi]! + d * s
        const a2 = a1 + (bi - ai - 3) * s
        acc[row + bi - 1] = acc[row + bi - 1]! + d * (1 - a2 - am)
      }
      acc[row + bi] = acc[row + bi]! + d * am
    }
    x = xNext
  }
}

/**
 * One pass of a separable, softened max filter: each cell takes the largest neighbour within
 * the weights' reach along one axis (`step` 1: across rows, `step` = width: down columns).
 */
function dilate(
  src: Float32Array,
  dst: Float32Array,
  width: number,
  height: number,
  step: number,
  weights: readonly number[],
): void {
  const reach = weights.length - 1
  const span = step === 1 ? width : height
  for (let i = 0; i < src.length; i++) {
    const at = step === 1 ? i % width : Math.floor(i / width)
    let m = 0
    for (let d = -reach; d <= reach; d++) {
      if (at + d < 0 || at + d >= span) continue
      const v = src[i + d * step]! * weights[d < 0 ? -d : d]!
      if (v > m) m = v
    }
    dst[i] = m
  }
}
