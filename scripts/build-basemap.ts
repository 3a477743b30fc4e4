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
import { simplify } from './simplify.ts'

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
  /** Lakes and lagoons drawn over the land (zoom 5-7: Tunisia's, from `land.json`). */
  water?: number[][]
  /** Salt flats drawn over the land (zoom 5-7: Tunisia's chotts and sebkhas, from `land.json`). */
  salt?: number[][]
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

// Tunisia's lakes, lagoons and salt flats for zoom 5-7, where the land is Natural Earth's (which
// has none of them): the water holes and salt flats of `src/data/land.json` (OpenStreetMap-derived,
// ODbL, GSHHG's Ichkeul and Mellègue reservoir, and the traced ones it marks) of at least
// LOW_ZOOM_KM2, simplified to ~300 m (a pixel is 1.2 km at zoom 7), so that Lake Tunis, Lake
// Bizerte, Ichkeul, Séjoumi and the chotts show at a country's zoom as on any map.
const tunisiaLand = JSON.parse(readFileSync(join(root, 'src/data/land.json'), 'utf8')) as {
  scale: number
  land: number[][][]
  water: number[][]
  salt: number[][]
}
const LOW_ZOOM_KM2 = 4
const decodeLand = (encoded: number[]): Ring => {
  const out: Ring = []
  let [x, y] = [0, 0]
  for (let i = 0; i < encoded.length; i += 2) {
    x += encoded[i]!
    y += encoded[i + 1]!
    out.push([x / tunisiaLand.scale, y / tunisiaLand.scale])
  }
  return out
}
const ringKm2 = (ring: Ring) => {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1]
  return (Math.abs(a) / 2) * 111.32 ** 2 * Math.cos((ring[0]![1] * Math.PI) / 180)
}
const simplifyRing = (ring: Ring) => {
  const half = Math.floor(ring.length / 2)
  return [
    ...simplify(ring.slice(0, half + 1), 0.003).slice(0, -1),
    ...simplify([...ring.slice(half), ring[0]!], 0.003).slice(0, -1),
  ]
}
const lowZoom = (rings: Ring[]) =>
  rings
    .filter((r) => ringKm2(r) >= LOW_ZOOM_KM2)
    .map(simplifyRing)
    .filter((r) => r.length >= 4)
    .map((r) => encode(r, 1000))
    .filter((r) => r.length >= 8)
// Zoom 5-7 inside OSM_BOX: the OpenStreetMap-derived land (Tunisia's with its lakes and lagoons
// as holes, the neighbours'), simplified, instead of Natural Earth's, which has no Lake Tunis
// (open to the sea, so no hole either) and a coast ~1 km off; Natural Earth around the box.
/** A ring wound counter-clockwise (`ccw`) or clockwise, with y up. */
const wind = (ring: Ring, ccw: boolean): Ring => {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1]
  return a > 0 === ccw ? ring : [...ring].reverse()
}
const lowZoomPolygon = (polygon: Ring[]): Polygon =>
  [polygon[0]!, ...polygon.slice(1).filter((hole) => ringKm2(hole) >= LOW_ZOOM_KM2)]
    .map(simplifyRing)
    .filter((r) => r.length >= 4)
const lowZoomLand: Polygon[] = [
  ...tunisiaLand.land.map((polygon) => lowZoomPolygon(polygon.map(decodeLand))),
  ...osm.land.map(lowZoomPolygon),
].filter((p) => p.length > 0 && ringKm2(p[0]!) >= 0.5)
const lowZoomWater = lowZoom(tunisiaLand.water.map(decodeLand))
const lowZoomSalt = lowZoom(tunisiaLand.salt.map(decodeLand))

const outside = (polygons: Polygon[], box: Box) => around(box).flatMap((b) => clipPolygons(polygons, b))
const mediterranean = [...clipPolygons(land50, MEDITERRANEAN), ...outside(land110, MEDITERRANEAN)]
const DETAIL_ZOOM = 8
const levels = [
  level(0, 100, land110, borders110),
  {
    ...level(
      5,
      1000,
      [
        ...clipPolygons(lowZoomLand, OSM_BOX),
        // Natural Earth reaches 2 km into the box: land over land, no hairline seam at its edges;
        // wound as the OpenStreetMap land is (outer rings counter-clockwise): the renderer fills by
        // non-zero winding, so opposite windings would cancel where they overlap.
        ...outside(mediterranean, [
          OSM_BOX[0] + 0.02,
          OSM_BOX[1] + 0.02,
          OSM_BOX[2] - 0.02,
          OSM_BOX[3] - 0.02,
        ]).map(([outer, ...holes]) => [wind(outer!, true), ...holes.map((h) => wind(h, false))]),
      ],
      [
        ...clipLines(
          osm.borders.map((l) => simplify(l, 0.003)),
          OSM_BOX,
        ),
        ...around(OSM_BOX, MEDITERRANEAN).flatMap((b) => clipLines(borders50, b)),
        ...around(MEDITERRANEAN).flatMap((b) => clipLines(borders110, b)),
      ],
    ),
    water: lowZoomWater,
    salt: lowZoomSalt,
  },
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
  `wrote src/data/basemap.json and basemap-detail.json (${size(basemap)} + ${size(detail)}: zoom 5-7 lakes ${lowZoomWater.length}, salt flats ${lowZoomSalt.length}; ${levels.map((l) => `z${l.minZoom}+ ${l.land.length} polygons ${size(l)}`).join(', ')}; ${inner.length} governorate border lines) and src/data/font-cairo.json (${size(font)})`,
)
