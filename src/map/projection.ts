/** Web Mercator (EPSG:3857) on the XYZ grid of 256-pixel tiles, as Leaflet and MapLibre use it. */
export const TILE_SIZE = 256
/** Beyond this latitude Web Mercator has no pixels. */
const MAX_LATITUDE = 85.0511287798066

/** Longitude to the world's width as 0..1 (west to east). */
export function mercatorX(lng: number): number {
  return (lng + 180) / 360
}

/** Latitude to the world's height as 0..1 (north to south), clamped to Web Mercator's range. */
export function mercatorY(lat: number): number {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180
  return (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2
}

/** The inverse of `mercatorY`. */
export function latitudeOf(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI
}

/** The inverse of `mercatorX`. */
export function longitudeOf(x: number): number {
  return x * 360 - 180
}

/** The world's width in pixels at a zoom. */
export function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom
}

/** A window on the world at one zoom: its top-left corner in world pixels and its size. */
export interface View {
  zoom: number
  /** World pixels of the top-left corner. */
  left: number
  top: number
  width: number
  height: number
}

/** The view of one XYZ tile. */
export function tileView(z: number, x: number, y: number): View {
  return { zoom: z, left: x * TILE_SIZE, top: y * TILE_SIZE, width: TILE_SIZE, height: TILE_SIZE }
}

/** A point of the map in the view's pixels. */
export function toPixel(view: View, lat: number, lng: number): [number, number] {
  const size = worldSize(view.zoom)
  return [mercatorX(lng) * size - view.left, mercatorY(lat) * size - view.top]
}

/** The box of rings in Mercator units: `[minX, minY, maxX, maxY]`. */
export function boxOf(rings: readonly Float64Array[]): [number, number, number, number] {
  const box: [number, number, number, number] = [1, 1, 0, 0]
  for (const ring of rings)
    for (let i = 0; i < ring.length; i += 2) {
      box[0] = Math.min(box[0], ring[i]!)
      box[1] = Math.min(box[1], ring[i + 1]!)
      box[2] = Math.max(box[2], ring[i]!)
      box[3] = Math.max(box[3], ring[i + 1]!)
    }
  return box
}
