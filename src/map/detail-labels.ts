import { onLand } from '../data/land.ts'
import { LANDMARKS, type LandmarkKind } from '../data/landmarks.ts'
import { hashSeed } from '../data/seeded.ts'
import type { LabelFont } from '../rasterizer/font.ts'
import type { Rgba } from '../rasterizer/raster.ts'
import type { Shape, TextShape } from '../rasterizer/scene.ts'
import type { LandUse, Runway } from './land-use.ts'
import { landmarkMinZoom } from './landmark-zoom.ts'
import type { MapStreet } from './map-world.ts'
import { mercatorX, mercatorY, type View, worldSize } from './projection.ts'
import type { Palette } from './styles.ts'

/** A centred label of the map's detail layers (names of places, areas and streets). */
function label(
  text: string,
  x: number,
  y: number,
  size: number,
  color: Rgba,
  halo: TextShape['halo'],
  angle?: number,
): TextShape {
  const shape: TextShape = { kind: 'text', role: 'label', text, x, y, size, color, halo, align: 'center' }
  if (angle !== undefined) shape.angle = angle
  return shape
}

/** An icon's disc, ringed in white: a landmark's (`place`) or a POI's (`marker`). */
function disc(role: 'place' | 'marker', x: number, y: number, r: number, color: Rgba, ring: number): Shape {
  return { kind: 'circle', role, x, y, r, color, outline: { width: ring, color: WHITE } }
}

/**
 * The labels and icons of street zoom (13+), placed without overlap: names of parks, squares,
 * ports and airports, landmarks (15+), street names along their street (15+) and POI icons (16+).
 *
 * Placement depends only on the zoom and the map, never on the tile that asks, so a label that
 * crosses a tile edge is drawn the same on both tiles: every candidate has a rank (areas, then
 * landmarks, streets, POIs; then a hash of its id) and is left out when it overlaps a town label
 * or any candidate ranked before it, whether that one is drawn or not. That reads only the
 * candidates near it, so a tile looks 400 pixels around itself and no further.
 */

/** A point of interest as the map draws it (`Poi` of `src/data/pois.ts`, loaded from zoom 16). */
export interface MapPoi {
  id: string
  category: string
  name: { fr: string; ar: string }
  lat: number
  lng: number
}

/** How far around a view (pixels) the candidates it weighs may stand: load POIs that far. */
export const DETAIL_REACH = 1024 + 600

/** A box turned by `angle` radians around its centre, in world pixels. */
export interface LabelBox {
  cx: number
  cy: number
  /** Half width and half height. */
  hw: number
  hh: number
  angle: number
}

/** A label or icon placed in a view: its box in world pixels and what it stands for. */
export interface PlacedDetail {
  kind: 'area' | 'landmark' | 'street' | 'poi'
  id: string
  box: LabelBox
}

interface Candidate extends PlacedDetail {
  rank: number
  /** Within a rank, lower goes first (0-15): a great mosque before a hospital, avenues before lanes. */
  sub?: number
  /**
   * Alternatives of one label (a street's name at a few places along its run, nearest the
   * middle first): the first that fits is drawn, the others are not weighed once one is.
   */
  group?: string
  /** Its place among its group's alternatives (0: the one preferred). */
  alternative?: number
  draw(out: Shape[], left: number, top: number): void
}

/**
 * Where a real axis's name may stand along its run, from its preferred place: every 30 px up to 300 either
 * way.
 */
const ALONG_SHIFTS = [0, ...Array.from({ length: 10 }, (_, i) => [-(i + 1) * 30, (i + 1) * 30]).flat()]

/** Labels are placed block by block (greedy inside a block; across blocks the lower rank yields). */
const BLOCK = 1024
/** The farthest a label's box reaches from its anchor, in pixels (longer names are not drawn). */
const MAX_HALF = 200
const MARGIN = 2 * MAX_HALF

/** The corners of a box. */
function corners(b: LabelBox): number[] {
  const [c, s] = [Math.cos(b.angle), Math.sin(b.angle)]
  const out: number[] = []
  for (const [x, y] of [
    [-b.hw, -b.hh],
    [b.hw, -b.hh],
    [b.hw, b.hh],
    [-b.hw, b.hh],
  ] as const)
    out.push(b.cx + x * c - y * s, b.cy + x * s + y * c)
  return out
}

/** The axis-aligned bounds of a box: `[left, top, right, bottom]`. */
export function boundsOf(b: LabelBox): [number, number, number, number] {
  const p = corners(b)
  const xs = [p[0]!, p[2]!, p[4]!, p[6]!]
  const ys = [p[1]!, p[3]!, p[5]!, p[7]!]
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]
}

/** Whether two turned boxes overlap (separating axis test). */
export function boxesOverlap(a: LabelBox, b: LabelBox): boolean {
  if (Math.abs(a.cx - b.cx) > a.hw + a.hh + b.hw + b.hh) return false
  if (Math.abs(a.cy - b.cy) > a.hw + a.hh + b.hw + b.hh) return false
  const pa = corners(a)
  const pb = corners(b)
  for (const angle of [a.angle, a.angle + Math.PI / 2, b.angle, b.angle + Math.PI / 2]) {
    const [ux, uy] = [Math.cos(angle), Math.sin(angle)]
    let [minA, maxA, minB, maxB] = [Infinity, -Infinity, Infinity, -Infinity]
    for (let i = 0; i < 8; i += 2) {
      const da = pa[i]! * ux + pa[i + 1]! * uy
      const db = pb[i]! * ux + pb[i + 1]! * uy
      minA = Math.min(minA, da)
      maxA = Math.max(maxA, da)
      minB = Math.min(minB, db)
      maxB = Math.max(maxB, db)
    }
    if (maxA <= minB || maxB <= minA) return false
  }
  return true
}

/** A landmark's icon colour by kind. */
// biome-ignore format: a table
const KIND_COLOURS: Record<LandmarkKind, Rgba> = {
  mosque: [46, 125, 80, 255], church: [110, 90, 150, 255], synagogue: [70, 100, 160, 255],
  museum: [176, 96, 40, 255], theatre: [170, 60, 110, 255], stadium: [60, 140, 120, 255],
  archaeological_site: [150, 110, 70, 255], hospital: [200, 50, 50, 255], station: [40, 90, 170, 255],
  monument: [120, 100, 80, 255], fort: [120, 100, 80, 255], palace: [150, 80, 120, 255],
}

/** A POI icon: its colour and the sign on it, by category. */
// biome-ignore format: a table
const POI_ICONS: Record<string, [Rgba, string]> = {
  restaurant: [[214, 120, 40, 255], 'R'], cafe: [[170, 110, 60, 255], 'C'], bakery: [[200, 140, 60, 255], 'B'],
  school: [[150, 110, 80, 255], 'E'], education: [[150, 110, 80, 255], 'E'],
  hospital: [[200, 50, 50, 255], '+'], health: [[200, 50, 50, 255], '+'], pharmacy: [[40, 150, 70, 255], '+'],
  bank: [[90, 100, 130, 255], 'B'], atm: [[90, 100, 130, 255], 'B'], fuel: [[120, 110, 130, 255], 'F'],
  hotel: [[40, 80, 160, 255], 'H'], parking: [[60, 110, 190, 255], 'P'], transit: [[40, 90, 170, 255], 'T'],
  municipality: [[110, 110, 110, 255], 'M'], shopping: [[140, 80, 160, 255], 'S'],
  culture: [[176, 96, 40, 255], '*'], mosque: [[46, 125, 80, 255], 'م'], place_of_worship: [[46, 125, 80, 255], 'م'],
}

const WHITE: Rgba = [255, 255, 255, 255]

/** What a view's detail layer reads. */
export interface DetailInput {
  view: View
  font: LabelFont
  palette: Palette
  /** Town labels already placed at this zoom: their boxes are taken. */
  taken: ReadonlyArray<readonly [number, number, number, number]>
  areas: readonly LandUse[]
  /** Runways: their end numbers are written at their thresholds from zoom 14. */
  runways?: readonly Runway[]
  streets: readonly MapStreet[]
  pois: readonly MapPoi[]
}

/** A street's line in Web Mercator units (flat `[x, y, ...]`). */
function streetLine(s: MapStreet): ArrayLike<number> {
  return (s as MapStreet & { points?: ArrayLike<number> }).points ?? s.axis
}

/** The text sizes of street names at a zoom. */
const streetSize = (zoom: number) => (zoom >= 17 ? 12 : zoom >= 16 ? 11 : 10)

/**
 * The labels and icons a view shows, placed (see the file's comment), and the shapes that draw
 * them in the view's pixels.
 * @example placeDetails(input).placed.every((p) => p.box.hw > 0)
 */
export function placeDetails(input: DetailInput): { placed: PlacedDetail[]; shapes: Shape[] } {
  const { view, palette } = input
  const zoom = view.zoom
  const size = worldSize(zoom)
  // Blocks whose labels a view may draw (their anchors are within MAX_HALF of it), and around them
  // every candidate that can touch those blocks' ones.
  const [b0, b1] = [Math.floor((view.left - MAX_HALF) / BLOCK), Math.floor((view.top - MAX_HALF) / BLOCK)]
  const [b2, b3] = [
    Math.floor((view.left + view.width + MAX_HALF) / BLOCK),
    Math.floor((view.top + view.height + MAX_HALF) / BLOCK),
  ]
  const reach: [number, number, number, number] = [
    b0 * BLOCK - MARGIN,
    b1 * BLOCK - MARGIN,
    (b2 + 1) * BLOCK + MARGIN,
    (b3 + 1) * BLOCK + MARGIN,
  ]
  const near = (x: number, y: number) => x >= reach[0] && x <= reach[2] && y >= reach[1] && y <= reach[3]
  const g: Gather = {
    input,
    zoom,
    size,
    near,
    halo: { width: 1.6, color: palette.labelHalo },
    candidates: [],
  }
  areaCandidates(g)
  runwayCandidates(g)
  landmarkCandidates(g)
  streetCandidates(g)
  poiCandidates(g)
  return placeCandidates(g.candidates, input)
}

/** What the candidates of a view are gathered with, and where. */
interface Gather {
  input: DetailInput
  zoom: number
  /** The world's size in pixels at this zoom. */
  size: number
  /** Whether a point (world pixels) is within the blocks this view may draw labels of. */
  near: (x: number, y: number) => boolean
  halo: { width: number; color: Rgba }
  candidates: Candidate[]
}

/** Names of parks, squares, ports, airports and quarters, French over Arabic. */
function areaCandidates(g: Gather): void {
  const { font, palette } = g.input
  const { input, zoom, size, near, halo, candidates } = g
  /** A name in two lines, French over Arabic, centred on `x, y` (world pixels). */
  const twoLines = (fr: string, ar: string, x: number, y: number, fs: number, color: Rgba) => {
    const w = Math.max(font.layout(fr).width * fs, font.layout(ar).width * (fs - 1))
    return {
      box: { cx: x, cy: y, hw: w / 2 + 2, hh: fs * 1.15, angle: 0 },
      draw(out: Shape[], left: number, top: number) {
        out.push(label(fr, x - left, y - top - fs * 0.55, fs, color, halo))
        out.push(label(ar, x - left, y - top + fs * 0.6, fs - 1, color, halo))
      },
    }
  }

  // 1. Names of parks, squares, ports, airports and quarters.
  for (const area of input.areas) {
    const name = area.name
    if (!name || zoom < name.minZoom) continue
    const [x, y] = [name.x * size, name.y * size]
    if (!near(x, y)) continue
    const fs = area.kind === 'airport' || area.kind === 'urban' ? 12 : 11
    const color = area.kind === 'park' || area.kind === 'cemetery' ? palette.areaLabel : palette.label
    const { box, draw } = twoLines(name.fr, name.ar, x, y, fs, color)
    candidates.push({ kind: 'area', id: area.id, rank: 0, box, draw })
  }
}

/** Runway numbers (01, 19...) just inside each threshold, from 14. */
function runwayCandidates(g: Gather): void {
  const { font, palette } = g.input
  const { input, zoom, size, near, halo, candidates } = g
  // Runway numbers (01, 19...) just inside each threshold, from 14.
  if (zoom >= 14)
    for (const r of input.runways ?? []) {
      const [x0, y0, x1, y1] = r.points.map((v) => v * size) as [number, number, number, number]
      const length = Math.hypot(x1 - x0, y1 - y0)
      const [ux, uy] = [(x1 - x0) / length, (y1 - y0) / length]
      for (const [k, [x, y, dir]] of (
        [
          [x0, y0, 1],
          [x1, y1, -1],
        ] as const
      ).entries()) {
        const [cx, cy] = [x + ux * dir * 22, y + uy * dir * 22]
        if (!near(cx, cy)) continue
        const text = r.ends[k]!
        const fs = 11
        const w = font.layout(text).width * fs
        candidates.push({
          kind: 'area',
          id: `${r.airport}:${text}`,
          rank: 0,
          box: { cx, cy, hw: w / 2 + 2, hh: fs * 0.65, angle: 0 },
          draw(out, left, top) {
            out.push(label(text, cx - left, cy - top, fs, palette.label, halo))
          },
        })
      }
    }
}

/**
 * Landmarks at 15+, at 14+ the monuments, forts, ancient sites, palaces, great mosques and railway
 * stations: an icon at the building, the name under it in French and Arabic.
 */
function landmarkCandidates(g: Gather): void {
  const { font } = g.input
  const { zoom, size, near, halo, candidates } = g
  // 2. Landmarks: an icon at the building, the name under it.
  if (zoom >= 14) {
    for (const l of LANDMARKS) {
      if (zoom < landmarkMinZoom(l)) continue
      const [x, y] = [mercatorX(l.lng) * size, mercatorY(l.lat) * size]
      if (!near(x, y) || !onLand(l.lat, l.lng)) continue
      const fs = zoom >= 17 ? 12 : 11
      const color = KIND_COLOURS[l.kind]
      const name = l.name.fr
      const w = Math.max(font.layout(name).width * fs, font.layout(l.name.ar).width * (fs - 1), 14)
      // The name under the icon, else above it, to its right or to its left (a town's label by it).
      for (const [j, place] of namePlaces(x, y, w, fs).entries()) {
        candidates.push({
          kind: 'landmark',
          id: l.id,
          // A town's great mosque after the squares' names and before the streets' around it
          // (Zitouna in its lanes); the TGM's stations give way to the other landmarks (the Punic
          // ports beside Carthage Byrsa).
          rank: l.greatMosqueOf ? 0 : 1,
          sub: l.greatMosqueOf ? 9 : l.id.startsWith('gare-tgm-') ? 5 : l.aliases ? 2 : 4,
          group: l.id,
          alternative: j,
          box: place.box,
          draw(out, left, topPx) {
            const [px, py] = [x - left, y - topPx]
            out.push(disc('place', px, py, 5.5, color, 1.5))
            const [dx, dy] = place.name
            out.push(label(name, px + dx, py + dy, fs, color, halo))
            out.push(label(l.name.ar, px + dx, py + dy + fs * 1.15, fs - 1, color, halo))
          },
        })
      }
    }
  }
}

/**
 * Where a landmark's two-line name (French over Arabic, `w` wide, `fs` pixels) may stand around
 * its icon at (x, y): the box of icon and name, and the French line's centre from the icon.
 */
function namePlaces(
  x: number,
  y: number,
  w: number,
  fs: number,
): { box: LabelBox; name: [number, number] }[] {
  const height = fs * 2.3
  const side = 9 + w / 2
  const places: { name: [number, number]; top: number; bottom: number; cx: number; hw: number }[] = [
    { name: [0, 8 + fs * 0.55], top: y - 7, bottom: y + 8 + height, cx: x, hw: w / 2 + 2 },
    { name: [0, -8 - height + fs * 0.55], top: y - 8 - height, bottom: y + 7, cx: x, hw: w / 2 + 2 },
    {
      name: [side, -fs * 0.6],
      top: y - height / 2 - 2,
      bottom: y + height / 2 + 2,
      cx: x + 1 + w / 2,
      hw: w / 2 + 9,
    },
    {
      name: [-side, -fs * 0.6],
      top: y - height / 2 - 2,
      bottom: y + height / 2 + 2,
      cx: x - 1 - w / 2,
      hw: w / 2 + 9,
    },
  ]
  return places.map(({ name, top, bottom, cx, hw }) => ({
    name,
    box: { cx, cy: (top + bottom) / 2, hw, hh: (bottom - top) / 2, angle: 0 },
  }))
}

/** Street names along their street at 15+ (see below). */
function streetCandidates(g: Gather): void {
  const { font, palette } = g.input
  const { input, zoom, size, near, halo, candidates } = g
  // 3. Street names along their street at 15+, French then (16+) Arabic above it as on the
  // blue plaques of Tunisian streets; repeated every ~400 pixels along long streets at 16+.
  if (zoom >= 15) {
    const fs = streetSize(zoom)
    for (const s of input.streets) {
      const line = streetLine(s)
      const px: number[] = []
      for (let i = 0; i < line.length; i++) px.push(line[i]! * size)
      let inReach = false
      for (let i = 0; i < px.length && !inReach; i += 2) inReach = near(px[i]!, px[i + 1]!)
      if (!inReach) continue
      const fr = s.street.fr
      const ar = s.street.ar
      const both = zoom >= 16 && ar.length > 0
      const w = Math.max(font.layout(fr).width * fs, both ? font.layout(ar).width * (fs - 1) : 0)
      // Straight runs of the line (consecutive segments within ~8 degrees of each other).
      const runs: { from: number; length: number; ax: number; ay: number; bx: number; by: number }[] = []
      let total = 0
      for (let i = 2; i < px.length; i += 2) {
        const [ax, ay, bx, by] = [px[i - 2]!, px[i - 1]!, px[i]!, px[i + 1]!]
        const l = Math.hypot(bx - ax, by - ay)
        if (l === 0) continue
        const run = runs.at(-1)
        const turn = run
          ? Math.abs(
              ((Math.atan2(by - ay, bx - ax) - Math.atan2(run.by - run.ay, run.bx - run.ax) + 3 * Math.PI) %
                (2 * Math.PI)) -
                Math.PI,
            )
          : Number.POSITIVE_INFINITY
        if (run && turn < 0.14 && run.bx === ax && run.by === ay) {
          run.length += l
          run.bx = bx
          run.by = by
        } else runs.push({ from: total, length: l, ax, ay, bx, by })
        total += l
      }
      if (total < w * 1.15 + 8) continue
      const spacing = Math.max(w + 260, 400)
      const stops: number[] = []
      // A real axis (Avenue Habib Bourguiba) is named before the landmarks along it, and along its
      // length from 15 (a generated street once, in its middle, until 16).
      const real = s.street.kind === 'real' && !s.street.square
      if ((zoom < 16 && !real) || total < spacing * 1.5) stops.push(total / 2)
      else for (let d = spacing / 2; d < total - w / 2; d += spacing) stops.push(d)
      // Each stop takes the straight run nearest it that the name fits on, and keeps its distance
      // from the last name placed (a winding lane gets one name or none).
      const fits = runs.filter((r) => r.length >= w * 1.1)
      let last = Number.NEGATIVE_INFINITY
      for (const [k, d] of stops.entries()) {
        const distance = (r: (typeof runs)[number]) =>
          d < r.from ? r.from - d : Math.max(0, d - r.from - r.length)
        const run = fits.reduce<(typeof runs)[number] | undefined>(
          (best, r) => (!best || distance(r) < distance(best) ? r : best),
          undefined,
        )
        if (!run) break
        const at = Math.min(run.from + run.length - w / 2, Math.max(run.from + w / 2, d))
        if (at - last < spacing * 0.6) continue
        last = at
        const { ax, ay, bx, by } = run
        let angle = Math.atan2(by - ay, bx - ax)
        if (angle > Math.PI / 2) angle -= Math.PI
        if (angle <= -Math.PI / 2) angle += Math.PI
        const [nx, ny] = [-Math.sin(angle), Math.cos(angle)]
        const off = both ? fs * 0.62 : 0
        // Where a square's name stands at its place, a real axis's name moves along the run.
        const shifts = real ? ALONG_SHIFTS : [0]
        for (const [j, shift] of shifts.entries()) {
          const there = at + shift
          if (there < run.from + w / 2 || there > run.from + run.length - w / 2) continue
          const t = (there - run.from) / run.length
          const [cx, cy] = [ax + (bx - ax) * t, ay + (by - ay) * t]
          candidates.push({
            kind: 'street',
            id: `${s.street.id}#${k}${j === 0 ? '' : `@${j}`}`,
            rank: real ? 0 : 2,
            sub: real ? 10 : s.main ? 2 : 6,
            group: `${s.street.id}#${k}`,
            alternative: j,
            box: { cx, cy, hw: w / 2 + 2, hh: both ? fs * 1.2 : fs * 0.62, angle },
            draw(out, left, top) {
              const [x, y] = [cx - left, cy - top]
              out.push(label(fr, x + nx * off, y + ny * off, fs, palette.label, halo, angle))
              if (both) out.push(label(ar, x - nx * off, y - ny * off, fs - 1, palette.label, halo, angle))
            },
          })
        }
      }
    }
  }
}

/** POI icons at 16+, on land only. */
function poiCandidates(g: Gather): void {
  const { input, zoom, size, near, candidates } = g
  // 4. POI icons at 16+, on land only.
  if (zoom >= 16) {
    const r = zoom >= 17 ? 7 : 6
    for (const p of input.pois) {
      const [x, y] = [mercatorX(p.lng) * size, mercatorY(p.lat) * size]
      if (!near(x, y) || !onLand(p.lat, p.lng)) continue
      const [color, sign] = POI_ICONS[p.category] ?? [[110, 110, 110, 255] as Rgba, '•']
      candidates.push({
        kind: 'poi',
        id: p.id,
        rank: 3,
        box: { cx: x, cy: y, hw: r + 1.5, hh: r + 1.5, angle: 0 },
        draw(out, left, top) {
          const [px, py] = [x - left, y - top]
          out.push(disc('marker', px, py, r, color, 1.2))
          out.push({
            kind: 'text',
            role: 'marker',
            text: sign,
            x: px,
            y: py,
            size: r * 1.5,
            color: WHITE,
            align: 'center',
          })
        },
      })
    }
  }
}

/**
 * Places the candidates in rank order, each left out where it overlaps one before it; draws those in view.
 */
function placeCandidates(
  candidates: Candidate[],
  input: DetailInput,
): { placed: PlacedDetail[]; shapes: Shape[] } {
  const { view } = input
  // Rank, then a hash of the id: the same order whatever the view.
  const order = candidates
    .filter((c) => Math.max(c.box.hw, c.box.hh) <= MAX_HALF)
    .map((c) => ({
      c,
      key: c.rank * 2 ** 36 + (c.sub ?? 8) * 2 ** 32 + hashSeed(c.group ?? c.id) + (c.alternative ?? 0) / 8,
      block: Math.floor(c.box.cx / BLOCK) * 1e6 + Math.floor(c.box.cy / BLOCK),
      placed: false,
    }))
  order.sort((a, b) => a.key - b.key || (a.c.id < b.c.id ? -1 : 1))
  type Entry = (typeof order)[number]
  const CELL = 128
  const grid = new Map<number, Entry[]>()
  const cellsOf = (b: [number, number, number, number]) => {
    const out: number[] = []
    for (let cx = Math.floor(b[0] / CELL); cx <= Math.floor(b[2] / CELL); cx++)
      for (let cy = Math.floor(b[1] / CELL); cy <= Math.floor(b[3] / CELL); cy++) out.push(cx * 1e6 + cy)
    return out
  }
  // Town labels (placed for the whole zoom) are taken, in every block.
  for (const [l, t, r, b] of input.taken) {
    const box = { cx: (l + r) / 2, cy: (t + b) / 2, hw: (r - l) / 2, hh: (b - t) / 2, angle: 0 }
    const entry: Entry = {
      c: { ...box, kind: 'area', id: '', rank: -1, box, draw() {} },
      key: -1,
      block: -1,
      placed: true,
    }
    for (const k of cellsOf([l, t, r, b])) grid.set(k, [...(grid.get(k) ?? []), entry])
  }
  const placed: PlacedDetail[] = []
  const shapes: Shape[] = []
  const [vl, vt, vr, vb] = [view.left, view.top, view.left + view.width, view.top + view.height]
  /** The groups of alternatives one of which is placed. */
  const chosen = new Set<string>()
  for (const entry of order) {
    const { c } = entry
    if (c.group !== undefined && chosen.has(c.group)) continue
    const bounds = boundsOf(c.box)
    const keys = cellsOf(bounds)
    // Left out if it overlaps a label placed before it in its block, a town label, or any label
    // of another block ranked before it (placed there or not: that block's choice is not ours).
    entry.placed = !keys.some((k) =>
      grid.get(k)?.some((d) => (d.placed || d.block !== entry.block) && boxesOverlap(d.c.box, c.box)),
    )
    for (const k of keys) {
      const list = grid.get(k)
      if (list) list.push(entry)
      else grid.set(k, [entry])
    }
    if (!entry.placed) continue
    if (c.group !== undefined) chosen.add(c.group)
    if (bounds[2] < vl || bounds[0] > vr || bounds[3] < vt || bounds[1] > vb) continue
    placed.push({ kind: c.kind, id: c.id, box: c.box })
    c.draw(shapes, view.left, view.top)
  }
  return { placed, shapes }
}
