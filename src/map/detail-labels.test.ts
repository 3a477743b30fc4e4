import { beforeAll, describe, expect, it } from 'vitest'
import { decodePng } from '../../test/support/png.ts'
import { onLand } from '../data/land.ts'
import { LANDMARKS } from '../data/landmarks.ts'
import { seededRandom } from '../data/seeded.ts'
import { parseStaticMap } from '../endpoints/maps/static-map.ts'
import type { CircleShape, TextShape } from '../rasterizer/scene.ts'
import { loadBaseLevel } from './basemap.ts'
import { boundsOf, boxesOverlap, type MapPoi, type PlacedDetail } from './detail-labels.ts'
import { landUseIn } from './land-use.ts'
import { poisIn } from './map-pois.ts'
import { buildMapScene, detailsOf } from './map-scene.ts'
import { mapWorldFor } from './map-world.ts'
import {
  latitudeOf,
  longitudeOf,
  mercatorX,
  mercatorY,
  TILE_SIZE,
  tileView,
  toPixel,
  worldSize,
} from './projection.ts'
import { renderTile, staticScene } from './render.ts'
import { PALETTES } from './styles.ts'

const SEED = 'details'
const world = mapWorldFor(SEED)
const tileOf = (z: number, lat: number, lng: number) =>
  [Math.floor(mercatorX(lng) * 2 ** z), Math.floor(mercatorY(lat) * 2 ** z)] as const
const texts = (z: number, x: number, y: number, pois?: MapPoi[]) =>
  buildMapScene(world, tileView(z, x, y), 'streets', { pois }).shapes.filter(
    (s): s is TextShape => s.kind === 'text',
  )
/** A tile's POIs as the renderer loads them (the tile and its reach). */
const poisOf = (z: number, x: number, y: number) => {
  const pad = 1700 / TILE_SIZE
  return poisIn(SEED, [
    (x - pad) / 2 ** z,
    (y - pad) / 2 ** z,
    (x + 1 + pad) / 2 ** z,
    (y + 1 + pad) / 2 ** z,
  ])
}

beforeAll(() => loadBaseLevel(16))

describe('land use', () => {
  it('fills the built-up area at zoom 12 over Tunis and not over open country', async () => {
    const count = async (lat: number, lng: number) => {
      const [x, y] = tileOf(12, lat, lng)
      const png = decodePng(await renderTile(SEED, 12, x, y))
      let urban = 0
      for (let px = 4; px < 256; px += 8)
        for (let py = 4; py < 256; py += 8) {
          const [r, g, b] = png.pixel(px, py)
          const [ur, ug, ub] = PALETTES.streets.urban
          if (r === ur && g === ug && b === ub) urban++
        }
      return urban
    }
    // Tunis's Ville Nouvelle (a tile with the lake and Sebkha Séjoumi too), and the steppe
    // between Kairouan and Sbeitla.
    expect(await count(36.8, 10.18)).toBeGreaterThan(150)
    expect(await count(35.55, 9.5)).toBe(0)
  }, 60_000)

  it("draws Tunis-Carthage's runways on their real headings (OurAirports: 01/19 at 12°, 11/29 at 112°)", () => {
    const box = [mercatorX(10.2), mercatorY(36.88), mercatorX(10.26), mercatorY(36.83)] as const
    const runways = landUseIn(13, box).runways.filter((r) => r.airport === 'DTTA')
    const headings = runways.map((r) => {
      const [x0, y0, x1, y1] = r.points
      const [lat0, lat1] = [latitudeOf(y0), latitudeOf(y1)]
      const dx = (longitudeOf(x1) - longitudeOf(x0)) * Math.cos((lat0 * Math.PI) / 180)
      return ((Math.atan2(dx, lat1 - lat0) * 180) / Math.PI + 360) % 360
    })
    headings.sort((a, b) => a - b)
    expect(headings).toHaveLength(2)
    expect(Math.abs(headings[0]! - 12.3)).toBeLessThan(1)
    expect(Math.abs(headings[1]! - 112.5)).toBeLessThan(1)
    const [x, y] = tileOf(13, 36.851, 10.2272)
    const scene = buildMapScene(world, tileView(13, x, y))
    expect(scene.shapes.filter((s) => s.kind === 'line' && s.color === PALETTES.streets.runway)).toHaveLength(
      2,
    )
  })

  it('names the Parc du Belvédère and the Place de la Kasbah in French and Arabic', () => {
    const [bx, by] = tileOf(14, 36.8225, 10.17333)
    expect(texts(14, bx, by).map((t) => t.text)).toEqual(
      expect.arrayContaining(['Parc du Belvédère', 'منتزه البلفيدير']),
    )
    const [kx, ky] = tileOf(15, 36.79778, 10.1675)
    expect(texts(15, kx, ky).map((t) => t.text)).toEqual(
      expect.arrayContaining(['Place de la Kasbah', 'ساحة القصبة']),
    )
  })
})

describe('landmarks', () => {
  const bardo = LANDMARKS.find((l) => l.id === 'musee-national-du-bardo')!
  it('draws a landmark with its name at zoom 15 under its point, and not at zoom 13', () => {
    const [x, y] = tileOf(15, bardo.lat, bardo.lng)
    const scene = buildMapScene(world, tileView(15, x, y)).shapes
    const [px, py] = toPixel(tileView(15, x, y), bardo.lat, bardo.lng)
    const icon = scene.find(
      (s): s is CircleShape => s.kind === 'circle' && Math.hypot(s.x - px, s.y - py) < 0.01,
    )
    expect(icon).toBeDefined()
    const fr = scene.find((s): s is TextShape => s.kind === 'text' && s.text === bardo.name.fr)!
    const ar = scene.find((s): s is TextShape => s.kind === 'text' && s.text === bardo.name.ar)!
    expect(fr.x).toBeCloseTo(px, 6)
    expect(fr.y).toBeGreaterThan(py)
    expect(ar.y).toBeGreaterThan(fr.y)
    const [x13, y13] = tileOf(13, bardo.lat, bardo.lng)
    expect(texts(13, x13, y13).map((t) => t.text)).not.toContain(bardo.name.fr)
  })

  it.each([
    ['amphitheatre-d-el-jem', 14],
    ['borj-el-kebir', 14],
    ['mausolee-habib-bourguiba', 15],
    // 55 m from the Great Mosque: from zoom 16, where both names fit.
    ['ribat-de-sousse', 16],
    ['mosquee-zitouna', 15],
  ] as const)(
    'draws %s at zoom %i and closer, named in French and Arabic (at the town label too)',
    (id, zoom) => {
      const l = LANDMARKS.find((m) => m.id === id)!
      const names = (z: number) =>
        staticScene(
          SEED,
          parseStaticMap(new URLSearchParams(`center=${l.lat},${l.lng}&zoom=${z}&size=640x400`)),
        )
          .shapes.filter((s): s is TextShape => s.kind === 'text')
          .map((s) => s.text)
      for (const z of [zoom, 16])
        expect(names(z), `zoom ${z}`).toEqual(expect.arrayContaining([l.name.fr, l.name.ar]))
      expect(names(13)).not.toContain(l.name.fr)
    },
  )

  it("shows Byrsa (the Carthage museum) and the Punic ports on the docs' Carthage thumbnail", () => {
    const spec = parseStaticMap(
      new URLSearchParams(
        'center=36.8528,10.3261&zoom=15&size=800x500&style=streets&marker=36.8528,10.3261|red|H',
      ),
    )
    const names = staticScene(SEED, spec)
      .shapes.filter((s): s is TextShape => s.kind === 'text')
      .map((s) => s.text)
    expect(names).toEqual(
      expect.arrayContaining(['Musée national de Carthage', 'Ports puniques de Carthage']),
    )
  })
})

const line = (s: (typeof world.streets)[number]) => (s as { points?: ArrayLike<number> }).points ?? s.axis
const length = (p: ArrayLike<number>, size: number) => {
  let total = 0
  for (let i = 2; i < p.length; i += 2) total += Math.hypot(p[i]! - p[i - 2]!, p[i + 1]! - p[i - 1]!)
  return total * size
}

/** Points on the streets of Tunis (the middle of 30 of them). */
const tunisStreetPoints = world.streets
  .filter((s) => s.street.locality.name === 'Tunis')
  .slice(0, 30)
  .map((s) => [s.street.lat, s.street.lng] as const)

describe('labels at street zoom', () => {
  const overlapping = (placed: readonly PlacedDetail[], towns: ReadonlyArray<readonly number[]>) => {
    const pairs: string[] = []
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++)
        if (boxesOverlap(placed[i]!.box, placed[j]!.box)) pairs.push(`${placed[i]!.id} / ${placed[j]!.id}`)
      const [l, t, r, b] = boundsOf(placed[i]!.box)
      for (const town of towns)
        if (
          boxesOverlap(placed[i]!.box, {
            cx: (town[0]! + town[2]!) / 2,
            cy: (town[1]! + town[3]!) / 2,
            hw: (town[2]! - town[0]!) / 2,
            hh: (town[3]! - town[1]!) / 2,
            angle: 0,
          })
        )
          pairs.push(`${placed[i]!.id} / town [${[l, t, r, b].map(Math.round)}]`)
    }
    return pairs
  }

  it('places no two labels, icons or town names over each other in z16 tiles of central Tunis', () => {
    const kinds = new Map<string, number>()
    const points = [[36.7985, 10.17], [36.8005, 10.186], [36.8035, 10.18], ...tunisStreetPoints] as const
    for (const [lat, lng] of points) {
      const [x, y] = tileOf(16, lat, lng)
      const { placed } = detailsOf(world, tileView(16, x, y), 'streets', { pois: poisOf(16, x, y) })
      for (const p of placed) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1)
      expect(
        overlapping(
          placed,
          world.labelsAt(16).map((p) => p.box),
        ),
      ).toEqual([])
    }
    expect(kinds.get('street')).toBeGreaterThan(0)
    expect(kinds.get('poi')).toBeGreaterThan(0)
    expect(kinds.get('landmark')).toBeGreaterThan(0)
  })

  it('writes street names along their street, in French and (from 16) Arabic, turned with it', () => {
    const found = tunisStreetPoints
      .map(([lat, lng]) => {
        const [x, y] = tileOf(16, lat, lng)
        const view = tileView(16, x, y)
        const details = detailsOf(world, view)
        return {
          view,
          ...details,
          street: details.placed.find((p) => p.kind === 'street' && Math.abs(p.box.angle) > 0.2),
        }
      })
      .find((d) => d.street)
    expect(found).toBeDefined()
    const { view, shapes, street } = found!
    const drawn = shapes.filter(
      (s): s is TextShape =>
        s.kind === 'text' &&
        Math.hypot(s.x + view.left - street!.box.cx, s.y + view.top - street!.box.cy) < 20,
    )
    expect(drawn.map((t) => t.angle)).toEqual([street!.box.angle, street!.box.angle])
    expect(drawn.some((t) => /[\u0600-\u06ff]/.test(t.text))).toBe(true)
  })

  it('repeats the name of a long street at zoom 16 (or more, where no street is that long)', () => {
    const z = [16, 17, 18].find((z) => world.streets.some((s) => length(line(s), worldSize(z)) > 1500))!
    const size = worldSize(z)
    const long = world.streets.find((s) => length(line(s), size) > 1500)!
    expect(long).toBeDefined()
    const ids = new Set<string>()
    const tiles = new Set<string>()
    const p = line(long)
    for (let i = 2; i < p.length; i += 2)
      for (let t = 0; t <= 1; t += 0.05) {
        const [x, y] = [p[i - 2]! + (p[i]! - p[i - 2]!) * t, p[i - 1]! + (p[i + 1]! - p[i - 1]!) * t]
        tiles.add(`${Math.floor((x * size) / 256)} ${Math.floor((y * size) / 256)}`)
      }
    for (const tile of tiles) {
      const [x, y] = tile.split(' ').map(Number) as [number, number]
      for (const d of detailsOf(world, tileView(z, x, y)).placed)
        if (d.kind === 'street' && d.id.startsWith(`${long.street.id}#`)) ids.add(d.id)
    }
    expect(ids.size).toBeGreaterThanOrEqual(2)
  })

  it('places a label that crosses a tile edge the same on both tiles', () => {
    let crossings = 0
    for (const [lat, lng] of [
      [36.7985, 10.17],
      [36.8005, 10.186],
      [35.828, 10.638],
    ] as const) {
      const [x, y] = tileOf(16, lat, lng)
      const left = detailsOf(world, tileView(16, x, y), 'streets', { pois: poisOf(16, x, y) }).placed
      const right = detailsOf(world, tileView(16, x + 1, y), 'streets', { pois: poisOf(16, x + 1, y) }).placed
      const edge = (x + 1) * 256
      for (const p of left) {
        const [l, t, r, b] = boundsOf(p.box)
        if (l < edge && r > edge && b > y * 256 && t < (y + 1) * 256) {
          crossings++
          expect(right.find((q) => q.id === p.id)?.box).toEqual(p.box)
        }
      }
      for (const q of right) {
        const [l, t, r, b] = boundsOf(q.box)
        if (l < edge && r > edge && b > y * 256 && t < (y + 1) * 256)
          expect(left.some((p) => p.id === q.id)).toBe(true)
      }
    }
    expect(crossings).toBeGreaterThan(0)
  })

  it('draws no POI icon on water, in 400 random tiles along the coasts at zooms 16-17', () => {
    const random = seededRandom('poi-water', 'tiles')
    const towns = [
      [36.8, 10.19],
      [36.878, 10.325],
      [36.82, 10.305],
      [35.828, 10.64],
      [34.735, 10.765],
      [33.875, 10.858],
      [37.275, 9.87],
      [35.77, 10.83],
    ] as const
    let icons = 0
    for (let i = 0; i < 400; i++) {
      const [lat, lng] = towns[random.int(0, towns.length - 1)]!
      const z = random.int(16, 17)
      const [x, y] = tileOf(z, lat + random.float(-0.02, 0.02), lng + random.float(-0.025, 0.025))
      const view = tileView(z, x, y)
      const size = worldSize(z)
      const pois = poisIn(SEED, [x / 2 ** z, y / 2 ** z, (x + 1) / 2 ** z, (y + 1) / 2 ** z])
      const { placed } = detailsOf(world, view, 'streets', { pois })
      for (const p of placed) {
        if (p.kind !== 'poi') continue
        icons++
        const [lat2, lng2] = [latitudeOf(p.box.cy / size), longitudeOf(p.box.cx / size)]
        expect(onLand(lat2, lng2), `${p.id} at ${lat2},${lng2}`).toBe(true)
      }
    }
    expect(icons).toBeGreaterThan(100)
  }, 180_000)
})
