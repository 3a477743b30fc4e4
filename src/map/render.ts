import { MAP_ATTRIBUTION } from '../data/attribution.ts'
import type { LatLng } from '../data/geo.ts'
import { renderPng } from '../rasterizer/draw.ts'
import type { LabelFont } from '../rasterizer/font.ts'
import type { Scene, Shape } from '../rasterizer/scene.ts'
import { loadBaseLevel } from './basemap.ts'
import type { MapPoi } from './detail-labels.ts'
import { buildMapScene } from './map-scene.ts'
import { mapWorldFor } from './map-world.ts'
import { mercatorX, mercatorY, tileView, type View, worldSize } from './projection.ts'
import type { StaticMapSpec } from './spec.ts'
import { streetLayers } from './street-layers.ts'
import { PALETTES } from './styles.ts'

/**
 * One raster tile as PNG bytes: the same bytes for the same seed and tile, in Node and in the
 * browser.
 * @example renderTile('tmaps', 6, 33, 25) // Uint8Array, 256 x 256 PNG
 */
export async function renderTile(
  seed: string | number,
  z: number,
  x: number,
  y: number,
): Promise<Uint8Array<ArrayBuffer>> {
  await loadBaseLevel(z)
  const world = mapWorldFor(seed)
  const view = tileView(z, x, y)
  return renderPng(buildMapScene(world, view, 'streets', await poisFor(seed, view)), world.font)
}

/**
 * The POIs a view at zoom 16+ draws as icons (their module, with faker, loads on the first such
 * view: tiles of lower zooms never load it).
 */
async function poisFor(seed: string | number, view: View): Promise<{ pois?: MapPoi[] }> {
  if (view.zoom < 16) return {}
  const { poisIn } = await import('./map-pois.ts')
  const size = worldSize(view.zoom)
  const pad = streetLayers(view.zoom).details.DETAIL_REACH
  return {
    pois: poisIn(seed, [
      (view.left - pad) / size,
      (view.top - pad) / size,
      (view.left + view.width + pad) / size,
      (view.top + view.height + pad) / size,
    ]),
  }
}

/** The view a static map shows: `center` + `zoom`, or the largest whole zoom at which `bbox` fits. */
export function staticView(spec: Pick<StaticMapSpec, 'width' | 'height' | 'frame'>): View {
  const { width, height, frame } = spec
  let cx: number
  let cy: number
  let zoom: number
  if ('center' in frame) {
    cx = mercatorX(frame.center.lng)
    cy = mercatorY(frame.center.lat)
    zoom = frame.zoom
  } else {
    const [minLng, minLat, maxLng, maxLat] = frame.bbox
    const [x0, x1, y0, y1] = [mercatorX(minLng), mercatorX(maxLng), mercatorY(maxLat), mercatorY(minLat)]
    cx = (x0 + x1) / 2
    cy = (y0 + y1) / 2
    const pad = Math.min(32, Math.floor(Math.min(width, height) / 10))
    zoom = 0
    for (let z = 18; z >= 0; z--) {
      const size = worldSize(z)
      if ((x1 - x0) * size <= width - 2 * pad && (y1 - y0) * size <= height - 2 * pad) {
        zoom = z
        break
      }
    }
  }
  const size = worldSize(zoom)
  return { zoom, left: cx * size - width / 2, top: cy * size - height / 2, width, height }
}

/** The static map as a scene: the base map, then polygons, paths, markers and the attribution. */
export function staticScene(
  seed: string | number,
  spec: StaticMapSpec,
  extra: { pois?: readonly MapPoi[] } = {},
): Scene {
  const world = mapWorldFor(seed)
  const view = staticView(spec)
  const scene = buildMapScene(world, view, spec.style, extra)
  const size = worldSize(view.zoom)
  const px = (p: LatLng): [number, number] => [
    mercatorX(p.lng) * size - view.left,
    mercatorY(p.lat) * size - view.top,
  ]
  const flat = (points: LatLng[]) => points.flatMap(px)
  const shapes: Shape[] = []
  for (const polygon of spec.polygons) {
    shapes.push({
      kind: 'fill',
      role: 'polygon',
      rings: polygon.rings.map(flat),
      color: polygon.fill,
      outline: { width: polygon.weight, color: polygon.color },
    })
  }
  for (const path of spec.paths) {
    shapes.push({
      kind: 'line',
      role: 'path',
      points: flat(path.points),
      width: path.weight,
      color: path.color,
    })
  }
  for (const marker of spec.markers) {
    const [x, y] = px(marker.point)
    shapes.push({
      kind: 'pin',
      role: 'marker',
      x,
      y,
      color: marker.color,
      ...(marker.label && { label: marker.label }),
    })
  }
  shapes.push(...attribution(spec.width, spec.height, spec.style, world.font))
  scene.shapes.push(...shapes)
  return scene
}

/** The data credit, longest first: the first that fits a map's width is written. */
const CREDITS = [MAP_ATTRIBUTION, '© OpenStreetMap contributors', '© OpenStreetMap'] as const

/**
 * The data credit in the bottom-right corner (OpenStreetMap's, as the ODbL land requires, then
 * GSHHG's and the gazetteer's); shorter where the whole does not fit, left out below 120 px.
 */
function attribution(width: number, height: number, style: StaticMapSpec['style'], font: LabelFont): Shape[] {
  if (width < 120 || height < 40) return []
  const size = 10
  const boxOf = (text: string) => font.layout(text).width * size + 8
  const text: string = CREDITS.find((t) => boxOf(t) <= width) ?? CREDITS[2]
  const box = boxOf(text)
  const dark = style === 'dark'
  const [x1, y1] = [width, height]
  const [x0, y0] = [x1 - box, y1 - 15]
  return [
    {
      kind: 'fill',
      role: 'attribution',
      rings: [[x0, y0, x1, y0, x1, y1, x0, y1]],
      color: dark ? [20, 22, 26, 190] : [255, 255, 255, 190],
    },
    {
      kind: 'text',
      role: 'attribution',
      text,
      x: x1 - 4,
      y: y1 - 7.5,
      size,
      color: dark ? PALETTES.dark.label : [60, 60, 60, 255],
      align: 'right',
    },
  ]
}

/**
 * A static map as PNG bytes.
 * @example
 * renderStaticMap('tmaps', parseStaticMap(new URLSearchParams('center=36.8,10.18&zoom=12&size=400x300')))
 */
export async function renderStaticMap(
  seed: string | number,
  spec: StaticMapSpec,
): Promise<Uint8Array<ArrayBuffer>> {
  const view = staticView(spec)
  await loadBaseLevel(view.zoom)
  return renderPng(staticScene(seed, spec, await poisFor(seed, view)), mapWorldFor(seed).font)
}
