import { LOCALITIES } from '../../data/gazetteer.ts'
import { distanceKm, flatKm, KM_PER_DEGREE, kmPerDegreeLng } from '../../data/geo.ts'
import { onLand, surfaceAt } from '../../data/land.ts'
import type { Road, RoadKind } from '../../data/roads.ts'
import { sharedRoads } from '../../data/roads.ts'
import { townNetworks } from '../../data/street-network.ts'
import { latitudeOf, longitudeOf, mercatorX, mercatorY } from '../../map/projection.ts'
import type { Avoid, Point, Profile } from './road-model.ts'

/**
 * The road graph routing runs on: every vertex of the roads the map draws (src/data/roads.json:
 * the traced main roads and the generated local roads) and of every town's streets
 * (src/data/street-network.ts, the same for every seed) is a node, every segment an edge, so a
 * route's geometry is the drawn road's or street's. Roads and streets meet where they share a
 * vertex (a town, a junction; each town's streets end on the roads that pass it).
 */
export interface RoadGraph {
  readonly roads: readonly Road[]
  /** Node coordinates, degrees. */
  readonly lat: Float64Array
  readonly lng: Float64Array
  /** Adjacency (CSR): the half-edges of node n are `first[n]` to `first[n + 1] - 1`. */
  readonly first: Int32Array
  readonly next: Int32Array
  /** The edge of each half-edge. */
  readonly via: Int32Array
  /** Edges: their ends, length (km), road index. */
  readonly from: Int32Array
  readonly to: Int32Array
  readonly km: Float64Array
  readonly road: Int32Array
  /** Nodes that are towns: a national or local road is slower through them. */
  readonly town: Uint8Array
  /** Edges mostly inside a city's built-up area (no town loss on them: their speed counts it). */
  readonly urban: Uint8Array
  /**
   * The share of each edge inside a city's built-up area (0 to 1), driven at the city's speeds: a
   * long road entering a city pays them for its part inside, as a short one wholly inside does.
   */
  readonly urbanShare: Float32Array
  /** Connected component of each node (an island without a crossing is its own). */
  readonly component: Int32Array
  /** Edges by cell of `CELL` degrees, to find the road nearest a point. */
  readonly cells: Map<number, number[]>
}

const CELL = 0.05
const cellKey = (row: number, col: number) => row * 10_000 + col

let graph: RoadGraph | undefined

/** The one road graph (roads and streets are the same for every seed: geography), built on first use. */
export function roadGraph(): RoadGraph {
  graph ??= buildGraph([...sharedRoads(), ...streetRoads()])
  return graph
}

/** Every town's streets as roads of kind `street` (Mercator points, as the roads are). */
function streetRoads(): Road[] {
  const out: Road[] = []
  for (const { locality, lines } of townNetworks())
    lines.forEach((line, index) => {
      const points = new Float64Array(line.points.length)
      const box: [number, number, number, number] = [1, 1, 0, 0]
      for (let i = 0; i < points.length; i += 2) {
        points[i] = mercatorX(line.points[i + 1]!)
        points[i + 1] = mercatorY(line.points[i]!)
        box[0] = Math.min(box[0], points[i]!)
        box[1] = Math.min(box[1], points[i + 1]!)
        box[2] = Math.max(box[2], points[i]!)
        box[3] = Math.max(box[3], points[i + 1]!)
      }
      out.push({
        kind: 'secondary',
        road: 'street',
        ref: '',
        name: line.real?.fr ?? '',
        ar: line.real?.ar ?? '',
        mountain: false,
        street: `${locality.id}:${index}`,
        ...(line.kind === 'join' && { join: true }),
        points,
        box,
      })
    })
  return out
}

function buildGraph(roads: readonly Road[]): RoadGraph {
  const ids = new Map<number, number>()
  const lat: number[] = []
  const lng: number[] = []
  const node = (x: number, y: number) => {
    const la = latitudeOf(y)
    const ln = longitudeOf(x)
    // Points within ~1 m are one node: their 1e-5 degree cells, as one exact integer (a number
    // key, not a string per vertex: the graph is built on a process's first route).
    const key = (Math.round(la * 1e5) + 1e7) * 1e8 + (Math.round(ln * 1e5) + 2e7)
    let id = ids.get(key)
    if (id === undefined) {
      id = lat.length
      ids.set(key, id)
      lat.push(la)
      lng.push(ln)
    }
    return id
  }
  const from: number[] = []
  const to: number[] = []
  const km: number[] = []
  const road: number[] = []
  roads.forEach((r, index) => {
    let prev = node(r.points[0]!, r.points[1]!)
    for (let i = 2; i < r.points.length; i += 2) {
      const id = node(r.points[i]!, r.points[i + 1]!)
      if (id === prev) continue
      from.push(prev)
      to.push(id)
      km.push(distanceKm({ lat: lat[prev]!, lng: lng[prev]! }, { lat: lat[id]!, lng: lng[id]! }))
      road.push(index)
      prev = id
    }
  })
  const n = lat.length
  const degree = new Int32Array(n + 1)
  for (let e = 0; e < from.length; e++) {
    degree[from[e]!]!++
    degree[to[e]!]!++
  }
  const first = new Int32Array(n + 1)
  for (let i = 0; i < n; i++) first[i + 1] = first[i]! + degree[i]!
  const fill = first.slice(0, n)
  const next = new Int32Array(from.length * 2)
  const via = new Int32Array(from.length * 2)
  for (let e = 0; e < from.length; e++) {
    const [a, b] = [from[e]!, to[e]!]
    next[fill[a]!] = b
    via[fill[a]!++] = e
    next[fill[b]!] = a
    via[fill[b]!++] = e
  }
  // Towns: the named waypoints of the traced roads and the ends of the local roads.
  const town = new Uint8Array(n)
  for (const r of roads) {
    if (r.road !== 'local') continue
    const count = r.points.length
    town[node(r.points[0]!, r.points[1]!)] = 1
    town[node(r.points[count - 2]!, r.points[count - 1]!)] = 1
  }
  const component = new Int32Array(n).fill(-1)
  let label = 0
  for (let s = 0; s < n; s++) {
    if (component[s] !== -1) continue
    const stack = [s]
    component[s] = label
    while (stack.length > 0) {
      const u = stack.pop()!
      for (let h = first[u]!; h < first[u + 1]!; h++) {
        const v = next[h]!
        if (component[v] === -1) {
          component[v] = label
          stack.push(v)
        }
      }
    }
    label++
  }
  const { urban, urbanShare } = builtUp(from, to, lat, lng)
  const cells = new Map<number, number[]>()
  for (let e = 0; e < from.length; e++) {
    const [a, b] = [from[e]!, to[e]!]
    const [r0, r1] = [
      Math.floor(Math.min(lat[a]!, lat[b]!) / CELL),
      Math.floor(Math.max(lat[a]!, lat[b]!) / CELL),
    ]
    const [c0, c1] = [
      Math.floor(Math.min(lng[a]!, lng[b]!) / CELL),
      Math.floor(Math.max(lng[a]!, lng[b]!) / CELL),
    ]
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++) {
        const list = cells.get(cellKey(r, c))
        if (list) list.push(e)
        else cells.set(cellKey(r, c), [e])
      }
  }
  return {
    roads,
    lat: Float64Array.from(lat),
    lng: Float64Array.from(lng),
    first,
    next,
    via,
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    km: Float64Array.from(km),
    road: Int32Array.from(road),
    town,
    urban,
    urbanShare,
    component,
    cells,
  }
}

/**
 * Built-up areas: around each town of 40,000 people or more, a radius that grows with its size
 * (1.5 km x the square root of its population in tens of thousands, at most 10 km: Tunis 10,
 * Sfax 7.9, Sousse 6.1, Nabeul 3.6).
 */
const CITIES = LOCALITIES.filter((l) => (l.pop ?? 0) >= 40_000).map((l) => {
  const km = Math.min(10, 1.5 * Math.sqrt((l.pop ?? 0) / 10_000))
  const [dLat, dLng] = [km / KM_PER_DEGREE, km / kmPerDegreeLng(l.lat)]
  return {
    lat: l.lat,
    lng: l.lng,
    km,
    south: l.lat - dLat,
    north: l.lat + dLat,
    west: l.lng - dLng,
    east: l.lng + dLng,
  }
})
/**
 * Each edge's place in the cities' built-up areas: mostly inside (its midpoint: `urban`), and the
 * share of its length inside (`urbanShare`).
 */
function builtUp(from: number[], to: number[], lat: number[], lng: number[]) {
  const urban = new Uint8Array(from.length)
  const urbanShare = new Float32Array(from.length)
  for (let e = 0; e < from.length; e++) {
    const a = { lat: lat[from[e]!]!, lng: lng[from[e]!]! }
    const b = { lat: lat[to[e]!]!, lng: lng[to[e]!]! }
    const mid = { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 }
    if (CITIES.some((c) => flatKm(c, mid) < c.km)) urban[e] = 1
    for (const city of CITIES) {
      // Both ends on one side of the city's box: the segment cannot reach its circle.
      const { south, north, west, east } = city
      if ((a.lat < south && b.lat < south) || (a.lat > north && b.lat > north)) continue
      if ((a.lng < west && b.lng < west) || (a.lng > east && b.lng > east)) continue
      urbanShare[e] = Math.max(urbanShare[e]!, shareInside(city, a, b))
    }
  }
  return { urban, urbanShare }
}

/**
 * The share of segment a-b within a city's radius (flat km around its centre): where the segment
 * meets the circle, in closed form.
 */
function shareInside(city: { lat: number; lng: number; km: number }, a: Point, b: Point): number {
  const perLng = kmPerDegreeLng(city.lat)
  const [x0, y0] = [(a.lng - city.lng) * perLng, (a.lat - city.lat) * KM_PER_DEGREE]
  const [dx, dy] = [(b.lng - a.lng) * perLng, (b.lat - a.lat) * KM_PER_DEGREE]
  const qa = dx * dx + dy * dy
  const qb = 2 * (x0 * dx + y0 * dy)
  const qc = x0 * x0 + y0 * y0 - city.km * city.km
  if (qa === 0) return qc < 0 ? 1 : 0
  const disc = qb * qb - 4 * qa * qc
  if (disc <= 0) return 0
  const root = Math.sqrt(disc)
  const enter = Math.max(0, (-qb - root) / (2 * qa))
  const leave = Math.min(1, (-qb + root) / (2 * qa))
  return leave > enter ? leave - enter : 0
}

/**
 * Speeds in built-up areas: motorways 70, every other road 35 (driving; a national road through a
 * city is its avenues, lights and roundabouts: 50 made Tunis-La Marsa 22 min against the real 30).
 */
const URBAN_KMH: Record<Profile, { motorway: number; other: number }> = {
  driving: { motorway: 70, other: 35 },
  truck: { motorway: 60, other: 30 },
  cycling: { motorway: 0, other: 15 },
  walking: { motorway: 0, other: 4.8 },
}

/** Speeds in km/h by road kind and profile: motorways 110 (the limit), national roads ~85, towns slower. */
const SPEEDS: Record<Profile, Record<Exclude<RoadKind, 'ferry'>, number>> = {
  driving: { motorway: 110, national: 85, regional: 70, local: 65, urban: 45, street: 30 },
  truck: { motorway: 88, national: 72, regional: 60, local: 55, urban: 35, street: 25 },
  cycling: { motorway: 0, national: 17, regional: 16, local: 15, urban: 15, street: 14 },
  walking: { motorway: 0, national: 4.8, regional: 4.8, local: 4.8, urban: 4.8, street: 4.8 },
}
/** On a mountain road (the Kroumirie, the Dorsale). */
const MOUNTAIN = { driving: 0.62, truck: 0.6, cycling: 0.7, walking: 0.9 }
/** Speed from a point to its nearest road (the town's streets). */
export const CONNECTOR_KMH: Record<Profile, number> = { driving: 30, truck: 25, cycling: 14, walking: 4.8 }
/** Seconds lost through a town on a national or local road (traffic, roundabouts). */
const TOWN_SECONDS: Record<Profile, number> = { driving: 75, truck: 100, cycling: 20, walking: 0 }
/** The wait to board a ferry, on top of its time aboard (`aboardMinutes` of the road). */
const FERRY_WAIT_SECONDS = 900

/** Each edge's seconds for a profile and `avoid`, computed once (a search reads them many times). */
const edgeTables = new WeakMap<RoadGraph, Map<string, Float64Array>>()
function secondsTable(g: RoadGraph, profile: Profile, avoid: Avoid): Float64Array {
  let tables = edgeTables.get(g)
  if (!tables) {
    tables = new Map()
    edgeTables.set(g, tables)
  }
  const key = `${profile}:${avoid.tolls ? 1 : 0}${avoid.highways ? 1 : 0}${avoid.ferries ? 1 : 0}`
  let table = tables.get(key)
  if (!table) {
    table = new Float64Array(g.from.length)
    for (let e = 0; e < table.length; e++) table[e] = edgeSeconds(g, e, profile, avoid)
    tables.set(key, table)
  }
  return table
}

/**
 * Per edge: 1 a motorway, 2 a ferry or a street joining a town to a road, 3 another street (no
 * time lost entering a town on 2 or 3), 0 another road.
 */
const edgeKinds = new WeakMap<RoadGraph, Uint8Array>()
function kindTable(g: RoadGraph): Uint8Array {
  let table = edgeKinds.get(g)
  if (!table) {
    table = new Uint8Array(g.from.length)
    for (let e = 0; e < table.length; e++) {
      const road = g.roads[g.road[e]!]!
      const kind = road.road
      // A join (a town's street onto a road) is a street, but taken from anywhere: 2 as a ferry is.
      table[e] = kind === 'motorway' ? 1 : kind === 'ferry' || road.join ? 2 : kind === 'street' ? 3 : 0
    }
    edgeKinds.set(g, table)
  }
  return table
}

/** Streets are taken within cells of this size (degrees) around a search's ends. */
const STREET_CELL = 0.02
/** How many cells around a search's ends its streets are taken in (a route's; a tour's may take fewer). */
export const STREET_RING = 2
/** Each node's cell, numbered 0..count-1 (the cells that hold a node), and the numbers by cell. */
interface NodeCells {
  cell: Int32Array
  ids: Map<number, number>
}
const nodeCells = new WeakMap<RoadGraph, NodeCells>()
const streetCell = (lat: number, lng: number) =>
  Math.floor(lat / STREET_CELL) * 100_000 + Math.floor(lng / STREET_CELL)
function cellTable(g: RoadGraph): NodeCells {
  let table = nodeCells.get(g)
  if (!table) {
    const ids = new Map<number, number>()
    const cell = new Int32Array(g.lat.length)
    for (let v = 0; v < cell.length; v++) {
      const key = streetCell(g.lat[v]!, g.lng[v]!)
      let id = ids.get(key)
      if (id === undefined) {
        id = ids.size
        ids.set(key, id)
      }
      cell[v] = id
    }
    table = { cell, ids }
    nodeCells.set(g, table)
  }
  return table
}

/**
 * The cells (of STREET_CELL) within `ring` cells of some points (2: about 4 km), as a flag per
 * numbered cell: a search takes a town's streets only there, near where it starts and where it is
 * going, and the roads between towns elsewhere (they run through the towns), as a driver does; so a
 * route across the country does not wander every town's streets on its way.
 */
function streetCells(
  table: NodeCells,
  points: readonly Point[],
  ring: number,
  near = new Uint8Array(table.ids.size),
): Uint8Array {
  for (const p of points) {
    const [row, col] = [Math.floor(p.lat / STREET_CELL), Math.floor(p.lng / STREET_CELL)]
    for (let r = row - ring; r <= row + ring; r++)
      for (let c = col - ring; c <= col + ring; c++) {
        const id = table.ids.get(r * 100_000 + c)
        if (id !== undefined) near[id] = 1
      }
  }
  return near
}

/** The street cells near a list of targets, by list (a matrix's or a tour's searches share it). */
const targetCells = new WeakMap<readonly Snap[], { ring: number; near: Uint8Array }>()

/** Seconds to travel edge `e` for a profile (`Infinity` when the profile or `avoid` forbids it). */
export function edgeSeconds(g: RoadGraph, e: number, profile: Profile, avoid: Avoid): number {
  const r = g.roads[g.road[e]!]!
  if (r.road === 'ferry')
    return avoid.ferries ? Number.POSITIVE_INFINITY : FERRY_WAIT_SECONDS + (r.aboardMinutes ?? 15) * 60
  if (r.road === 'motorway' && (avoid.highways || avoid.tolls)) return Number.POSITIVE_INFINITY
  let speed = SPEEDS[profile][r.road]
  if (speed === 0) return Number.POSITIVE_INFINITY
  if (r.mountain) speed *= MOUNTAIN[profile]
  const inside = g.urbanShare[e]!
  if (inside === 0) return (g.km[e]! / speed) * 3600
  const citySpeed = Math.min(speed, URBAN_KMH[profile][r.road === 'motorway' ? 'motorway' : 'other'])
  return g.km[e]! * ((1 - inside) / speed + inside / citySpeed) * 3600
}

/** Getting onto a motorway: the ramp and its toll gate (Tunisie Autoroutes' péages), about two minutes. */
const RAMP_SECONDS = 120

/** Where a point meets the road graph: the nearest point of an edge it reaches over dry land. */
export interface Snap {
  point: Point
  /** The point on the road. */
  at: Point
  edge: number
  /** Fraction of the edge from its `from` node. */
  t: number
  /** Straight km from the point to the road. */
  km: number
}

/**
 * Water or not, by cell of 0.001 degree (~100 m, finer than the mask's ~0.9 km edges),
 * remembered in blocks of 128 x 128 cells (a byte a cell: 0 not yet asked, 1 dry, 2 wet; at most
 * 256 blocks, 4 MB, then forgotten): a matrix of 50 points asks thousands of cells per request.
 */
const WET_CELL = 1000
const WET_BLOCK = 128
const wetBlocks = new Map<number, Uint8Array>()
let [lastKey, lastCells]: [number, Uint8Array | undefined] = [Number.NaN, undefined]
function wetAt(lat: number, lng: number): boolean {
  const row = Math.round(lat * WET_CELL)
  const col = Math.round(lng * WET_CELL)
  const blockRow = Math.floor(row / WET_BLOCK)
  const blockCol = Math.floor(col / WET_BLOCK)
  const key = blockRow * 100_000 + blockCol
  let cells = lastKey === key ? lastCells : wetBlocks.get(key)
  if (!cells) {
    if (wetBlocks.size >= 256) wetBlocks.clear()
    cells = new Uint8Array(WET_BLOCK * WET_BLOCK)
    wetBlocks.set(key, cells)
  }
  lastKey = key
  lastCells = cells
  const i = (row - blockRow * WET_BLOCK) * WET_BLOCK + (col - blockCol * WET_BLOCK)
  if (cells[i] === 0) cells[i] = surfaceAt(row / WET_CELL, col / WET_CELL) === 'water' ? 2 : 1
  return cells[i] === 2
}

/** Kilometres of water on a straight line (sampled every 100 m; salt flats are crossed). */
export function waterKm(a: Point, b: Point): number {
  const d = flatKm(a, b)
  const n = Math.max(1, Math.ceil(d / 0.1))
  let wet = 0
  for (let k = 0; k < n; k++) {
    const t = (k + 0.5) / n
    if (wetAt(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t)) wet += d / n
  }
  return wet
}

/** How far from a road a point may be (the emptiest desert). */
const MAX_SNAP_KM = 120

/**
 * The road a point joins (one `profile` and `avoid` may take, when given): the nearest edge whose straight
 * link from the point stays off the water, or `undefined` for a point at sea, abroad (the mask holds Tunisia
 * only), or with no road within 120 km. A point a few metres off the shore (a harbour's quay) still joins.
 */
export function snap(g: RoadGraph, p: Point, profile?: Profile, avoid: Avoid = {}): Snap | undefined {
  const memo = `${p.lat},${p.lng},${profile ?? ''},${avoid.highways ? 1 : 0}${avoid.tolls ? 1 : 0}${avoid.ferries ? 1 : 0}`
  let snaps = snapMemos.get(g)
  if (!snaps) {
    snaps = new Map()
    snapMemos.set(g, snaps)
  }
  const known = snaps.get(memo)
  if (known !== undefined || snaps.has(memo)) return known && { ...known, point: p }
  const found = snapAnew(g, p, profile, avoid)
  if (snaps.size >= 4096) snaps.delete(snaps.keys().next().value!)
  snaps.set(memo, found)
  return found
}

/**
 * Snaps already made, per graph (a tour snaps its stops to cost them, then again to draw its
 * route; a client asks again from the same points): the last 4,096, by point, profile and `avoid`.
 */
const snapMemos = new WeakMap<RoadGraph, Map<string, Snap | undefined>>()

/**
 * Edges by cell of `SNAP_CELL` degrees (~1 km): a point's nearest road is found among few. Two
 * indexes: every edge, and the roads alone (no town's streets: a point off the streets joins a
 * road, looked for among the ~1,500 roads' edges rather than every street's).
 */
const SNAP_CELL = 0.01
const snapCells = new WeakMap<RoadGraph, { all: Map<number, number[]>; roads: Map<number, number[]> }>()
function snapIndex(g: RoadGraph, roadsOnly: boolean): Map<number, number[]> {
  let indexes = snapCells.get(g)
  if (!indexes) {
    const kinds = kindTable(g)
    indexes = { all: edgeCells(g, () => true), roads: edgeCells(g, (e) => kinds[e] !== 3) }
    snapCells.set(g, indexes)
  }
  return roadsOnly ? indexes.roads : indexes.all
}

function edgeCells(g: RoadGraph, take: (e: number) => boolean): Map<number, number[]> {
  const cells = new Map<number, number[]>()
  for (let e = 0; e < g.from.length; e++) {
    if (!take(e)) continue
    const [a, b] = [g.from[e]!, g.to[e]!]
    const [r0, r1] = [
      Math.floor(Math.min(g.lat[a]!, g.lat[b]!) / SNAP_CELL),
      Math.floor(Math.max(g.lat[a]!, g.lat[b]!) / SNAP_CELL),
    ]
    const [c0, c1] = [
      Math.floor(Math.min(g.lng[a]!, g.lng[b]!) / SNAP_CELL),
      Math.floor(Math.max(g.lng[a]!, g.lng[b]!) / SNAP_CELL),
    ]
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++) {
        const list = cells.get(cellKey(r, c))
        if (list) list.push(e)
        else cells.set(cellKey(r, c), [e])
      }
  }
  return cells
}

/** The cells at Chebyshev distance `ring` from (row, col): the square's border, row by row. */
function* ringCells(row: number, col: number, ring: number): Generator<number> {
  for (let r = row - ring; r <= row + ring; r++) {
    const edge = r === row - ring || r === row + ring
    for (let c = col - ring; c <= col + ring; c += edge || ring === 0 ? 1 : 2 * ring) yield cellKey(r, c)
  }
}

function snapAnew(g: RoadGraph, p: Point, profile: Profile | undefined, avoid: Avoid): Snap | undefined {
  const nearest = nearestEdge(g, p, profile, avoid, MAX_SNAP_KM)
  // A point off every street (a field, an airport, a district without a network) joins a road
  // rather than a street of a town's network up to half a kilometre farther: a town's streets are
  // taken only around a route's ends, and its network may reach the roads far away.
  if (!nearest || nearest.km <= OFF_STREET_KM || kindTable(g)[nearest.edge] !== 3) return nearest
  return nearestEdge(g, p, profile, avoid, nearest.km + ROAD_RATHER_KM, true) ?? nearest
}

/** A point this far from every edge is off the streets. */
const OFF_STREET_KM = 0.25
/** How much farther a road may be than a street for a point off the streets to join the road. */
const ROAD_RATHER_KM = 0.5

/**
 * The nearest edge (a road's, not a street's, when `roadsOnly`) within `maxKm` whose straight link
 * from `p` stays off the water.
 */
function nearestEdge(
  g: RoadGraph,
  p: Point,
  profile: Profile | undefined,
  avoid: Avoid,
  maxKm: number,
  roadsOnly = false,
): Snap | undefined {
  const dry = surfaceAt(p.lat, p.lng) !== 'water'
  if (!dry && !nearShore(p)) return undefined
  // A point on a quay may first cross its harbour (or the mask's error on a seafront).
  const wetAllowed = dry ? 0.15 : 1.1
  const kx = kmPerDegreeLng(p.lat)
  const ky = 110.574
  const row = Math.floor(p.lat / SNAP_CELL)
  const col = Math.floor(p.lng / SNAP_CELL)
  const index = snapIndex(g, roadsOnly)
  const seconds = profile === undefined ? undefined : secondsTable(g, profile, avoid)
  const seen = new Set<number>()
  const candidates: { edge: number; t: number; km: number }[] = []
  for (let ring = 0; ring * SNAP_CELL * 100 < maxKm * 1.5 + 2; ring++) {
    for (const cell of ringCells(row, col, ring))
      for (const e of index.get(cell) ?? []) {
        if (seen.has(e)) continue
        seen.add(e)
        // A road the profile may not take (a motorway on foot) is no way in.
        if (seconds !== undefined && seconds[e] === Number.POSITIVE_INFINITY) continue
        const [a, b] = [g.from[e]!, g.to[e]!]
        const ax = (g.lng[a]! - p.lng) * kx
        const ay = (g.lat[a]! - p.lat) * ky
        const bx = (g.lng[b]! - p.lng) * kx
        const by = (g.lat[b]! - p.lat) * ky
        const [dx, dy] = [bx - ax, by - ay]
        const len2 = dx * dx + dy * dy
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2))
        candidates.push({ edge: e, t, km: Math.hypot(ax + dx * t, ay + dy * t) })
      }
    // Every edge nearer than this ring's inner edge has been seen: try them, nearest first (of
    // two as near, the first edge: the ends of a junction's roads are as near as each other).
    const reach = ring * SNAP_CELL * ky * Math.min(1, kx / ky)
    const ready = candidates.filter((s) => s.km <= reach).sort((x, y) => x.km - y.km || x.edge - y.edge)
    for (const s of ready) {
      if (s.km > maxKm) return undefined
      const [a, b] = [g.from[s.edge]!, g.to[s.edge]!]
      const at = {
        lat: g.lat[a]! + (g.lat[b]! - g.lat[a]!) * s.t,
        lng: g.lng[a]! + (g.lng[b]! - g.lng[a]!) * s.t,
      }
      if (waterKm(p, at) < wetAllowed) return { point: p, at, edge: s.edge, t: s.t, km: s.km }
      candidates.splice(candidates.indexOf(s), 1)
    }
  }
  return undefined
}

/**
 * Within a kilometre of land: a quay, a beach, the end of a jetty, or a seafront the land mask
 * (edges of ~0.9 km) draws a little inland.
 */
function nearShore(p: Point): boolean {
  const cos = Math.cos((p.lat * Math.PI) / 180)
  for (const km of [0.3, 0.6, 1]) {
    for (let k = 0; k < 16; k++) {
      const a = (k / 16) * Math.PI * 2
      if (onLand(p.lat + (Math.sin(a) * km) / 111.32, p.lng + (Math.cos(a) * km) / (111.32 * cos)))
        return true
    }
  }
  return false
}

/** A search from one snapped point: cost to every node, and the edge it was reached by. */
export interface Tree {
  cost: Float64Array
  /** Seconds and km to every node along the cheapest path. */
  seconds: Float64Array
  km: Float64Array
  prev: Int32Array
  /** The nodes the search reached (the others hold the unreached values): the next search resets them. */
  reached: number[]
}

/**
 * Dijkstra from a snapped point over the graph, minimizing `metric` (`duration` in seconds or
 * `distance` in km). With `limit`, nodes costlier than it are not expanded.
 */
export function search(
  g: RoadGraph,
  start: Snap,
  profile: Profile,
  avoid: Avoid,
  metric: 'duration' | 'distance' = 'duration',
  limit = Number.POSITIVE_INFINITY,
  /** Edges to avoid if another way is not much longer (an alternative route): they cost 60% more. */
  penalized?: ReadonlySet<number>,
  /** Snapped points the search is for: it stops once their roads' ends are settled. */
  targets?: readonly Snap[],
  /** A tree to fill again instead of a new one (a matrix's searches, one after another). */
  into?: Tree,
  /** Streets are taken within this many cells of the start and the targets (`STREET_RING`). */
  ring = STREET_RING,
): Tree {
  const n = g.lat.length
  const tree = freshTree(n, into)
  const { cost, seconds, km, prev, reached } = tree
  const table = secondsTable(g, profile, avoid)
  // One target: A*, with a lower bound of what is left, so the search heads for it instead of
  // spreading over the whole country.
  const goal = targets?.length === 1 ? targets[0]!.at : undefined
  const bound = lowerBound(g, goal, profile, metric)
  const heap = queue.clear()
  queueStart(g, start, profile, avoid, metric, tree, (v, c) => heap.push(v, c + bound(v)))
  const { pending, byEnd, isEnd } = targetGoals(g, targets, table, metric, n)
  // No pending target can be settled while the queue's head costs less than their smallest best.
  let settleFrom = Number.POSITIVE_INFINITY
  const kinds = kindTable(g)
  const cellOf = cellTable(g)
  const cells = cellOf.cell
  const nearEnds = streetsNear(cellOf, start, targets, ring)
  const townLoss = TOWN_SECONDS[profile]
  // The loop below runs for every node settled (~2,700 a search of a 50-stop tour): what it reads
  // is taken out of `g` and the options once.
  const { first, next, via, town: isTown, urban } = g
  const edgeKm = g.km
  const byTime = metric === 'duration'
  while (heap.size > 0) {
    const u = heap.pop()
    const key = heap.popped
    const c = goal ? key - bound(u) : key
    if (c > cost[u]! + 1e-9 || c > limit) continue
    if (targets) {
      if (isEnd[u] === 1)
        for (const goal of byEnd.get(u)!) {
          goal.best = Math.min(goal.best, c + goal.full * (u === goal.from ? goal.t : 1 - goal.t))
          settleFrom = Math.min(settleFrom, goal.best)
        }
      if (settleFrom <= key) {
        settleFrom = Number.POSITIVE_INFINITY
        for (let i = pending.length - 1; i >= 0; i--)
          if (pending[i]!.best <= key) {
            pending[i] = pending[pending.length - 1]!
            pending.pop()
          } else settleFrom = Math.min(settleFrom, pending[i]!.best)
        if (pending.length === 0) break
      }
    }
    const before = prev[u]! >= 0 ? prev[u]! : -2 - prev[u]!
    const costU = cost[u]!
    const secondsU = seconds[u]!
    const kmU = km[u]!
    const streetsFromU = nearEnds[cells[u]!] === 1
    for (let h = first[u]!, end = first[u + 1]!; h < end; h++) {
      const e = via[h]!
      const v = next[h]!
      const s = table[e]!
      if (s === Number.POSITIVE_INFINITY) continue
      const kind = kinds[e]!
      if (kind === 3 && !streetsFromU && nearEnds[cells[v]!] === 0) continue
      // Time lost entering a town (not on a motorway, a ferry or a street, nor in a city's built-up
      // area, whose speeds count it) and getting onto a motorway from another road.
      const town =
        (isTown[v] === 1 && urban[e] === 0 && kind === 0 ? townLoss : 0) +
        (kind === 1 && kinds[before] !== 1 ? RAMP_SECONDS : 0)
      const factor = penalized?.has(e) ? 1.6 : 1
      const cv = costU + (byTime ? s * factor + town : edgeKm[e]! * factor)
      if (cv < cost[v]!) {
        if (cost[v] === Number.POSITIVE_INFINITY) reached.push(v)
        cost[v] = cv
        seconds[v] = secondsU + s + town
        km[v] = kmU + edgeKm[e]!
        prev[v] = e
        heap.push(v, goal ? cv + bound(v) : cv)
      }
    }
  }
  return tree
}

/**
 * A search's tree, every node unreached: `into` when it has the graph's size, only the nodes its
 * search reached reset (a route's search reaches ~100 of the graph's ~22,000 nodes, a tour's ~2,600).
 */
function freshTree(n: number, into: Tree | undefined): Tree {
  if (into !== undefined && into.cost.length === n) {
    for (const v of into.reached) {
      into.cost[v] = Number.POSITIVE_INFINITY
      into.seconds[v] = Number.POSITIVE_INFINITY
      into.km[v] = Number.POSITIVE_INFINITY
      into.prev[v] = -1
    }
    into.reached.length = 0
    return into
  }
  return {
    cost: new Float64Array(n).fill(Number.POSITIVE_INFINITY),
    seconds: new Float64Array(n).fill(Number.POSITIVE_INFINITY),
    km: new Float64Array(n).fill(Number.POSITIVE_INFINITY),
    prev: new Int32Array(n).fill(-1),
    reached: [],
  }
}

/**
 * A* 's lower bound of what is left to `goal` from a node: the straight line at the fastest speed
 * the profile may go (0 everywhere without one goal: Dijkstra).
 */
function lowerBound(
  g: RoadGraph,
  goal: { lat: number; lng: number } | undefined,
  profile: Profile,
  metric: 'duration' | 'distance',
): (v: number) => number {
  if (!goal) return () => 0
  const fastest = Math.max(...Object.values(SPEEDS[profile]))
  return (v) => {
    // Never more than the great circle: the smaller cosine of the two latitudes, 10% under.
    const cos = Math.cos((Math.max(Math.abs(g.lat[v]!), Math.abs(goal.lat)) * Math.PI) / 180)
    const km = Math.hypot(g.lat[v]! - goal.lat, (g.lng[v]! - goal.lng) * cos) * 111.19 * 0.9
    return metric === 'duration' ? (km / fastest) * 3600 : km
  }
}

/** Reaches the two ends of the start's edge from the snapped point (by its connector), and queues them. */
function queueStart(
  g: RoadGraph,
  start: Snap,
  profile: Profile,
  avoid: Avoid,
  metric: 'duration' | 'distance',
  { cost, seconds, km, prev, reached }: Tree,
  push: (v: number, cost: number) => void,
): void {
  const connector = (start.km / CONNECTOR_KMH[profile]) * 3600
  const e0 = start.edge
  const full = edgeSeconds(g, e0, profile, avoid)
  if (!Number.isFinite(full)) return
  for (const [v, share] of [
    [g.from[e0]!, start.t],
    [g.to[e0]!, 1 - start.t],
  ] as const) {
    const s = connector + full * share
    const d = start.km + g.km[e0]! * share
    const c = metric === 'duration' ? s : d
    if (c < cost[v]!) {
      if (cost[v] === Number.POSITIVE_INFINITY) reached.push(v)
      cost[v] = c
      seconds[v] = s
      km[v] = d
      prev[v] = -2 - e0
    }
  }
  for (const v of [g.from[e0]!, g.to[e0]!]) if (Number.isFinite(cost[v]!)) push(v, cost[v]!)
}

/**
 * The targets a search waits for, by the ends of their edges. Each target is reached by one of
 * its edge's ends: it is settled once the best way to it through an end already settled costs no
 * more than the cheapest node still queued (any way through the other end costs at least that),
 * not once both ends are (a long edge's far end may lie far away).
 */
function targetGoals(
  g: RoadGraph,
  targets: readonly Snap[] | undefined,
  table: Float64Array,
  metric: 'duration' | 'distance',
  n: number,
) {
  const goals = (targets ?? []).map((t) => {
    const full = metric === 'duration' ? table[t.edge]! : g.km[t.edge]!
    return { from: g.from[t.edge]!, to: g.to[t.edge]!, t: t.t, full, best: Number.POSITIVE_INFINITY }
  })
  const pending = goals.filter((goal) => Number.isFinite(goal.full))
  const byEnd = new Map<number, typeof goals>()
  const isEnd = new Uint8Array(pending.length > 0 ? n : 0)
  for (const goal of pending)
    for (const end of [goal.from, goal.to]) {
      isEnd[end] = 1
      const list = byEnd.get(end)
      if (list) list.push(goal)
      else byEnd.set(end, [goal])
    }
  return { pending, byEnd, isEnd }
}

/**
 * The cells near the start and the targets, where streets may be used (the targets' cells computed once a
 * list).
 */
function streetsNear(
  cellOf: ReturnType<typeof cellTable>,
  start: Snap,
  targets: readonly Snap[] | undefined,
  ring: number,
) {
  const memo = targets && targetCells.get(targets)
  let targetsNear = memo?.ring === ring ? memo.near : undefined
  if (!targetsNear) {
    targetsNear = streetCells(
      cellOf,
      (targets ?? []).flatMap((t) => [t.point, t.at]),
      ring,
    )
    if (targets) targetCells.set(targets, { ring, near: targetsNear })
  }
  return streetCells(cellOf, [start.point, start.at], ring, targetsNear.slice())
}

/** A binary min-heap of (node, cost), in typed arrays that double when full. */
class Heap {
  private nodes = new Int32Array(1024)
  private costs = new Float64Array(1024)
  size = 0
  push(node: number, cost: number) {
    if (this.size === this.nodes.length) {
      const nodes = new Int32Array(this.size * 2)
      const costs = new Float64Array(this.size * 2)
      nodes.set(this.nodes)
      costs.set(this.costs)
      this.nodes = nodes
      this.costs = costs
    }
    const { nodes, costs } = this
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (costs[parent]! <= cost) break
      nodes[i] = nodes[parent]!
      costs[i] = costs[parent]!
      i = parent
    }
    nodes[i] = node
    costs[i] = cost
  }
  /** Empties it, keeping its arrays. */
  clear(): this {
    this.size = 0
    return this
  }
  /** The cost of the node `pop` returned last. */
  popped = 0
  /** Takes the cheapest node out (its cost is then `popped`). */
  pop(): number {
    const { nodes, costs } = this
    const top = nodes[0]!
    this.popped = costs[0]!
    const n = --this.size
    const lastNode = nodes[n]!
    const lastCost = costs[n]!
    if (n > 0) {
      let i = 0
      for (;;) {
        const l = i * 2 + 1
        if (l >= n) break
        const r = l + 1
        const m = r < n && costs[r]! < costs[l]! ? r : l
        if (costs[m]! >= lastCost) break
        nodes[i] = nodes[m]!
        costs[i] = costs[m]!
        i = m
      }
      nodes[i] = lastNode
      costs[i] = lastCost
    }
    return top
  }
}

/**
 * The searches' queue, one for the thread: a search runs to its end without yielding, so no two
 * use it at once (its arrays grow to the largest search's, at most ~0.8 MB for this graph).
 */
const queue = new Heap()

/** A path between two snapped points: its nodes in order, with the edges between them. */
export interface Path {
  from: Snap
  to: Snap
  /** Nodes of the graph visited, in order (may be empty when both points snap to one edge). */
  nodes: number[]
  /** `edges[i]` joins `nodes[i]` and `nodes[i + 1]`. */
  edges: number[]
  seconds: number
  km: number
}

/**
 * What the cheapest way from a tree's start to a snapped point costs (seconds and km), and the
 * node it arrives by (-1: along the start's own edge); `undefined` when the roads do not join them.
 * The matrix and the tours need only this: no path walked.
 */
export function reach(
  g: RoadGraph,
  tree: Tree,
  start: Snap,
  end: Snap,
  profile: Profile,
  avoid: Avoid,
  metric: 'duration' | 'distance' = 'duration',
): { node: number; seconds: number; km: number } | undefined {
  const e = end.edge
  const full = edgeSeconds(g, e, profile, avoid)
  const connector = (end.km / CONNECTOR_KMH[profile]) * 3600
  let best: { node: number; seconds: number; km: number; cost: number } | undefined
  if (Number.isFinite(full))
    for (let side = 0; side < 2; side++) {
      const v = side === 0 ? g.from[e]! : g.to[e]!
      const share = side === 0 ? end.t : 1 - end.t
      if (!Number.isFinite(tree.cost[v]!)) continue
      const s = tree.seconds[v]! + full * share + connector
      const d = tree.km[v]! + g.km[e]! * share + end.km
      const cost = metric === 'duration' ? s : d
      if (!best || cost < best.cost) best = { node: v, seconds: s, km: d, cost }
    }
  // Both on one edge: along it, when that is cheaper than going round.
  if (start.edge === e && Number.isFinite(full)) {
    const share = Math.abs(end.t - start.t)
    const s = (start.km / CONNECTOR_KMH[profile]) * 3600 + full * share + connector
    const d = start.km + g.km[e]! * share + end.km
    const cost = metric === 'duration' ? s : d
    if (!best || cost <= best.cost) return { node: -1, seconds: s, km: d }
  }
  return best
}

/**
 * The cheapest path from a tree's start to a snapped point, or `undefined` when the road network
 * does not join them (an island without a crossing, a road the profile or `avoid` forbids).
 */
export function pathTo(
  g: RoadGraph,
  tree: Tree,
  start: Snap,
  end: Snap,
  profile: Profile,
  avoid: Avoid,
  metric: 'duration' | 'distance' = 'duration',
): Path | undefined {
  const best = reach(g, tree, start, end, profile, avoid, metric)
  if (!best) return undefined
  if (best.node === -1)
    return { from: start, to: end, nodes: [], edges: [], seconds: best.seconds, km: best.km }
  const nodes = [best.node]
  const edges: number[] = []
  let v = best.node
  for (;;) {
    const p = tree.prev[v]!
    if (p < -1) break
    edges.push(p)
    v = g.from[p] === v ? g.to[p]! : g.from[p]!
    nodes.push(v)
  }
  nodes.reverse()
  edges.reverse()
  return { from: start, to: end, nodes, edges, seconds: best.seconds, km: best.km }
}

/**
 * Whether a point joins the mainland's roads (not at sea, abroad, or on an island without a
 * crossing; Djerba joins by El Kantara and the ferry, Kerkennah by the ferry from Sfax).
 * @example onMainland({ lat: 35.83, lng: 10.63 }) // true (Sousse)
 */
export function onMainland(p: Point): boolean {
  const g = roadGraph()
  const s = snap(g, p)
  const tunis = snap(g, { lat: 36.8, lng: 10.18 })!
  return s !== undefined && g.component[g.from[s.edge]!] === g.component[g.from[tunis.edge]!]
}
