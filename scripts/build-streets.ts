/**
 * Builds `src/data/street-network.json`: every town's street network (where its streets run, the
 * same for every data seed: a seed only names the generated streets and numbers their houses, in
 * src/data/streets.ts), computed once here rather than on first use in every process and page
 * (0.35-1.2 s of CPU). The runtime decodes the file (src/data/street-network.ts);
 * `src/data/street-network.test.ts` re-runs this build in memory and compares it with the
 * committed file, so the file cannot drift from these rules. Run with `npm run build:data` (after
 * the land mask and the roads, which it reads) or `node scripts/build-streets.ts`.
 *
 * Generated, except the real axes and squares of src/data/city-streets.ts (each with its source),
 * which are placed first: a dense irregular medina with a few gates for the old cities, a grid for
 * the colonial centres (Tunis's Ville Nouvelle, Sfax's Bab Bhar), a looser lattice for the rest of
 * the town, sized by its population. Every vertex stands on the land the map draws (the land mask,
 * src/data/land.json, OpenStreetMap-derived, ODbL); a segment that would cross water is left out.
 * Every town's network is connected (its parts are linked, or dropped) and joined to the roads
 * between towns (src/data/roads.json) by short streets that end on a road's vertex, so routing
 * reaches every street.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { REAL_STREETS, type RealStreet } from '../src/data/city-streets.ts'
import { LOCALITIES, type Locality } from '../src/data/gazetteer.ts'
import { onCauseway, onLand } from '../src/data/land.ts'
import { LANDMARKS, MONUMENT_GROUNDS } from '../src/data/landmarks.ts'
import roadData from '../src/data/roads.json' with { type: 'json' }
import { seededRandom } from '../src/data/seeded.ts'
import {
  STREET_KINDS,
  STREET_NETWORK_FILE,
  type StreetLine,
  type TownNetwork,
  TUNIS_BOURGUIBA,
  TUNIS_ID,
} from '../src/data/street-network.ts'

const root = resolve(import.meta.dirname, '..')

/** The cosine under which two segments run the same way (25 degrees). */
const SAME_WAY = Math.cos((25 * Math.PI) / 180)

/** Towns this big or seats of government get streets. */
const MIN_POPULATION = 8000
const SEATS = new Set(['PPLC', 'PPLA', 'PPLA2'])

/**
 * Old cities with a medina: its centre (the great mosque where src/data/landmarks.ts has it, else
 * the gazetteer's point, an approximation) and radius in metres (an approximation of its walls).
 */
// biome-ignore format: a table
const MEDINAS: Record<string, { lat: number; lng: number; m: number }> = {
  Tunis: { lat: 36.7975, lng: 10.1695, m: 650 },
  Sousse: { lat: 35.825, lng: 10.635, m: 300 },
  Sfax: { lat: 34.7365, lng: 10.7605, m: 300 },
  Kairouan: { lat: 35.679, lng: 10.101, m: 420 },
  Monastir: { lat: 35.7775, lng: 10.8275, m: 230 },
  Mahdia: { lat: 35.5035, lng: 11.069, m: 220 },
  Hammamet: { lat: 36.3995, lng: 10.6175, m: 140 },
  Nabeul: { lat: 36.456, lng: 10.734, m: 220 },
  Bizerte: { lat: 37.2745, lng: 9.8725, m: 230 },
}

/**
 * Colonial grids: a box (south, west, north, east), the grid's rotation (radians, counter-clockwise
 * from east: Tunis's follows Avenue Habib Bourguiba, 7.9° north of east between Place de
 * l'Indépendance and the clock tower) and its block in metres. The boxes are approximations.
 */
// biome-ignore format: a table
const GRIDS: Record<string, { box: [number, number, number, number]; angle: number; m: number }> = {
  Tunis: { box: [36.7925, 10.1745, 36.812, 10.198], angle: 0.138, m: 105 },
  Sfax: { box: [34.7262, 10.7545, 34.734, 10.769], angle: 0, m: 100 },
}

const KY = 110_540
const kxAt = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180)

/** The towns with a network, their centre and radius (degrees of latitude). */
let townDiscs: Array<{ id: string; lat: number; lng: number; r: number }> = []
/** Every locality once (the biggest where several share a point), to find the one a street is in. */
let everyTown: Locality[] = []

/** Every town's network, built from the code's rules (the same for every seed). */
export function buildStreetNetworks(): TownNetwork[] {
  const towns = LOCALITIES.filter((l) => (l.pop ?? 0) >= MIN_POPULATION || SEATS.has(l.fc ?? ''))
  townDiscs = towns.map((l) => {
    const c = l.id === TUNIS_ID ? TUNIS_BOURGUIBA : l
    return { id: l.id, lat: c.lat, lng: c.lng, r: Math.min(0.05, 0.006 + Math.sqrt(l.pop ?? 0) / 20000) }
  })
  const seen = new Set<string>()
  everyTown = [...LOCALITIES]
    .sort((a, b) => (b.pop ?? 0) - (a.pop ?? 0) || (a.id < b.id ? -1 : 1))
    .filter((l) => {
      const key = `${l.lat.toFixed(3)},${l.lng.toFixed(3)}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  localityCells = undefined
  return towns.map(buildTown)
}

/**
 * The town with a network whose disc a point is deepest in (distance over radius): it draws the streets
 * there.
 */
function ownerDisc(lat: number, lng: number): string | undefined {
  let best: string | undefined
  let bestScore = 1
  const cos = Math.cos((lat * Math.PI) / 180)
  for (const d of townDiscs) {
    if (Math.abs(d.lat - lat) > d.r) continue
    const score = Math.hypot(d.lat - lat, (d.lng - lng) * cos) / d.r
    if (score < bestScore) {
      bestScore = score
      best = d.id
    }
  }
  return best
}

/** Every locality by cell of 0.05 degree, to find the nearest without reading them all. */
let localityCells: Map<number, Locality[]> | undefined
const LOCALITY_CELL = 0.05
const localityKey = (r: number, c: number) => r * 100_000 + c

/** The locality nearest a point (Tunis by its centre, as the towns' places are). */
function nearestLocality(lat: number, lng: number): Locality {
  if (!localityCells) {
    localityCells = new Map()
    for (const l of everyTown) {
      const c = l.id === TUNIS_ID ? TUNIS_BOURGUIBA : l
      const key = localityKey(Math.floor(c.lat / LOCALITY_CELL), Math.floor(c.lng / LOCALITY_CELL))
      ;(localityCells.get(key) ?? localityCells.set(key, []).get(key)!).push(l)
    }
  }
  const cos = Math.cos((lat * Math.PI) / 180)
  const [row, col] = [Math.floor(lat / LOCALITY_CELL), Math.floor(lng / LOCALITY_CELL)]
  let best = everyTown[0]!
  let bestD = Number.POSITIVE_INFINITY
  for (let ring = 0; ring < 40; ring++) {
    for (let r = row - ring; r <= row + ring; r++)
      for (let c = col - ring; c <= col + ring; c++) {
        if (Math.max(Math.abs(r - row), Math.abs(c - col)) !== ring) continue
        for (const l of localityCells.get(localityKey(r, c)) ?? []) {
          const p = l.id === TUNIS_ID ? TUNIS_BOURGUIBA : l
          const d = (p.lat - lat) ** 2 + ((p.lng - lng) * cos) ** 2
          if (d < bestD) {
            bestD = d
            best = l
          }
        }
      }
    // Every locality nearer than this ring's inner edge has been read.
    if (bestD <= (ring * LOCALITY_CELL * cos) ** 2) break
  }
  return best
}

/** The road vertices (lat, lng) of src/data/roads.json, computed as the road graph computes them. */
let roadVertices: Float64Array | undefined
function roadPoints(): Float64Array {
  if (!roadVertices) {
    const out: number[] = []
    for (const r of roadData.roads)
      for (let i = 0; i < r.points.length; i += 2) {
        const x = r.points[i]!
        const y = r.points[i + 1]!
        out.push((Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI, x * 360 - 180)
      }
    roadVertices = Float64Array.from(out)
  }
  return roadVertices
}

function buildTown(locality: Locality): TownNetwork {
  const random = seededRandom(locality.id, 'street-network')
  const pop = locality.pop ?? 0
  const centre = locality.id === TUNIS_ID ? TUNIS_BOURGUIBA : locality
  const kx = kxAt(centre.lat)
  const toXY = (lat: number, lng: number) => [(lng - centre.lng) * kx, (lat - centre.lat) * KY] as const
  const toLL = (x: number, y: number) => [centre.lat + y / KY, centre.lng + x / kx] as const
  const radius = Math.min(0.05, 0.006 + Math.sqrt(pop) / 20000) * KY
  // The monuments' grounds near the town, in its metres: no generated street crosses them.
  const grounds = MONUMENT_GROUNDS.flatMap(({ id, radiusM }) => {
    const l = LANDMARKS.find((landmark) => landmark.id === id)
    if (!l) throw new Error(`MONUMENT_GROUNDS names no landmark ${id}: fix src/data/landmarks.ts.`)
    const [x, y] = toXY(l.lat, l.lng)
    return Math.hypot(x, y) < radius + 5000 ? [{ x, y, r: radiusM }] : []
  })
  const onGrounds = (ax: number, ay: number, bx: number, by: number) =>
    grounds.some(({ x, y, r }) => segmentDistance(x, y, ax, ay, bx, by) < r)
  const dry = (ax: number, ay: number, bx: number, by: number, generated = true) => {
    if (generated && onGrounds(ax, ay, bx, by)) return false
    // Every 50 m (the mask's edges are ~1 km long; refined waterfronts ~100 m); a generated
    // street does not run along a causeway either.
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 50))
    for (let k = 1; k < n; k++) {
      const [la, ln] = [
        centre.lat + (ay + ((by - ay) * k) / n) / KY,
        centre.lng + (ax + ((bx - ax) * k) / n) / kx,
      ]
      if (!onLand(la, ln) || (generated && onCauseway(la, ln))) return false
    }
    return true
  }

  // Nodes, merged when closer than a radius (so streets meet), in a hash of 100 m cells.
  const xs: number[] = []
  const ys: number[] = []
  const realOf: Array<Set<number> | undefined> = []
  const medinaNode: boolean[] = []
  /** The part that made each node: 0 real, 1 medina, 2 grid, 3 the outer lattice, 4 the shore road. */
  const part: number[] = []
  const cells = new Map<number, number[]>()
  const CELL = 100
  const EMPTY: number[] = []
  const cellKey = (cx: number, cy: number) => (cx + 5000) * 10_000 + (cy + 5000)
  const near = (x: number, y: number, r: number, filter?: (n: number) => boolean) => {
    let best = -1
    let bestD = r
    const reach = Math.ceil(r / CELL)
    const [cx, cy] = [Math.floor(x / CELL), Math.floor(y / CELL)]
    for (let i = cx - reach; i <= cx + reach; i++)
      for (let j = cy - reach; j <= cy + reach; j++)
        for (const n of cells.get(cellKey(i, j)) ?? EMPTY) {
          const d = Math.hypot(xs[n]! - x, ys[n]! - y)
          if (d <= bestD && (!filter || filter(n))) {
            bestD = d
            best = n
          }
        }
    return best
  }
  let making = 0
  const add = (x: number, y: number, merge: number, medina = false): number => {
    const found = merge > 0 ? near(x, y, merge) : -1
    if (found >= 0) return found
    const [la, ln] = toLL(x, y)
    // A causeway carries its road and railway only: no generated street stands on one.
    if (!onLand(la, ln) || (making !== 0 && (onCauseway(la, ln) || onGrounds(x, y, x, y)))) return -1
    const id = xs.length
    xs.push(x)
    ys.push(y)
    realOf.push(undefined)
    medinaNode.push(medina)
    part.push(making)
    const key = cellKey(Math.floor(x / CELL), Math.floor(y / CELL))
    const list = cells.get(key)
    if (list) list.push(id)
    else cells.set(key, [id])
    return id
  }

  const lines: Array<{ nodes: number[]; kind: StreetLine['kind']; real?: RealStreet }> = []
  /** Adds a run of nodes as lines, split where a node is missing or a segment crosses water. */
  const addRun = (run: number[], kind: StreetLine['kind'], real?: RealStreet) => {
    let current: number[] = []
    const flush = () => {
      if (current.length >= 2) lines.push({ nodes: current, kind, ...(real && { real }) })
      current = []
    }
    for (const n of run) {
      if (n < 0) {
        flush()
        continue
      }
      const last = current[current.length - 1]
      if (last === n) continue
      if (last !== undefined && !dry(xs[last]!, ys[last]!, xs[n]!, ys[n]!, kind !== 'real')) flush()
      current.push(n)
    }
    flush()
  }

  // 1. The real streets and squares, densified to a vertex every 40 m or less (squares first).
  const real = REAL_STREETS.filter((s) => s.town === locality.name).sort(
    (a, b) => Number(b.square === true) - Number(a.square === true),
  )
  real.forEach((street, index) => {
    const run: number[] = []
    for (let i = 0; i < street.points.length; i++) {
      const [x, y] = toXY(street.points[i]![0], street.points[i]![1])
      if (i > 0) {
        const [px, py] = toXY(street.points[i - 1]![0], street.points[i - 1]![1])
        const steps = Math.ceil(Math.hypot(x - px, y - py) / 40)
        for (let k = 1; k < steps; k++)
          run.push(add(px + ((x - px) * k) / steps, py + ((y - py) * k) / steps, 15))
      }
      run.push(add(x, y, 15))
    }
    for (const n of run) {
      if (n < 0) continue
      realOf[n] ??= new Set()
      realOf[n].add(index)
    }
    addRun(run, 'real', street)
  })
  // The real streets' segments: a generated segment whose middle is within 20 m of one, or within
  // 45 m and running the same way (within 25 degrees), would run along it (a grid line beside an
  // avenue, or crossing it at a shallow angle): it is left out.
  const realSegments: number[] = []
  for (const l of lines)
    for (let i = 1; i < l.nodes.length; i++)
      realSegments.push(xs[l.nodes[i - 1]!]!, ys[l.nodes[i - 1]!]!, xs[l.nodes[i]!]!, ys[l.nodes[i]!]!)
  const alongReal = (a: number, b: number) => {
    const [mx, my] = [(xs[a]! + xs[b]!) / 2, (ys[a]! + ys[b]!) / 2]
    for (let i = 0; i < realSegments.length; i += 4) {
      const [ax, ay, bx, by] = [
        realSegments[i]!,
        realSegments[i + 1]!,
        realSegments[i + 2]!,
        realSegments[i + 3]!,
      ]
      if (Math.abs(ax - mx) > 600 && Math.abs(bx - mx) > 600) continue
      const [dx, dy] = [bx - ax, by - ay]
      const t = Math.max(0, Math.min(1, ((mx - ax) * dx + (my - ay) * dy) / (dx * dx + dy * dy || 1)))
      const off = Math.hypot(ax + dx * t - mx, ay + dy * t - my)
      if (off < 20) return true
      if (off < 45) {
        const [ex, ey] = [xs[b]! - xs[a]!, ys[b]! - ys[a]!]
        const cos = Math.abs(ex * dx + ey * dy) / (Math.hypot(ex, ey) * Math.hypot(dx, dy) || 1)
        if (cos > SAME_WAY) return true
      }
    }
    return false
  }
  const sameReal = (a: number, b: number) => {
    const [ra, rb] = [realOf[a], realOf[b]]
    if (!ra || !rb) return false
    for (const r of ra) if (rb.has(r)) return true
    return false
  }

  /**
   * A lattice over the points `inside` accepts: `spacing` metres, rotated by `angle`, each point
   * moved by up to `jitter` x spacing, each segment dropped with probability `drop`. Its rows and
   * columns become streets (split where a point or segment is missing).
   */
  const lattice = (
    cx: number,
    cy: number,
    half: number,
    spacing: number,
    angle: number,
    jitter: number,
    drop: number,
    kind: StreetLine['kind'],
    inside: (x: number, y: number) => boolean,
  ) => {
    const n = Math.ceil(half / spacing)
    const size = 2 * n + 1
    const ids = new Int32Array(size * size).fill(-1)
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)]
    for (let i = 0; i < size; i++)
      for (let j = 0; j < size; j++) {
        const u = (i - n) * spacing + random.float(-jitter, jitter) * spacing
        const v = (j - n) * spacing + random.float(-jitter, jitter) * spacing
        const x = cx + u * cos - v * sin
        const y = cy + u * sin + v * cos
        if (!inside(x, y)) continue
        ids[i * size + j] = add(x, y, spacing * 0.45, kind === 'medina')
      }
    const keep = (a: number, b: number) =>
      a >= 0 && b >= 0 && !sameReal(a, b) && random.float(0, 1) >= drop && !alongReal(a, b)
    for (const rows of [true, false])
      for (let i = 0; i < size; i++) {
        const run: number[] = []
        for (let j = 0; j < size; j++) {
          const id = rows ? ids[i * size + j]! : ids[j * size + i]!
          const prev = run[run.length - 1]
          if (prev !== undefined && prev >= 0 && id >= 0 && !keep(prev, id)) run.push(-1)
          run.push(id)
        }
        addRun(run, kind)
      }
  }

  // 2. The medina: dense, irregular, many dead ends.
  making = 1
  const medina = MEDINAS[locality.name]
  const [mx, my] = medina ? toXY(medina.lat, medina.lng) : [0, 0]
  if (medina)
    lattice(
      mx,
      my,
      medina.m,
      55,
      random.float(0, Math.PI / 2),
      0.3,
      0.3,
      'medina',
      (x, y) => Math.hypot(x - mx, y - my) <= medina.m,
    )
  const inMedina = (x: number, y: number) =>
    medina !== undefined && Math.hypot(x - mx, y - my) <= medina.m + 40

  // 3. The colonial grid.
  making = 2
  const grid = GRIDS[locality.name]
  let inGrid = (_x: number, _y: number) => false
  if (grid) {
    const [s, w, n, e] = grid.box
    const [x0, y0] = toXY(s, w)
    const [x1, y1] = toXY(n, e)
    inGrid = (x, y) => x >= x0 - 30 && x <= x1 + 30 && y >= y0 - 30 && y <= y1 + 30
    lattice(
      (x0 + x1) / 2,
      (y0 + y1) / 2,
      Math.max(x1 - x0, y1 - y0) / 2 + grid.m,
      grid.m,
      grid.angle,
      0.04,
      0.04,
      'grid',
      (x, y) => inGrid(x, y) && !inMedina(x, y),
    )
  }

  // 4. The rest of the town: a looser lattice, sized by its population.
  making = 3
  const budget = Math.min(900, 60 + Math.sqrt(pop) / 1.2)
  const spacing = Math.max(120, radius * Math.sqrt(Math.PI / budget))
  // Where two towns' discs overlap, the one whose disc the point is deepest in draws the streets.
  lattice(0, 0, radius, spacing, random.float(0, Math.PI / 2), 0.22, 0.1, 'suburb', (x, y) => {
    if (Math.hypot(x, y) > radius || inMedina(x, y) || inGrid(x, y)) return false
    const [la, ln] = toLL(x, y)
    return ownerDisc(la, ln) === locality.id
  })

  // 4b. The shore: where the town's disc meets the sea or a lake, a road along it ~40 m inland
  // (the corniche), found along rays from the centre: the last land before the first water.
  making = 4
  const rays = Math.max(24, Math.min(160, Math.round((Math.PI * 2 * radius) / spacing)))
  const shore: number[] = []
  for (let k = 0; k < rays; k++) {
    const a = (k / rays) * Math.PI * 2
    const [dx, dy] = [Math.cos(a), Math.sin(a)]
    let found = -1
    let land = -1
    for (let r = 25; r <= radius; r += 25) {
      const [la, ln] = toLL(dx * r, dy * r)
      if (onLand(la, ln)) {
        if (land < 0) land = r
        continue
      }
      // Water before any land (a centre on a harbour's edge): not yet the shore.
      if (land < 0) continue
      if (r - land > 100) {
        const at = r - 65
        const [lx, ly] = [dx * at, dy * at]
        const [ola, oln] = toLL(lx, ly)
        if (ownerDisc(ola, oln) === locality.id) found = add(lx, ly, spacing * 0.25)
      }
      break
    }
    shore.push(found)
  }
  // Around the disc: consecutive shore points near each other, as one road (a gap splits it).
  const start = shore.indexOf(-1)
  const around = start < 0 ? [...shore, shore[0]!] : [...shore.slice(start), ...shore.slice(0, start)]
  const coast: number[] = []
  for (const n of around) {
    const last = coast[coast.length - 1]
    if (
      n >= 0 &&
      last !== undefined &&
      last >= 0 &&
      Math.hypot(xs[n]! - xs[last]!, ys[n]! - ys[last]!) > spacing * 2.5
    )
      coast.push(-1)
    coast.push(n)
  }
  addRun(coast, 'coast')

  // its nodes the nearest node of the other part within 0.8 x spacing; the medina only through
  // its gates.
  const link = (a: number, b: number) => {
    if (a < 0 || b < 0 || a === b) return false
    if (!dry(xs[a]!, ys[a]!, xs[b]!, ys[b]!)) return false
    lines.push({ nodes: [a, b], kind: 'link' })
    return true
  }
  const degree = new Map<number, Set<number>>()
  const refreshDegree = () => {
    degree.clear()
    for (const l of lines)
      for (let i = 1; i < l.nodes.length; i++) {
        const [a, b] = [l.nodes[i - 1]!, l.nodes[i]!]
        ;(degree.get(a) ?? degree.set(a, new Set()).get(a)!).add(b)
        ;(degree.get(b) ?? degree.set(b, new Set()).get(b)!).add(a)
      }
  }
  refreshDegree()
  const lineOf = new Map<number, Set<number>>()
  lines.forEach((l, i) => {
    for (const n of l.nodes) (lineOf.get(n) ?? lineOf.set(n, new Set()).get(n)!).add(i)
  })
  for (let n = 0; n < xs.length; n++) {
    if (part[n] !== 3 || (degree.get(n)?.size ?? 0) >= 4) continue
    const mine = lineOf.get(n) ?? new Set()
    const other = near(xs[n]!, ys[n]!, spacing * 0.8, (m) => {
      if (m === n || part[m] === 3 || medinaNode[m] || degree.get(n)?.has(m)) return false
      for (const l of lineOf.get(m) ?? []) if (mine.has(l)) return false
      return true
    })
    if (other >= 0) link(n, other)
  }
  if (medina) {
    // Gates: five, around the walls, each from the medina's outermost node that way to the town.
    const start = random.float(0, Math.PI * 2)
    for (let g = 0; g < 5; g++) {
      const a = start + (g / 5) * Math.PI * 2
      const [gx, gy] = [mx + Math.cos(a) * medina.m, my + Math.sin(a) * medina.m]
      const inner = near(gx, gy, 200, (m) => medinaNode[m]!)
      const outer = near(gx, gy, spacing * 1.5, (m) => !medinaNode[m])
      link(inner, outer)
    }
  }

  // 6. One network: every part linked to the largest by its nearest dry link, or dropped.
  const parent = Int32Array.from(xs.keys())
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!
      a = parent[a]!
    }
    return a
  }
  const unite = (a: number, b: number) => {
    parent[find(a)] = find(b)
  }
  const used = new Set<number>()
  for (const l of lines)
    for (let i = 0; i < l.nodes.length; i++) {
      used.add(l.nodes[i]!)
      if (i > 0) unite(l.nodes[i - 1]!, l.nodes[i]!)
    }
  const groups = new Map<number, number[]>()
  for (const n of used) (groups.get(find(n)) ?? groups.set(find(n), []).get(find(n))!).push(n)
  const sorted = [...groups.values()].sort((a, b) => b.length - a.length)
  const main = sorted[0] ?? []
  const kept = new Set(main.map(find))
  for (const group of sorted.slice(1)) {
    let best: [number, number, number] | undefined
    for (const n of group) {
      const m = near(xs[n]!, ys[n]!, Math.max(400, spacing * 2.5), (k) => used.has(k) && kept.has(find(k)))
      if (m < 0) continue
      const d = Math.hypot(xs[n]! - xs[m]!, ys[n]! - ys[m]!)
      if (!best || d < best[2]) best = [n, m, d]
    }
    if (best && link(best[0], best[1])) {
      unite(best[0], best[1])
      kept.add(find(best[0]))
    }
  }
  const root = main.length > 0 ? find(main[0]!) : -1
  const final = lines.filter((l) => find(l.nodes[0]!) === root)

  // 7. Joined to the roads between towns: from each road vertex in the town (or the nearest within
  // 5 km), a short street to the nearest street node, ending exactly on the road's vertex.
  const roads = roadPoints()
  const joins: Array<[number, number]> = []
  let nearest: [number, number, number] | undefined
  for (let i = 0; i < roads.length; i += 2) {
    const [x, y] = toXY(roads[i]!, roads[i + 1]!)
    const d = Math.hypot(x, y)
    if (d <= radius + 300) joins.push([roads[i]!, roads[i + 1]!])
    else if (d <= 5000 && (!nearest || d < nearest[2])) nearest = [roads[i]!, roads[i + 1]!, d]
  }
  const reached = new Set<number>()
  for (const l of final) for (const n of l.nodes) reached.add(n)
  const out: StreetLine[] = final.map((l) => ({
    points: Float64Array.from(l.nodes.flatMap((n) => toLL(xs[n]!, ys[n]!))),
    kind: l.kind,
    ...(l.real && { real: l.real }),
  }))
  // From each road vertex to the nearest street node within 1.2 x spacing (600 m at most); a town
  // that no road passes that near joins by its nearest pair (up to 5 km).
  const seen = new Set<string>()
  let joined = 0
  let fallback: [number, number, number, number] | undefined
  const limit = Math.min(600, spacing * 1.2)
  const candidates = nearest ? [...joins, [nearest[0], nearest[1]] as [number, number]] : joins
  for (const [lat, lng] of candidates) {
    const key = `${lat.toFixed(5)},${lng.toFixed(5)}`
    if (seen.has(key) || !onLand(lat, lng)) continue
    seen.add(key)
    const [x, y] = toXY(lat, lng)
    const far = Math.hypot(x, y) > radius + 300
    const m = near(x, y, far ? 5000 : limit * 1.5, (k) => reached.has(k))
    if (m < 0 || !dry(x, y, xs[m]!, ys[m]!)) continue
    const d = Math.hypot(x - xs[m]!, y - ys[m]!)
    if (d < 1) continue
    if (d > limit) {
      if (!fallback || d < fallback[3]) fallback = [lat, lng, m, d]
      continue
    }
    out.push({ points: Float64Array.of(lat, lng, ...toLL(xs[m]!, ys[m]!)), kind: 'join' })
    joined++
  }
  if (joined === 0 && fallback) {
    const [lat, lng, m] = fallback
    out.push({ points: Float64Array.of(lat, lng, ...toLL(xs[m]!, ys[m]!)), kind: 'join' })
    joined++
  }
  if (joined === 0) {
    // No road within 5 km (a town off the network's nodes): the nearest road vertex within 20 km
    // that a dry straight line reaches from the town's nearest street, as a country lane.
    const far: Array<[number, number, number]> = []
    for (let i = 0; i < roads.length; i += 2) {
      const [x, y] = toXY(roads[i]!, roads[i + 1]!)
      const d = Math.hypot(x, y)
      if (d <= 20_000 && onLand(roads[i]!, roads[i + 1]!)) far.push([roads[i]!, roads[i + 1]!, d])
    }
    far.sort((a, b) => a[2] - b[2])
    for (const [lat, lng] of far) {
      const [x, y] = toXY(lat, lng)
      let best = -1
      for (const n of reached)
        if (best < 0 || Math.hypot(xs[n]! - x, ys[n]! - y) < Math.hypot(xs[best]! - x, ys[best]! - y))
          best = n
      if (best >= 0 && dry(x, y, xs[best]!, ys[best]!)) {
        out.push({ points: Float64Array.of(lat, lng, ...toLL(xs[best]!, ys[best]!)), kind: 'join' })
        break
      }
    }
  }
  const owners = out.map((line) => {
    if (line.kind !== 'suburb') return undefined
    const mid = Math.floor(line.points.length / 4) * 2
    const owner = nearestLocality(line.points[mid]!, line.points[mid + 1]!)
    return owner.id === locality.id ? undefined : owner
  })
  return { locality, lines: out, owners }
}

/** The header of the file: what made it and from what. */
export const STREET_NETWORK_HEADER =
  'Generated by scripts/build-streets.ts (npm run build:data) from its rules, src/data/gazetteer.ts, src/data/city-streets.ts, src/data/land.json and src/data/roads.json: do not edit. Generated streets, except the real ones of city-streets.ts (sources there); land mask and roads OpenStreetMap-derived, © OpenStreetMap contributors, ODbL.'

/**
 * The file's text for these networks (the format is described in src/data/street-network.ts):
 * each distinct vertex once, as the exact float64 pair (the answers and tiles stay the same to
 * the bit), the lines as integers.
 */
export function encodeStreetNetworks(networks: readonly TownNetwork[]): string {
  const vertexIndex = new Map<string, number>()
  const vertices: number[] = []
  const owners: string[] = []
  const ownerIndex = new Map<string, number>()
  const lines: number[] = []
  let previous = 0
  for (const town of networks)
    town.lines.forEach((line, i) => {
      const owner = town.owners[i]
      let o = 0
      if (owner) {
        if (!ownerIndex.has(owner.id)) ownerIndex.set(owner.id, owners.push(owner.id))
        o = ownerIndex.get(owner.id)!
      }
      const real = line.real ? REAL_STREETS.indexOf(line.real) : -1
      if (line.real && real < 0)
        throw new Error(`Failed to encode the streets: ${line.real.fr} is not in REAL_STREETS.`)
      lines.push(STREET_KINDS.indexOf(line.kind), real + 1, o, line.points.length / 2)
      for (let k = 0; k < line.points.length; k += 2) {
        const key = `${line.points[k]},${line.points[k + 1]}`
        let v = vertexIndex.get(key)
        if (v === undefined) {
          v = vertices.length / 2
          vertexIndex.set(key, v)
          vertices.push(line.points[k]!, line.points[k + 1]!)
        }
        lines.push(v - previous)
        previous = v
      }
    })
  const bytes = new Uint8Array(vertices.length * 8)
  const view = new DataView(bytes.buffer)
  for (const [i, value] of vertices.entries()) view.setFloat64(i * 8, value, true)
  const file = {
    generated: STREET_NETWORK_HEADER,
    towns: networks.flatMap((t) => [t.locality.id, t.lines.length]),
    owners,
    lines,
    vertices: Buffer.from(bytes).toString('base64'),
  }
  return `${JSON.stringify(file)}\n`
}

if (import.meta.main) {
  const networks = buildStreetNetworks()
  const text = encodeStreetNetworks(networks)
  writeFileSync(join(root, STREET_NETWORK_FILE), text)
  const lines = networks.reduce((n, t) => n + t.lines.length, 0)
  console.log(
    `wrote ${STREET_NETWORK_FILE}: ${networks.length} towns, ${lines} streets, ${(text.length / 1024).toFixed(0)} KB`,
  )
}

/** Metres from (px, py) to the segment from (ax, ay) to (bx, by), in a town's metres. */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const [dx, dy] = [bx - ax, by - ay]
  const len2 = dx * dx + dy * dy
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2))
  return Math.hypot(ax + dx * t - px, ay + dy * t - py)
}
