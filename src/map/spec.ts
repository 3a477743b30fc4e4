import type { LatLng } from '../data/geo.ts'
import type { Rgba } from '../rasterizer/raster.ts'
import type { MapStyle } from './styles.ts'

/** A static map request, validated: what the renderer draws. */
export interface StaticMapSpec {
  width: number
  height: number
  style: MapStyle
  frame: { center: LatLng; zoom: number } | { bbox: [number, number, number, number] }
  markers: Array<{ point: LatLng; color: Rgba; label?: string }>
  paths: Array<{ points: LatLng[]; weight: number; color: Rgba }>
  polygons: Array<{ rings: LatLng[][]; weight: number; color: Rgba; fill: Rgba }>
}

/**
 * The most a static map may cost to draw, in pixel units: its pixels, plus a quarter of the
 * pixels each polygon's box covers (the fill), plus 25 per overlay vertex (projecting and
 * stroking one costs about what 25 pixels of base map do). Calibrated on a 2-core machine:
 * 12 M units draw in about a second; 1280 x 1280 alone is 1.6 M, so every map the docs allow
 * without overlays, and any with a few routes and areas, is drawn; 1280 x 1280 with 100
 * full-frame polygons (42 M) is refused before anything is drawn.
 */
export const MAX_PICTURE_COST = 12_000_000
const FILL_WEIGHT = 0.25
const VERTEX_COST = 25

/**
 * What drawing `spec` costs, in pixel units (see `MAX_PICTURE_COST`): known before drawing.
 * @example
 * pictureCost(parseStaticMap(new URLSearchParams('center=36.8,10.18&zoom=12&size=400x300')))
 * // 120000 (parseStaticMap: endpoints/maps/static-map.ts)
 */
export function pictureCost(spec: StaticMapSpec): number {
  const pixels = spec.width * spec.height
  const view = viewBox(spec)
  let cost = pixels
  for (const path of spec.paths) cost += VERTEX_COST * path.points.length
  for (const polygon of spec.polygons) {
    let vertices = 0
    let [west, south, east, north] = [180, 90, -180, -90]
    for (const ring of polygon.rings) {
      vertices += ring.length
      for (const { lat, lng } of ring) {
        west = Math.min(west, lng)
        east = Math.max(east, lng)
        south = Math.min(south, lat)
        north = Math.max(north, lat)
      }
    }
    const covered =
      (Math.max(0, Math.min(east, view.east) - Math.max(west, view.west)) *
        Math.max(0, Math.min(north, view.north) - Math.max(south, view.south))) /
      ((view.east - view.west) * (view.north - view.south))
    cost += VERTEX_COST * vertices + FILL_WEIGHT * pixels * Math.min(1, covered)
  }
  return Math.round(cost)
}

/** The map's extent in degrees, near enough for a cost: the bbox, or the frame around the centre. */
function viewBox(spec: StaticMapSpec): { west: number; south: number; east: number; north: number } {
  if ('bbox' in spec.frame) {
    const [west, south, east, north] = spec.frame.bbox
    return { west, south, east: Math.max(east, west + 1e-9), north: Math.max(north, south + 1e-9) }
  }
  const { center, zoom } = spec.frame
  const degreesPerPixel = 360 / (256 * 2 ** zoom)
  const halfWidth = (spec.width / 2) * degreesPerPixel
  const halfHeight = (spec.height / 2) * degreesPerPixel * Math.cos((center.lat * Math.PI) / 180)
  return {
    west: center.lng - halfWidth,
    east: center.lng + halfWidth,
    south: center.lat - halfHeight,
    north: center.lat + halfHeight,
  }
}
