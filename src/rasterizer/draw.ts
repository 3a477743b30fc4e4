import type { LabelFont } from './font.ts'
import { encodePng } from './png.ts'
import { createRaster, type Paint, type PixelRing, type Raster, type Rgba } from './raster.ts'
import type { Gradient, Scene, Shape, TextShape } from './scene.ts'

/** Baseline below a label's anchor, in em: centres Latin capitals and Arabic letters on it. */
const BASELINE = 0.36

/**
 * Draws a scene into an RGB raster: every shape in order, antialiased.
 * @example const raster = rasterize(scene, font); raster.pixels
 */
export function rasterize(scene: Scene, font: LabelFont): Raster {
  const raster = createRaster(scene.width, scene.height, scene.background)
  for (const shape of scene.shapes) drawShape(raster, shape, font)
  return raster
}

/**
 * Draws a scene and encodes it as a PNG.
 * @example const png = renderPng(scene, font) // Uint8Array starting with \x89PNG
 */
export function renderPng(scene: Scene, font: LabelFont): Uint8Array<ArrayBuffer> {
  return encodePng(rasterize(scene, font).pixels, scene.width, scene.height)
}

function drawShape(raster: Raster, shape: Shape, font: LabelFont): void {
  switch (shape.kind) {
    case 'fill':
      raster.fill(shape.rings, paintOf(shape.color))
      if (shape.outline) {
        const rings = shape.rings.flatMap((r) => strokeRings(closed(r), shape.outline!.width))
        raster.fill(rings, shape.outline.color)
      }
      return
    case 'line': {
      const margin = shape.width + 2
      const runs = visibleRuns(shape.points, [
        -margin,
        -margin,
        raster.width + margin,
        raster.height + margin,
      ])
      const parts = shape.dash
        ? runs.flatMap((run) => dashes(run.points, shape.dash!, run.from))
        : runs.map((r) => r.points)
      raster.fill(
        parts.flatMap((p) => strokeRings(p, shape.width)),
        shape.color,
      )
      return
    }
    case 'circle':
      if (shape.outline)
        raster.fill([circle(shape.x, shape.y, shape.r + shape.outline.width)], shape.outline.color)
      raster.fill([circle(shape.x, shape.y, shape.r)], shape.color)
      return
    case 'text':
      drawText(raster, shape, font)
      return
    case 'pin': {
      const { x, y, color } = shape
      raster.fill(pin(x, y + 1, 1.6), [0, 0, 0, 70])
      raster.fill(pin(x, y, 1.5), darker(color))
      raster.fill(pin(x, y, 0), color)
      if (shape.label) {
        const light = color[0] * 0.299 + color[1] * 0.587 + color[2] * 0.114 > 170
        drawText(
          raster,
          {
            kind: 'text',
            role: 'marker',
            text: shape.label,
            x,
            y: y - PIN_HEIGHT,
            size: 13,
            color: light ? [30, 30, 30, 255] : [255, 255, 255, 255],
            align: 'center',
          },
          font,
        )
      }
      return
    }
  }
}

function paintOf(color: Rgba | Gradient): Paint {
  if (!('top' in color)) return color
  const { top, bottom, y0, y1 } = color
  let lastY = Number.NaN
  let last: Rgba = top
  return (_x, y) => {
    if (y !== lastY) {
      const t = Math.max(0, Math.min(1, (y - y0) / (y1 - y0 || 1)))
      last = [0, 1, 2, 3].map((i) => Math.round(top[i]! + (bottom[i]! - top[i]!) * t)) as unknown as Rgba
      lastY = y
    }
    return last
  }
}

function darker([r, g, b, a]: Rgba): Rgba {
  return [Math.round(r * 0.6), Math.round(g * 0.6), Math.round(b * 0.6), a]
}

function drawText(raster: Raster, shape: TextShape, font: LabelFont): void {
  const layout = font.layout(shape.text)
  const { size, x, y } = shape
  const width = layout.width
  const start = shape.align === 'center' ? -width / 2 : shape.align === 'right' ? -width : 0
  const cos = Math.cos(shape.angle ?? 0)
  const sin = Math.sin(shape.angle ?? 0)
  const rings: Float64Array[] = []
  for (const glyph of layout.glyphs) {
    for (const contour of glyph.contours) {
      const out = new Float64Array(contour.length)
      for (let i = 0; i < contour.length; i += 2) {
        const lx = (start + glyph.x + contour[i]!) * size
        const ly = (contour[i + 1]! + BASELINE) * size
        out[i] = x + lx * cos - ly * sin
        out[i + 1] = y + lx * sin + ly * cos
      }
      rings.push(out)
    }
  }
  if (shape.halo)
    raster.fillWithHalo(rings, shape.color, { radius: shape.halo.width, color: shape.halo.color })
  else raster.fill(rings, shape.color)
}

/** A ring's points with its first point repeated at the end (so its stroke closes). */
function closed(ring: PixelRing): number[] {
  const out = Array.from(ring)
  if (out.length >= 2) out.push(out[0]!, out[1]!)
  return out
}

/** A circle as a polygon with enough sides to look round at its size (wound like `strokeRings`' quads). */
function circle(cx: number, cy: number, r: number): Float64Array {
  const sides = Math.max(6, Math.min(48, Math.ceil(r * 2.5)))
  const ring = new Float64Array(sides * 2)
  for (let i = 0; i < sides; i++) {
    const t = (i / sides) * Math.PI * 2
    ring[i * 2] = cx + r * Math.cos(t)
    ring[i * 2 + 1] = cy + r * Math.sin(t)
  }
  return ring
}

/**
 * The outline of a stroked polyline: a quad per segment and a disc at each end and at each
 * vertex where the line turns enough for a gap to show (round joins and caps). All pieces wind
 * the same way, so the raster fills their union.
 */
function strokeRings(points: ArrayLike<number>, width: number): Float64Array[] {
  const h = width / 2
  const rings: Float64Array[] = []
  const n = points.length
  let px = 0
  let py = 0
  for (let i = 0; i + 3 < n; i += 2) {
    const [x0, y0, x1, y1] = [points[i]!, points[i + 1]!, points[i + 2]!, points[i + 3]!]
    const dx = x1 - x0
    const dy = y1 - y0
    const len = Math.hypot(dx, dy)
    if (len === 0) continue
    const ux = dx / len
    const uy = dy / len
    const nx = -uy * h
    const ny = ux * h
    rings.push(Float64Array.of(x0 - nx, y0 - ny, x1 - nx, y1 - ny, x1 + nx, y1 + ny, x0 + nx, y0 + ny))
    // A join: where the direction turns by more than a quarter pixel's worth at this width.
    const first = i === 0
    const turn = first ? 1 : Math.abs(px * uy - py * ux) + (px * ux + py * uy < 0 ? 1 : 0)
    if (h >= 0.6 && (first || turn * h > 0.25)) rings.push(circle(x0, y0, h))
    ;[px, py] = [ux, uy]
  }
  if (h >= 0.6 && n >= 4) rings.push(circle(points[n - 2]!, points[n - 1]!, h))
  return rings
}

/**
 * The runs of a polyline whose segments touch a box, each with its distance from the line's
 * start (so dashes keep their phase wherever the line is cut: neighbouring tiles agree).
 */
function visibleRuns(points: ArrayLike<number>, [x0, y0, x1, y1]: [number, number, number, number]) {
  const runs: Array<{ points: number[]; from: number }> = []
  let run: number[] | undefined
  let along = 0
  for (let i = 0; i + 3 < points.length; i += 2) {
    const [ax, ay, bx, by] = [points[i]!, points[i + 1]!, points[i + 2]!, points[i + 3]!]
    const inside =
      Math.max(ax, bx) >= x0 && Math.min(ax, bx) <= x1 && Math.max(ay, by) >= y0 && Math.min(ay, by) <= y1
    if (inside) {
      if (!run) {
        run = [ax, ay]
        runs.push({ points: run, from: along })
      }
      run.push(bx, by)
    } else run = undefined
    along += Math.hypot(bx - ax, by - ay)
  }
  return runs
}

/** Splits a polyline into dashes (`[dash, gap]` in pixels), `offset` pixels into the pattern. */
function dashes(points: number[], [dash, gap]: [number, number], offset = 0): number[][] {
  const out: number[][] = []
  let current: number[] = [points[0]!, points[1]!]
  const phase = offset % (dash + gap)
  let on = phase < dash
  let left = on ? dash - phase : dash + gap - phase
  for (let i = 0; i + 3 < points.length; i += 2) {
    let [x0, y0] = [points[i]!, points[i + 1]!]
    const [x1, y1] = [points[i + 2]!, points[i + 3]!]
    let len = Math.hypot(x1 - x0, y1 - y0)
    while (len > left) {
      const t = left / len
      const [mx, my] = [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t]
      if (on) {
        current.push(mx, my)
        out.push(current)
      }
      current = [mx, my]
      on = !on
      len -= left
      left = on ? dash : gap
      ;[x0, y0] = [mx, my]
    }
    left -= len
    if (on) current.push(x1, y1)
  }
  if (on && current.length >= 4) out.push(current)
  return out
}

/** Height of a pin from its point to the centre of its head. */
const PIN_HEIGHT = 22
const PIN_RADIUS = 10

/** A map pin: a disc on a point that ends at `x, y`, grown by `grow` pixels (for its outline). */
function pin(x: number, y: number, grow: number): Float64Array[] {
  const r = PIN_RADIUS + grow
  const cy = y - PIN_HEIGHT
  return [
    circle(x, cy, r),
    Float64Array.of(x, y + grow * 1.2, x - r * 0.78, cy + r * 0.62, x + r * 0.78, cy + r * 0.62),
  ]
}
