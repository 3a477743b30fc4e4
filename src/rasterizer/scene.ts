import type { PixelRing, Rgba } from './raster.ts'

/** What a shape stands for on the map (tests and the log read it; the renderer does not). */
type ShapeRole =
  | 'land'
  | 'water'
  | 'salt'
  /** Built-up areas, parks, squares, ports, airports (and runways). */
  | 'landuse'
  | 'border'
  | 'road'
  | 'street'
  | 'place'
  | 'label'
  | 'polygon'
  | 'path'
  | 'marker'
  | 'attribution'

/** A vertical gradient between two colours (the terrain style's land). */
export interface Gradient {
  top: Rgba
  bottom: Rgba
  /** Pixel rows of `top` and `bottom`; the colour is clamped beyond them. */
  y0: number
  y1: number
}

/** Rings filled as one shape (non-zero winding: a ring wound the other way is a hole). */
interface FillShape {
  kind: 'fill'
  role: ShapeRole
  rings: PixelRing[]
  color: Rgba | Gradient
  /** An outline drawn over the fill. */
  outline?: { width: number; color: Rgba }
}

/** A polyline of a given width, round joins and caps, optionally dashed. */
interface LineShape {
  kind: 'line'
  role: ShapeRole
  /** Flat `[x0, y0, x1, y1, ...]`. */
  points: ArrayLike<number>
  width: number
  color: Rgba
  /** Dash and gap lengths in pixels. */
  dash?: [number, number]
}

export interface CircleShape {
  kind: 'circle'
  role: ShapeRole
  x: number
  y: number
  r: number
  color: Rgba
  outline?: { width: number; color: Rgba }
}

/** A label: `x, y` is its anchor (the middle of its baseline band), `angle` in radians. */
export interface TextShape {
  kind: 'text'
  role: ShapeRole
  text: string
  x: number
  y: number
  size: number
  color: Rgba
  halo?: { width: number; color: Rgba }
  align: 'center' | 'left' | 'right'
  angle?: number
}

/** A map pin whose point is at `x, y`, with a one-character label on its head. */
interface PinShape {
  kind: 'pin'
  role: ShapeRole
  x: number
  y: number
  color: Rgba
  label?: string
}

export type Shape = FillShape | LineShape | CircleShape | TextShape | PinShape

/** A picture as data, in pixel space: what the renderer draws, in order. */
export interface Scene {
  width: number
  height: number
  background: Rgba
  shapes: Shape[]
}
