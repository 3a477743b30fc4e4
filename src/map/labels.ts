import { DELEGATIONS, LOCALITIES, POIS } from '../data/gazetteer.ts'
import { nearestLand, onLand } from '../data/land.ts'
import { LANDMARKS } from '../data/landmarks.ts'
import { isOwnPlace, placeName } from '../data/place-names.ts'
import { townCentre } from '../data/town-centre.ts'
import { WATERS } from '../data/waters.ts'
import type { LabelFont } from '../rasterizer/font.ts'
import { foldAccents } from '../text/fold.ts'
import { landmarkMinZoom } from './landmark-zoom.ts'
import { latitudeOf, longitudeOf, mercatorX, mercatorY, worldSize } from './projection.ts'

/** Something named on the map: a town (with a dot), a country or a sea. */
export interface MapLabel {
  kind: 'town' | 'country' | 'sea'
  fr: string
  ar?: string
  /** Web Mercator units. */
  x: number
  y: number
  /** Bigger first when labels compete for room. */
  rank: number
  minZoom: number
  maxZoom: number
  /** A governorate's capital: named first, whatever else wants the room. */
  capital?: boolean
  /**
   * A town known for what stands there (the gazetteer's heritage sites and landmarks at the town:
   * Carthage, Sidi Bou Saïd, El Jem): named before the towns of its zoom that are not, and beside
   * its dot when another label stands over it.
   */
  famous?: boolean
}

/** A label placed at one zoom, in world pixels, with its sizes and the box it claims. */
export interface PlacedLabel {
  label: MapLabel
  x: number
  y: number
  size: number
  /** The text's offset from the dot, in pixels (a capital moved aside to find room). */
  dx?: number
  dy?: number
  /** `[left, top, right, bottom]` in world pixels. */
  box: [number, number, number, number]
}

/**
 * Countries, seas, lakes and salt flats, in French and Arabic (facts; positions where the name reads well).
 */
// biome-ignore format: a table reads best with one label a line
const REGION_LABELS: ReadonlyArray<Omit<MapLabel, 'x' | 'y'> & { lat: number; lng: number }> = [
  { kind: 'country', fr: 'Tunisie', ar: 'تونس', lat: 33.6, lng: 9.3, rank: 3e6, minZoom: 3, maxZoom: 6 },
  { kind: 'country', fr: 'Algérie', ar: 'الجزائر', lat: 30.5, lng: 4.5, rank: 3e6, minZoom: 3, maxZoom: 7 },
  { kind: 'country', fr: 'Libye', ar: 'ليبيا', lat: 29.5, lng: 15.5, rank: 3e6, minZoom: 3, maxZoom: 7 },
  { kind: 'country', fr: 'Italie', ar: 'إيطاليا', lat: 42.3, lng: 12.8, rank: 3e6, minZoom: 4, maxZoom: 7 },
  { kind: 'country', fr: 'Malte', ar: 'مالطا', lat: 35.75, lng: 14.4, rank: 1e6, minZoom: 6, maxZoom: 9 },
  { kind: 'sea', fr: 'Mer Méditerranée', ar: 'البحر الأبيض المتوسط', lat: 35.3, lng: 17.5, rank: 2e6, minZoom: 3, maxZoom: 7 },
  { kind: 'sea', fr: 'Golfe de Tunis', ar: 'خليج تونس', lat: 37.02, lng: 10.5, rank: 9e5, minZoom: 9, maxZoom: 11 },
  { kind: 'sea', fr: 'Golfe de Hammamet', ar: 'خليج الحمامات', lat: 36.05, lng: 10.9, rank: 9e5, minZoom: 8, maxZoom: 10 },
  { kind: 'sea', fr: 'Golfe de Gabès', ar: 'خليج قابس', lat: 34.0, lng: 10.85, rank: 9e5, minZoom: 7, maxZoom: 10 },
  // Lakes, lagoons and salt flats (src/data/waters.ts: the geocoder finds them too).
  ...WATERS.map(({ name, lat, lng, rank, minZoom, maxZoom }) => ({
    kind: 'sea' as const, fr: name.fr, ar: name.ar, lat, lng, rank, minZoom, maxZoom,
  })),
]

const SEATS = new Set(['PPLC', 'PPLA', 'PPLA2'])

/** A town this big is named beside its dot where another label stands over it. */
const MOVED_RANK = 50_000

/**
 * The gazetteer's landmarks that stand at a town (a heritage site placed at its town's point):
 * those towns are famous. Within 500 m of the town's own point.
 */
const FAMOUS_AT = POIS.filter((p) => p.id.startsWith('landmark:'))
const isFamous = (lat: number, lng: number) =>
  FAMOUS_AT.some((p) => Math.abs(p.lat - lat) < 0.0045 && Math.abs(p.lng - lng) < 0.0055)

/** The order labels claim room in: capitals, towns of 50,000 or more, famous towns, then by rank (size). */
const byImportance = (a: MapLabel, b: MapLabel) =>
  Number(b.capital ?? false) - Number(a.capital ?? false) ||
  Number(b.rank >= MOVED_RANK) - Number(a.rank >= MOVED_RANK) ||
  Number(b.famous ?? false) - Number(a.famous ?? false) ||
  b.rank - a.rank

/** A town's rank: its population where known, else whether it is a delegation's seat. */
function townRank(pop: number | undefined, seat: boolean, capital: boolean): number {
  return Math.max(pop ?? 0, capital ? 60_000 : 0, seat ? 3_000 : 300)
}

/** The zoom from which a town of a rank is named: the bigger, the sooner. */
function townMinZoom(rank: number): number {
  return rank >= 500_000
    ? 5
    : rank >= 100_000
      ? 6
      : rank >= 50_000
        ? 7
        : rank >= 20_000
          ? 8
          : rank >= 8_000
            ? 9
            : rank >= 3_000
              ? 10
              : 12
}

/** Every label of the map: the gazetteer's towns and the region's countries and seas. */
export function mapLabels(): MapLabel[] {
  // Delegation seats in a grid of 0.01 x 0.012 degree cells: a town is a seat when one is that
  // close, found among the 3 x 3 cells around it (not by a scan of all 264 for each town).
  const cellOf = (lat: number, lng: number) => [Math.floor(lat / 0.01), Math.floor(lng / 0.012)] as const
  const grid = new Map<string, Array<readonly [number, number]>>()
  for (const d of DELEGATIONS) {
    const [i, j] = cellOf(d.lat, d.lng)
    const key = `${i} ${j}`
    grid.set(key, [...(grid.get(key) ?? []), [d.lat, d.lng] as const])
  }
  const isSeat = (lat: number, lng: number) => {
    const [i, j] = cellOf(lat, lng)
    for (let di = -1; di <= 1; di++)
      for (let dj = -1; dj <= 1; dj++)
        for (const [a, b] of grid.get(`${i + di} ${j + dj}`) ?? [])
          if (Math.abs(a - lat) < 0.01 && Math.abs(b - lng) < 0.012) return true
    return false
  }
  const labels: MapLabel[] = REGION_LABELS.map(({ lat, lng, ...l }) => ({
    ...l,
    x: mercatorX(lng),
    y: mercatorY(lat),
  }))
  // Landmarks by folded French name: a quarter named after the landmark it is around (Bab Saadoun,
  // the gate) is named by the landmark once the map draws it, not twice side by side.
  const landmarksByName = new Map<string, (typeof LANDMARKS)[number][]>()
  for (const l of LANDMARKS) {
    const key = fold(l.name.fr)
    landmarksByName.set(key, [...(landmarksByName.get(key) ?? []), l])
  }
  const namesake = (fr: string, lat: number, lng: number) =>
    landmarksByName.get(fold(fr))?.find((l) => Math.hypot(l.lat - lat, (l.lng - lng) * 0.82) < 0.015)
  const towns: (MapLabel & { lat: number; lng: number })[] = []
  for (const l of LOCALITIES) {
    if (!isOwnPlace(l)) continue
    const names = placeName(l)
    const at = townCentre(l)
    const capital = l.fc === 'PPLA' || l.fc === 'PPLC'
    const landmarkNamed = capital ? undefined : namesake(names.fr, at.lat, at.lng)
    const rank = townRank(l.pop, isSeat(l.lat, l.lng), SEATS.has(l.fc ?? ''))
    // Arabic only where the gazetteer or PLACE_NAMES gives it (not the French name twice).
    const ar = names.ar !== names.fr ? names.ar : undefined
    towns.push({
      kind: 'town',
      fr: names.fr,
      ...(ar && { ar }),
      // Tunis at its centre, Avenue Habib Bourguiba (TMaps' own "Tunis centre"), not at GeoNames'
      // point by the Kasbah and Bab Saadoun.
      x: mercatorX(at.lng),
      y: mercatorY(at.lat),
      lat: at.lat,
      lng: at.lng,
      rank,
      // Governorate capitals are named from zoom 6 and placed before any other label.
      minZoom: capital ? Math.min(6, townMinZoom(rank)) : townMinZoom(rank),
      maxZoom: landmarkNamed ? landmarkMinZoom(landmarkNamed) - 1 : 18,
      ...(capital && { capital: true }),
      ...(isFamous(l.lat, l.lng) && { famous: true }),
    })
  }
  // One label per place: of the towns of one name within 10 km, the biggest (Gammarth, Monastir).
  towns.sort(byImportance)
  const kept: typeof towns = []
  // The towns kept so far by folded name: each name folded once, not each time two are compared.
  const keptByName = new Map<string, typeof towns>()
  for (const town of towns) {
    const key = fold(town.fr)
    const namesakes = keptByName.get(key)
    if (namesakes?.some((k) => Math.hypot(k.lat - town.lat, (k.lng - town.lng) * 0.82) < 0.09)) continue
    kept.push(town)
    if (namesakes) namesakes.push(town)
    else keptByName.set(key, [town])
  }
  for (const { lat: _lat, lng: _lng, ...town } of kept) labels.push(town)
  return labels.sort((a, b) => byImportance(a, b) || a.fr.localeCompare(b.fr))
}

/**
 * Every label's texts (French and Arabic) and their widths in em, as `font.layout` measures them:
 * what placing the labels of a zoom needs of the font. Shaping every text with opentype.js would
 * slow a process's first tile, so `scripts/build-label-widths.ts` writes them to
 * `src/data/label-widths.json` once (`labels.test.ts` checks the file against this).
 */
export function labelWidths(labels: readonly MapLabel[], font: LabelFont): Record<string, number> {
  const texts = [...new Set(labels.flatMap((l) => (l.ar ? [l.fr, l.ar] : [l.fr])))].sort()
  return Object.fromEntries(texts.map((text) => [text, font.layout(text).width]))
}

/** A name folded for comparison: no accents, no case, no punctuation. */
const fold = (name: string) => foldAccents(name).replace(/[^a-z0-9]/g, '')

/** Font size of a label at a zoom. */
function labelSize(label: MapLabel, zoom: number): number {
  if (label.kind === 'country') return zoom <= 4 ? 13 : 15
  if (label.kind === 'sea') return 12
  const big = label.rank >= 500_000 ? 3 : label.rank >= 100_000 ? 2 : label.rank >= 20_000 ? 1 : 0
  return 11 + big + (zoom >= 13 ? 1 : 0)
}

/** Vertical offsets from a town's point: the French line above the dot, the Arabic line below. */
export const LINE_ABOVE = 0.95
export const LINE_BELOW = 1.05

const shores = new WeakMap<MapLabel, readonly [number, number]>()
/**
 * Where a town's dot stands at street zoom (12+): its point, or the land nearest it within 2 km
 * when the point is in the water (the gazetteer's Sousse is in its harbour basin).
 */
function ashore(label: MapLabel): readonly [number, number] {
  let at = shores.get(label)
  if (!at) {
    const [lat, lng] = [latitudeOf(label.y), longitudeOf(label.x)]
    const land = label.kind === 'town' && !onLand(lat, lng) ? nearestLand(lat, lng, 2) : undefined
    at = land ? [mercatorX(land.lng), mercatorY(land.lat)] : [label.x, label.y]
    shores.set(label, at)
  }
  return at
}

/**
 * Places the labels of one zoom, most important first; a label that would overlap one already
 * placed is left out. The result depends only on the zoom, never on which tile asks, so a label
 * that crosses a tile edge is drawn the same on both tiles.
 */
export function placeLabels(
  labels: readonly MapLabel[],
  zoom: number,
  font: LabelFont,
  /** Each text's width in em as `font.layout` gives it, made at build time (`labelWidths`). */
  widths: Readonly<Record<string, number>> = {},
): PlacedLabel[] {
  const widthOf = (text: string) =>
    (Object.hasOwn(widths, text) ? widths[text] : undefined) ?? font.layout(text).width
  const size = worldSize(zoom)
  const placed: PlacedLabel[] = []
  const CELL = 256
  const grid = new Map<number, PlacedLabel[]>()
  const cells = (box: [number, number, number, number]) => {
    const out: number[] = []
    for (let cx = Math.floor(box[0] / CELL); cx <= Math.floor(box[2] / CELL); cx++)
      for (let cy = Math.floor(box[1] / CELL); cy <= Math.floor(box[3] / CELL); cy++) out.push(cx * 1e7 + cy)
    return out
  }
  const overlaps = (a: PlacedLabel['box'], b: PlacedLabel['box']) =>
    a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1]
  for (const label of labels) {
    if (zoom < label.minZoom || zoom > label.maxZoom) continue
    const [lx, ly] = zoom >= 12 ? ashore(label) : [label.x, label.y]
    const px = lx * size
    const py = ly * size
    const fontSize = labelSize(label, zoom)
    const wFr = widthOf(label.fr) * fontSize
    const wAr = label.ar ? widthOf(label.ar) * (fontSize - 1) : 0
    const half = Math.max(wFr, wAr) / 2 + 3
    const box: [number, number, number, number] =
      label.kind === 'town'
        ? [
            px - half,
            py - fontSize * (LINE_ABOVE + 0.6),
            px + half,
            py + (label.ar ? fontSize * (LINE_BELOW + 0.6) : 5),
          ]
        : [px - half, py - fontSize * 0.8, px + half, py + (label.ar ? fontSize * 1.9 : fontSize * 0.8)]
    const free = (b: [number, number, number, number]) =>
      !cells(b).some((k) => grid.get(k)?.some((p) => overlaps(p.box, b)))
    // A capital, a famous town, or a town of 50,000 or more (Hammamet beside Nabeul), that finds no
    // room over its dot tries its right, its left, below and above.
    let [dx, dy] = [0, 0]
    if (!free(box)) {
      if (!label.capital && !label.famous && label.rank < MOVED_RANK) continue
      // At low zoom a capital in another's suburbs (Ariana, Ben Arous, La Manouba by Tunis) yields to it.
      const near = (12 / 40_075) * size
      if (zoom <= 8 && placed.some((p) => p.label.capital && Math.hypot(p.x - px, p.y - py) < near)) continue
      const h = box[3] - box[1]
      const moves: [number, number][] = [
        [half + 4, 0],
        [-half - 4, 0],
        [0, h * 0.75],
        [0, -h * 0.75],
      ]
      const move = moves.find(([mx, my]) => free([box[0] + mx, box[1] + my, box[2] + mx, box[3] + my]))
      if (!move) continue
      ;[dx, dy] = move
      box[0] += dx
      box[2] += dx
      box[1] += dy
      box[3] += dy
    }
    const keys = cells(box)
    const entry: PlacedLabel = {
      label,
      x: px,
      y: py,
      size: fontSize,
      box,
      ...((dx !== 0 || dy !== 0) && { dx, dy }),
    }
    placed.push(entry)
    for (const k of keys) {
      const list = grid.get(k)
      if (list) list.push(entry)
      else grid.set(k, [entry])
    }
  }
  return placed
}
