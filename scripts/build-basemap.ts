/**
 * Builds `src/data/basemap.json` (land, international borders and Tunisia's governorate borders
 * for the raster tiles and static maps) and `src/data/font-cairo.json` (the labels' font).
 *
 * Sources, all public domain or OFL, installed from the npm registry as devDependencies:
 * - Natural Earth land and countries (public domain) via `world-atlas` 2.0.2: 1:110m for the
 *   world, 1:50m for the Mediterranean, 1:10m around Tunisia;
 * - at zoom 8+ inside `OSM_BOX`, OpenStreetMap-derived land and borders (ODbL) of Tunisia's
 *   neighbours, written by `scripts/build-land.ts` (run first); Tunisia's own land, water and
 *   salt flats are `src/data/land.json`, which the map adds to this level when it loads it;
 * - the governorate outlines of `src/data/tunisia-outline.json` (WOF, see the gazetteer's README);
 * - Cairo SemiBold (SIL Open Font License 1.1) via `@expo-google-fonts/cairo`: Latin and Arabic.
 *
 * Detail levels: each level holds the finer data inside its box and the coarser level's data
 * outside it (clipped to the four bands around the box), so a map never has a hole.
 * Run with `npm run build:data`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { feature, mesh } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const atlas = (name: string) => require(`world-atlas/${name}.json`) as Topology

type Ring = [number, number][]
type Polygon = Ring[]
type Box = [number, number, number, number]

const WORLD: Box = [-180, -85.06, 180, 85.06]
/** The Mediterranean at 1:50m, Tunisia and its neighbours at 1:10m. */
const MEDITERRANEAN: Box = [-18, 18, 42, 52]
const TUNISIA_REGION: Box = [1, 27, 21, 42]
const osm = JSON.parse(readFileSync(join(root, 'node_modules/.cache/geo-maps/neighbours.json'), 'utf8')) as {
  box: Box
  land: Polygon[]
  borders: Ring[]
}
const OSM_BOX = osm.box

function landPolygons(topology: Topology): Polygon[] {
  const land = feature(topology, topology.objects.land as GeometryCollection)
  const out: Polygon[] = []
  for (const f of land.features) {
    const g = f.geometry
    if (g.type === 'Polygon') out.push(g.coordinates as Polygon)
    else if (g.type === 'MultiPolygon') out.push(...(g.coordinates as Polygon[]))
  }
  return out
}

function borderLines(topology: Topology): Ring[] {
  const m = mesh(topology, topology.objects.countries as GeometryCollection, (a, b) => a !== b)
  return m.coordinates as Ring[]
}

/** Sutherland-Hodgman against an axis-aligned box; edges along the box cancel out when filled. */
function clipRing(ring: Ring, [minX, minY, maxX, maxY]: Box): Ring {
  const edges: Array<(p: [number, number]) => boolean> = [
    (p) => p[0] >= minX,
    (p) => p[0] <= maxX,
    (p) => p[1] >= minY,
    (p) => p[1] <= maxY,
  ]
  const cut = (a: [number, number], b: [number, number], side: number): [number, number] => {
    const [ax, ay] = a
    const [bx, by] = b
    if (side < 2) {
      const x = side === 0 ? minX : maxX
      return [x, ay + ((by - ay) * (x - ax)) / (bx - ax)]
    }
    const y = side === 2 ? minY : maxY
    return [ax + ((bx - ax) * (y - ay)) / (by - ay), y]
  }
  let out = ring
  edges.forEach((inside, side) => {
    const input = out
    out = []
    for (let i = 0; i < input.length; i++) {
      const cur = input[i]!
      const prev = input[(i + input.length - 1) % input.length]!
      if (inside(cur)) {
        if (!inside(prev)) out.push(cut(prev, cur, side))
        out.push(cur)
      } else if (inside(prev)) out.push(cut(prev, cur, side))
    }
  })
  return out
}

function clipPolygons(polygons: Polygon[], box: Box): Polygon[] {
  const out: Polygon[] = []
  for (const polygon of polygons) {
    const rings = polygon.map((r) => clipRing(r, box)).filter((r) => r.length >= 3)
    if (rings.length > 0 && rings[0] === rings.find((r) => r.length >= 3)) out.push(rings)
  }
  return out
}

/** Runs of a line inside a box (plus one point beyond each end, so the line reaches the edge). */
function clipLines(lines: Ring[], [minX, minY, maxX, maxY]: Box): Ring[] {
  const inside = (p: [number, number]) => p[0] >= minX && p[0] <= maxX && p[1] >= minY && p[1] <= maxY
  const out: Ring[] = []
  for (const line of lines) {
    let run: Ring = []
    line.forEach((p, i) => {
      const near = inside(p) || (line[i - 1] && inside(line[i - 1]!)) || (line[i + 1] && inside(line[i + 1]!))
      if (near) run.push(p)
      else if (run.length) {
        if (run.length > 1) out.push(run)
        run = []
      }
    })
    if (run.length > 1) out.push(run)
  }
  return out
}

/** The four boxes around `box` that cover the rest of `outer` (the world by default). */
function around([minX, minY, maxX, maxY]: Box, outer: Box = WORLD): Box[] {
  const [wx0, wy0, wx1, wy1] = outer
  return [
    [wx0, wy0, wx1, minY],
    [wx0, maxY, wx1, wy1],
    [wx0, minY, minX, maxY],
    [maxX, minY, wx1, maxY],
  ]
}

/** Rings as integers at `scale` per degree, the first point absolute and the others as deltas. */
function encode(ring: Ring, scale: number): number[] {
  const out: number[] = []
  let [px, py] = [0, 0]
  for (const [x, y] of ring) {
    const [ix, iy] = [Math.round(x * scale), Math.round(y * scale)]
    if (out.length > 0 && ix === px && iy === py) continue
    out.push(ix - px, iy - py)
    ;[px, py] = [ix, iy]
  }
  return out
}

interface Level {
  minZoom: number
  scale: number
  land: number[][][]
  borders: number[][]
}

function level(minZoom: number, scale: number, land: Polygon[], borders: Ring[]): Level {
  const clampLat = (polygons: Polygon[]) => clipPolygons(polygons, WORLD)
  return {
    minZoom,
    scale,
    land: clampLat(land)
      .map((p) => p.map((r) => encode(r, scale)).filter((r) => r.length >= 6))
      .filter((p) => p.length > 0),
    borders: borders.map((l) => encode(l, scale)).filter((l) => l.length >= 4),
  }
}

const land110 = landPolygons(atlas('land-110m'))
const land50 = landPolygons(atlas('land-50m'))
const land10 = landPolygons(atlas('land-10m'))
const borders110 = borderLines(atlas('countries-110m'))
const borders50 = borderLines(atlas('countries-50m'))
const borders10 = borderLines(atlas('countries-10m'))

const outside = (polygons: Polygon[], box: Box) => around(box).flatMap((b) => clipPolygons(polygons, b))
const mediterranean = [...clipPolygons(land50, MEDITERRANEAN), ...outside(land110, MEDITERRANEAN)]
const DETAIL_ZOOM = 8
const levels = [
  level(0, 100, land110, borders110),
  level(5, 1000, mediterranean, [
    ...clipLines(borders50, MEDITERRANEAN),
    ...around(MEDITERRANEAN).flatMap((b) => clipLines(borders110, b)),
  ]),
  level(
    DETAIL_ZOOM,
    10000,
    [
      ...clipPolygons(osm.land, OSM_BOX),
      ...around(OSM_BOX, TUNISIA_REGION).flatMap((b) => clipPolygons(land10, b)),
      ...outside(mediterranean, TUNISIA_REGION),
    ],
    [
      ...clipLines(osm.borders, OSM_BOX),
      ...around(OSM_BOX, TUNISIA_REGION).flatMap((b) => clipLines(borders10, b)),
      ...around(TUNISIA_REGION).flatMap((b) => clipLines(borders50, b)),
    ],
  ),
]

// Governorate borders: the edges two governorate outlines share (the coast is the land's edge).
const outline = JSON.parse(readFileSync(join(root, 'src/data/tunisia-outline.json'), 'utf8')) as {
  features: Array<{ properties: { layer: string }; geometry: { type: string; coordinates: unknown } }>
}
const edgeCount = new Map<string, number>()
const edgeKey = (a: [number, number], b: [number, number]) => {
  const [p, q] = [a.join(','), b.join(',')]
  return p < q ? `${p};${q}` : `${q};${p}`
}
const govRings: Ring[] = []
for (const f of outline.features) {
  if (f.properties.layer !== 'governorate') continue
  const polygons = (
    f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates
  ) as Polygon[]
  for (const polygon of polygons) for (const ring of polygon) govRings.push(ring)
}
for (const ring of govRings)
  for (let i = 1; i < ring.length; i++) {
    const k = edgeKey(ring[i - 1]!, ring[i]!)
    edgeCount.set(k, (edgeCount.get(k) ?? 0) + 1)
  }
const inner: Ring[] = []
const seen = new Set<string>()
for (const ring of govRings) {
  let run: Ring = []
  for (let i = 1; i < ring.length; i++) {
    const k = edgeKey(ring[i - 1]!, ring[i]!)
    if ((edgeCount.get(k) ?? 0) >= 2 && !seen.has(k)) {
      seen.add(k)
      if (run.length === 0) run.push(ring[i - 1]!)
      run.push(ring[i]!)
    } else if (run.length) {
      inner.push(run)
      run = []
    }
  }
  if (run.length) inner.push(run)
}

// The finest level (zoom 8+, most of the bytes) is a file of its own, loaded when a map is first
// drawn at zoom 8 or more: a country view does not wait for it.
const attribution =
  'Natural Earth (public domain); © OpenStreetMap contributors (ODbL 1.0, zoom 8+ around Tunisia); Who’s On First governorate outlines (CC0 / CC BY 2.0)'
const basemap = {
  attribution,
  levels: levels.filter((l) => l.minZoom < DETAIL_ZOOM),
  governorateBorders: inner.map((l) => encode(l, 10000)),
}
const detail = { attribution, level: levels.find((l) => l.minZoom === DETAIL_ZOOM) }
writeFileSync(join(root, 'src/data/basemap.json'), `${JSON.stringify(basemap)}\n`)
writeFileSync(join(root, 'src/data/basemap-detail.json'), `${JSON.stringify(detail)}\n`)

const fontPath = require.resolve('@expo-google-fonts/cairo/600SemiBold/Cairo_600SemiBold.ttf')
const font = {
  name: 'Cairo SemiBold',
  license: 'SIL Open Font License 1.1 (https://openfontlicense.org), © The Cairo Project Authors',
  ttf: readFileSync(fontPath).toString('base64'),
}
writeFileSync(join(root, 'src/data/font-cairo.json'), `${JSON.stringify(font)}\n`)

const size = (o: unknown) => `${Math.round(JSON.stringify(o).length / 1024)} kB`
console.log(
  `wrote src/data/basemap.json and basemap-detail.json (${size(basemap)} + ${size(detail)}: ${levels.map((l) => `z${l.minZoom}+ ${l.land.length} polygons ${size(l)}`).join(', ')}; ${inner.length} governorate border lines) and src/data/font-cairo.json (${size(font)})`,
)
