import type { RoadClass } from '../data/roads.ts'
import { TGM_LINE } from '../data/tgm.ts'
import type { Rgba } from '../rasterizer/raster.ts'
import type { Scene, Shape } from '../rasterizer/scene.ts'
import { must } from '../validate/must.ts'
import { baseLevel, GOVERNORATE_BORDERS, type MercatorShape } from './basemap.ts'
import type { MapPoi, placeDetails } from './detail-labels.ts'
import { LINE_ABOVE, LINE_BELOW } from './labels.ts'
import type { LandUse, landUseIn } from './land-use.ts'
import type { MapWorld } from './map-world.ts'
import { mercatorX, mercatorY, type View, worldSize } from './projection.ts'
import { STREET_LAYERS_ZOOM, streetLayers } from './street-layers.ts'
import { type MapStyle, PALETTES, type Palette } from './styles.ts'

type Box = readonly [number, number, number, number]

/** Line width of a road class at a zoom (0: not drawn). */
function roadWidth(kind: RoadClass, zoom: number): number {
  const from = { motorway: 5, primary: 6, secondary: 7, ferry: 8 }[kind]
  if (zoom < from) return 0
  const base = { motorway: 1.3, primary: 1.1, secondary: 0.8, ferry: 0.5 }[kind]
  return base * 1.28 ** (zoom - 5)
}

/** Street width at a zoom (0 below 13). */
function streetWidth(zoom: number, main: boolean): number {
  if (zoom < 13) return 0
  return (main ? 1.6 : 1) * 1.5 * 1.75 ** (zoom - 13)
}

const intersects = (a: Box, b: Box) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1]
/** A ring meets the view when its box does; one without a box is drawn (clipped as any). */
const meets = (ringBox: Box | undefined, view: Box) => ringBox === undefined || intersects(ringBox, view)
/** A border's line: its shape's first ring. */
const lineOf = (border: MercatorShape) => must(border.rings[0], 'a border without its line')

/**
 * The base map of a view as shapes in the view's pixels: sea, land, borders, roads, streets,
 * towns and labels, in drawing order. Tiles and static maps are views of one world, so a static
 * map shows what the tiles show.
 * @example buildMapScene(mapWorldFor('tmaps'), tileView(8, 136, 100), 'streets').shapes.length
 */
export function buildMapScene(
  world: MapWorld,
  view: View,
  style: MapStyle = 'streets',
  extra: { pois?: readonly MapPoi[] } = {},
): Scene {
  const palette = PALETTES[style]
  const { zoom } = view
  const size = worldSize(zoom)
  const margin = 64 / size
  const box: Box = [
    view.left / size - margin,
    view.top / size - margin,
    (view.left + view.width) / size + margin,
    (view.top + view.height) / size + margin,
  ]
  const project = (ring: ArrayLike<number>): Float64Array => {
    const out = new Float64Array(ring.length)
    // Below `length` of a ring of pairs: `?? 0` is never taken.
    for (let i = 0; i < ring.length; i += 2) {
      out[i] = (ring[i] ?? 0) * size - view.left
      out[i + 1] = (ring[i + 1] ?? 0) * size - view.top
    }
    return out
  }
  const visible = (shapes: readonly MercatorShape[]) => shapes.filter((s) => intersects(s.box, box))
  /** The rings of the visible shapes that meet the view, projected. */
  const ringsOf = (shapes: readonly MercatorShape[]) =>
    visible(shapes).flatMap(({ rings, ringBoxes }) =>
      (ringBoxes ? rings.filter((_, i) => meets(ringBoxes[i], box)) : rings).map(project),
    )
  const shapes: Shape[] = []

  // Land over the sea; the terrain style shades it from the green Tell to the Sahara.
  const level = baseLevel(zoom)
  const land = ringsOf(level.land)
  const landColor = palette.landSouth
    ? {
        top: palette.land,
        bottom: palette.landSouth,
        y0: mercatorY(37) * size - view.top,
        y1: mercatorY(32) * size - view.top,
      }
    : palette.land
  if (land.length > 0) shapes.push({ kind: 'fill', role: 'land', rings: land, color: landColor })
  // Lakes the land has no hole for, then salt flats (chotts, sebkhas) in their own colour.
  const water = ringsOf(level.water)
  if (water.length > 0) shapes.push({ kind: 'fill', role: 'water', rings: water, color: palette.sea })
  const salt = ringsOf(level.salt)
  if (salt.length > 0) shapes.push({ kind: 'fill', role: 'salt', rings: salt, color: palette.salt })
  const causeways = ringsOf(level.causeways)
  if (causeways.length > 0) shapes.push({ kind: 'fill', role: 'land', rings: causeways, color: landColor })
  // Land use from zoom 10: built-up areas (generated), then parks, squares, ports and airports.
  if (zoom >= STREET_LAYERS_ZOOM) {
    const landUse = streetLayers(zoom).landUse.landUseIn(zoom, box)
    pushLandUse(landUse.areas, landUse.runways, { zoom, size, project, palette, shapes })
  }

  if (zoom >= 6) {
    for (const border of visible(GOVERNORATE_BORDERS)) {
      shapes.push({
        kind: 'line',
        role: 'border',
        points: project(lineOf(border)),
        width: zoom >= 9 ? 1.4 : 1,
        color: palette.governorateBorder,
        dash: [5, 3],
      })
    }
  }
  for (const border of visible(level.borders)) {
    shapes.push({
      kind: 'line',
      role: 'border',
      points: project(lineOf(border)),
      width: zoom >= 8 ? 2.2 : zoom >= 5 ? 1.5 : 1,
      color: palette.countryBorder,
    })
  }

  const layer: Layer = { shapes, world, view, zoom, size, box, project, palette }
  pushRoads(layer)
  pushStreets(layer)
  pushRailways(layer)
  pushShields(layer)
  pushLabels(layer)
  if (zoom >= 11) shapes.push(...detailsOf(world, view, style, extra).shapes)

  return { width: view.width, height: view.height, background: palette.sea, shapes }
}

/** What every layer of a view draws with: the view, its Mercator box, and the projection into it. */
interface Layer {
  shapes: Shape[]
  world: MapWorld
  view: View
  zoom: number
  /** The world's width in pixels at this zoom. */
  size: number
  box: Box
  project: (ring: ArrayLike<number>) => Float64Array
  palette: Palette
}

function pushRoads({ shapes, world, zoom, box, project, palette }: Layer): void {
  const order = ['secondary', 'primary', 'motorway'] as const
  const colors: Record<Exclude<RoadClass, 'ferry'>, [Rgba, Rgba]> = {
    motorway: [palette.motorwayCasing, palette.motorway],
    primary: [palette.primaryCasing, palette.primary],
    secondary: [palette.secondaryCasing, palette.secondary],
  }
  const casing = zoom >= 8
  for (const pass of casing ? ['casing', 'fill'] : ['fill']) {
    for (const kind of order) {
      const width = roadWidth(kind, zoom)
      if (width === 0) continue
      const points = world.roads
        .filter((r) => r.kind === kind && intersects(r.box, box))
        .map((r) => project(r.points))
      if (points.length === 0) continue
      const [outer, inner] = colors[kind]
      for (const p of points) {
        shapes.push({
          kind: 'line',
          role: 'road',
          points: p,
          width: pass === 'casing' ? width + 1.6 : width,
          color: pass === 'casing' ? outer : casing ? inner : kind === 'secondary' ? outer : inner,
        })
      }
    }
  }
  // Ferries: a dashed line over the water, not a road.
  const ferryWidth = roadWidth('ferry', zoom)
  if (ferryWidth > 0)
    for (const r of world.roads)
      if (r.kind === 'ferry' && intersects(r.box, box))
        shapes.push({
          kind: 'line',
          role: 'road',
          points: project(r.points),
          width: Math.max(1, ferryWidth),
          color: palette.motorwayCasing,
          dash: [6, 4],
        })
}

/** The TGM line in Mercator units (x, y pairs), and its box. */
const RAILWAYS: readonly { points: Float64Array; box: Box }[] = [TGM_LINE].map((line) => {
  const points = new Float64Array(line.flatMap(([lat, lng]) => [mercatorX(lng), mercatorY(lat)]))
  const xs = points.filter((_, i) => i % 2 === 0)
  const ys = points.filter((_, i) => i % 2 === 1)
  return { points, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const }
})

/**
 * Railway lines from zoom 11: a thin dark-grey line (drawn over the streets it crosses), with
 * white ties across it from 15 as map users know a railway. The TGM is the only railway drawn
 * (src/data/tgm.ts); its course from station to station is straight.
 */
function pushRailways({ shapes, zoom, box, project, palette }: Layer): void {
  if (zoom < 11) return
  const width = zoom >= 15 ? 2.6 : zoom >= 13 ? 2 : 1.4
  for (const r of RAILWAYS) {
    if (!intersects(r.box, box)) continue
    const points = project(r.points)
    shapes.push({ kind: 'line', role: 'road', points, width, color: palette.railway })
    if (zoom >= 15)
      shapes.push({
        kind: 'line',
        role: 'road',
        points,
        width: width - 1.2,
        color: [255, 255, 255, 255],
        dash: [4, 6],
      })
  }
}

/** Pixels between two shields along a motorway. */
const SHIELD_SPACING = 220

/**
 * Motorway shields ("A1" on the motorway's colour) from zoom 7, every 220 pixels along the road
 * from its start, none over a town's name or dot: placed in world pixels, so neighbouring tiles agree.
 */
function pushShields({ shapes, world, zoom, view, size, palette }: Layer): void {
  if (zoom < 7) return
  const fontSize = 10
  const [left, top, right, bottom] = [
    view.left - 30,
    view.top - 20,
    view.left + view.width + 30,
    view.top + view.height + 20,
  ]
  // A shield gives way to the towns' names and dots (the A3 over Béja at z7, the A1 over El Jem's
  // dot at z9): one that would cover a placed label, or a dot, is left out.
  const towns = world.labelsAt(zoom)
  const covers = (x: number, y: number, half: number) =>
    towns.some(({ box: [l, t, r, b], x: dotX, y: dotY }) => {
      const [sl, st, sr, sb] = [x - half - 2, y - 9, x + half + 2, y + 9]
      const onBox = sl < r && sr > l && st < b && sb > t
      return onBox || (sl < dotX + 5 && sr > dotX - 5 && st < dotY + 5 && sb > dotY - 5)
    })
  for (const road of world.roads) {
    if (road.kind !== 'motorway' || !road.ref) continue
    const half = (world.font.layout(road.ref).width * fontSize) / 2 + 4
    let next = SHIELD_SPACING / 2
    let walked = 0
    for (let i = 2; i < road.points.length; i += 2) {
      // Pairs below `length`: `?? 0` is never taken.
      const [x0, y0] = [(road.points[i - 2] ?? 0) * size, (road.points[i - 1] ?? 0) * size]
      const [x1, y1] = [(road.points[i] ?? 0) * size, (road.points[i + 1] ?? 0) * size]
      const length = Math.hypot(x1 - x0, y1 - y0)
      while (next <= walked + length) {
        const t = (next - walked) / length
        const [x, y] = [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t]
        next += SHIELD_SPACING
        if (x < left || x > right || y < top || y > bottom) continue
        if (covers(x, y, half)) continue
        const [cx, cy] = [x - view.left, y - view.top]
        shapes.push({
          kind: 'fill',
          role: 'label',
          rings: [[cx - half, cy - 7, cx + half, cy - 7, cx + half, cy + 7, cx - half, cy + 7]],
          color: palette.motorwayCasing,
          outline: { width: 1.2, color: [255, 255, 255, 255] },
        })
        shapes.push({
          kind: 'text',
          role: 'label',
          text: road.ref,
          x: cx,
          y: cy + 3,
          size: fontSize,
          color: [255, 255, 255, 255],
          align: 'center',
        })
      }
      walked += length
    }
  }
}

function pushStreets({ shapes, world, zoom, box, project, palette }: Layer): void {
  if (zoom < 13) return
  // Each street is its whole course (a polyline of Mercator points), so it is drawn the same in
  // every tile it crosses and continues across the tiles' edges.
  const streets = world.streets.filter((s) => intersects(s.box, box))
  for (const pass of ['casing', 'fill'] as const) {
    for (const s of streets) {
      // A medina's lanes are narrower than the town's streets.
      const width = streetWidth(zoom, s.main) * (s.street.lane ? 0.55 : 1)
      shapes.push({
        kind: 'line',
        role: 'street',
        points: project(s.points),
        width: pass === 'casing' ? width + Math.max(1.2, width * 0.18) : width,
        color: pass === 'casing' ? palette.streetCasing : palette.street,
      })
    }
  }
}

function pushLabels({ shapes, world, view, palette }: Layer): void {
  const right = view.left + view.width
  const bottom = view.top + view.height
  for (const placed of world.labelsAt(view.zoom)) {
    const [l, t, r, b] = placed.box
    if (r < view.left || l > right || b < view.top || t > bottom) continue
    const x = placed.x - view.left
    const y = placed.y - view.top
    const { label, size } = placed
    if (label.kind === 'town') {
      const big = label.rank >= 100_000
      shapes.push({
        kind: 'circle',
        role: 'place',
        x,
        y,
        r: big ? 3.6 : 2.6,
        color: palette.dot,
        outline: { width: 1.2, color: palette.dotOutline },
      })
    }
    const color =
      label.kind === 'town' ? palette.label : label.kind === 'sea' ? palette.seaLabel : palette.countryLabel
    const halo = label.kind === 'sea' ? undefined : { width: 1.6, color: palette.labelHalo }
    const above = (label.kind === 'town' ? y - size * LINE_ABOVE : y) + (placed.dy ?? 0)
    const textX = x + (placed.dx ?? 0)
    shapes.push({
      kind: 'text',
      role: 'label',
      text: label.fr,
      x: textX,
      y: above,
      size,
      color,
      align: 'center',
      ...(halo && { halo }),
    })
    if (label.ar) {
      const below = (label.kind === 'town' ? y + size * LINE_BELOW : y + size * 1.15) + (placed.dy ?? 0)
      shapes.push({
        kind: 'text',
        role: 'label',
        text: label.ar,
        x: textX,
        y: below,
        size: size - 1,
        color,
        align: 'center',
        ...(halo && { halo }),
      })
    }
  }
}

/** The streets whose line meets a box (Mercator units). */
function streetsIn(world: MapWorld, box: Box) {
  return world.streets.filter((s) => {
    const [x0, y0, x1, y1] = s.axis
    return intersects([Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)], box)
  })
}

const LAND_USE_ORDER: readonly LandUse['kind'][] = ['urban', 'park', 'cemetery', 'port', 'airport', 'square']

/** Land use as fills (one shape per kind), and the runways over the aerodromes. */
function pushLandUse(
  areas: readonly LandUse[],
  runways: ReturnType<typeof landUseIn>['runways'],
  { size, project, palette, shapes }: Pick<Layer, 'zoom' | 'size' | 'project' | 'palette' | 'shapes'>,
): void {
  for (const kind of LAND_USE_ORDER) {
    const rings = areas.filter((a) => a.kind === kind).flatMap((a) => a.rings.map(project))
    if (rings.length === 0) continue
    const color = palette[kind]
    shapes.push({
      kind: 'fill',
      role: 'landuse',
      rings,
      color,
      ...(kind === 'square' && { outline: { width: 1, color: palette.streetCasing } }),
    })
  }
  const metres = (40_075_016 * Math.cos((36 * Math.PI) / 180)) / size
  for (const r of runways) {
    shapes.push({
      kind: 'line',
      role: 'landuse',
      points: project(r.points),
      width: Math.max(1.5, r.widthM / metres),
      color: palette.runway,
    })
  }
}

/**
 * The labels and icons of street zoom (11+) a view shows and their boxes (`placeDetails`): names
 * of areas, landmarks, street names and POI icons, clear of the town labels and of each other.
 * @example detailsOf(mapWorldFor('tmaps'), tileView(16, 35228, 25916)).placed.length
 */
export function detailsOf(
  world: MapWorld,
  view: View,
  style: MapStyle = 'streets',
  extra: { pois?: readonly MapPoi[] } = {},
): ReturnType<typeof placeDetails> {
  const size = worldSize(view.zoom)
  const { landUse, details } = streetLayers(view.zoom)
  // Everything within DETAIL_REACH weighs on what this view shows (placement is per block).
  const reach = details.DETAIL_REACH
  const [left, top, right, bottom] = [
    view.left - reach,
    view.top - reach,
    view.left + view.width + reach,
    view.top + view.height + reach,
  ]
  const taken = world
    .labelsAt(view.zoom)
    .map((p) => p.box)
    .filter(([l, t, r, b]) => r >= left && l <= right && b >= top && t <= bottom)
  return details.placeDetails({
    view,
    font: world.font,
    palette: PALETTES[style],
    taken,
    areas: landUse.namedLandUse(),
    runways: landUse.allRunways(),
    streets: view.zoom >= 15 ? streetsIn(world, [left / size, top / size, right / size, bottom / size]) : [],
    pois: extra.pois ?? [],
  })
}
