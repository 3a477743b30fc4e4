import { PNG } from 'pngjs'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOCALITIES } from '../data/gazetteer.ts'
import coast from '../data/gshhg-coast.json' with { type: 'json' }
import { landRings, onLand, surfaceAt } from '../data/land.ts'
import { LANDMARKS } from '../data/landmarks.ts'
import { poiTowns, townPlaces } from '../data/pois.ts'
import { sharedRoads } from '../data/roads.ts'
import { seededRandom } from '../data/seeded.ts'
import { houseDoor } from '../data/streets.ts'
import { worldFor } from '../data/world.ts'
import { rasterize } from '../rasterizer/draw.ts'
import type { Rgba } from '../rasterizer/raster.ts'
import { loadBaseLevel } from './basemap.ts'
import { buildMapScene } from './map-scene.ts'
import { mapWorldFor } from './map-world.ts'
import {
  latitudeOf,
  longitudeOf,
  mercatorX,
  mercatorY,
  TILE_SIZE,
  tileView,
  worldSize,
} from './projection.ts'
import { renderTile } from './render.ts'
import { PALETTES } from './styles.ts'

type Surface = 'land' | 'salt' | 'water'
const { land, sea, salt } = PALETTES.streets
/**
 * The surface a pixel shows: the nearest colour, where an antialiased edge (a blend of two of them)
 * counts as the one that covers most of the pixel.
 */
const nearest = (rgb: ArrayLike<number>): Surface => {
  const colours: Array<[Surface, Rgba]> = [
    ['land', land],
    ['water', sea],
    ['salt', salt],
  ]
  let best: [Surface, number] = ['land', Number.POSITIVE_INFINITY]
  for (const [i, j] of [
    [0, 1],
    [0, 2],
    [1, 2],
  ] as const) {
    const [[sa, a], [sb, b]] = [colours[i]!, colours[j]!]
    const ab = [0, 1, 2].map((k) => b[k]! - a[k]!)
    const ap = [0, 1, 2].map((k) => rgb[k]! - a[k]!)
    const t = Math.max(
      0,
      Math.min(
        1,
        (ab[0]! * ap[0]! + ab[1]! * ap[1]! + ab[2]! * ap[2]!) / (ab[0]! ** 2 + ab[1]! ** 2 + ab[2]! ** 2),
      ),
    )
    const d = [0, 1, 2].reduce((sum, k) => sum + (ap[k]! - t * ab[k]!) ** 2, 0)
    if (d < best[1]) best = [t < 0.5 ? sa : sb, d]
  }
  return best[0]
}

const tileOf = (z: number, lat: number, lng: number) => {
  const size = worldSize(z)
  const [px, py] = [mercatorX(lng) * size, mercatorY(lat) * size]
  const [x, y] = [Math.floor(px / TILE_SIZE), Math.floor(py / TILE_SIZE)]
  return { x, y, px: Math.floor(px - x * TILE_SIZE), py: Math.floor(py - y * TILE_SIZE) }
}

/** The mask at the centre of the pixel a point falls in at a zoom (what that pixel stands for). */
const maskAt = (z: number, lat: number, lng: number): Surface => {
  const size = worldSize(z)
  const [px, py] = [Math.floor(mercatorX(lng) * size) + 0.5, Math.floor(mercatorY(lat) * size) + 0.5]
  return surfaceAt(latitudeOf(py / size), longitudeOf(px / size))
}

/** What a tile's base layers (land, water, salt flats: no road or label over them) show at a point. */
const baseTiles = new Map<string, Uint8Array>()
function drawnAt(z: number, lat: number, lng: number): Surface {
  const { x, y, px, py } = tileOf(z, lat, lng)
  const key = `${z}/${x}/${y}`
  let pixels = baseTiles.get(key)
  if (!pixels) {
    const world = mapWorldFor('land')
    const scene = buildMapScene(world, tileView(z, x, y))
    scene.shapes = scene.shapes.filter((s) => s.role === 'land' || s.role === 'water' || s.role === 'salt')
    pixels = rasterize(scene, world.font).pixels
    baseTiles.set(key, pixels)
  }
  const i = (py * TILE_SIZE + px) * 3
  return nearest(pixels.subarray(i, i + 3))
}

/** The colour most of a 5 x 5 block of a rendered tile's PNG shows around a point. */
async function renderedAt(z: number, lat: number, lng: number): Promise<Surface> {
  const { x, y, px, py } = tileOf(z, lat, lng)
  const png = PNG.sync.read(Buffer.from(await renderTile('land', z, x, y)))
  const votes = new Map<Surface, number>()
  for (let dy = -2; dy <= 2; dy++)
    for (let dx = -2; dx <= 2; dx++) {
      const i = ((py + dy) * png.width + px + dx) * 4
      const s = nearest(png.data.subarray(i, i + 3))
      votes.set(s, (votes.get(s) ?? 0) + 1)
    }
  return [...votes].sort((a, b) => b[1] - a[1])[0]![0]
}

/** Tunisia's territory, lakes and salt flats included: inside an outer ring of its land. */
const outers = landRings().land.filter((ring) => {
  let a = 0
  for (let i = 0; i < ring.length; i += 2) {
    const j = (i + 2) % ring.length
    a += ring[i]! * ring[j + 1]! - ring[j]! * ring[i + 1]!
  }
  return a > 0
})
const inTerritory = (lat: number, lng: number) =>
  outers.some((ring) => {
    let odd = false
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!]
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) odd = !odd
    }
    return odd
  })

/** Twice a flat ring's signed area in square degrees (positive: counter-clockwise, an outer ring). */
const signedArea = (ring: ArrayLike<number>) => {
  let a = 0
  for (let i = 0; i < ring.length; i += 2) {
    const j = (i + 2) % ring.length
    a += ring[i]! * ring[j + 1]! - ring[j]! * ring[i + 1]!
  }
  return a
}
const km2Of = (ring: ArrayLike<number>) =>
  (Math.abs(signedArea(ring)) / 2) * 111.32 ** 2 * Math.cos((ring[1]! * Math.PI) / 180)
const inFlatRing = (ring: ArrayLike<number>, lat: number, lng: number) => {
  let odd = false
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const [xi, yi, xj, yj] = [ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!]
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) odd = !odd
  }
  return odd
}

/**
 * 400 points: 200 anywhere on Tunisia's territory or at sea off its coast, 200 within 2 km of
 * its coast, lakes and salt flats (where a wrong coast shows).
 */
function samplePoints(): Array<[number, number]> {
  const random = seededRandom('land-test', 'points')
  const points: Array<[number, number]> = []
  while (points.length < 200) {
    const [lat, lng] = [random.float(30.2, 37.6), random.float(7.5, 11.7)]
    // At sea north of the Libyan border's coast, or on Tunisian ground: never in Algeria or Libya.
    if (inTerritory(lat, lng) || (lng > 9 && lat > 33.2)) points.push([lat, lng])
  }
  const rings = [...landRings().land, ...landRings().salt, ...landRings().water]
  while (points.length < 400) {
    const ring = rings[random.int(0, rings.length - 1)]!
    const i = random.int(0, ring.length / 2 - 1) * 2
    const km = random.float(-2, 2)
    const [lat, lng] = [
      ring[i + 1]! + random.float(-1, 1) * (km / 111),
      ring[i]! + (km / 90) * random.float(-1, 1),
    ]
    if (inTerritory(lat, lng) || (lng > 9 && lat > 33.2)) points.push([lat, lng])
  }
  return points
}

describe('the land the map draws', () => {
  beforeAll(async () => {
    // Zoom 10+ also loads the street-zoom layers (land use, labels).
    await loadBaseLevel(13)
  })

  it.each([10, 13])('agrees with the OpenStreetMap-derived land mask at 400 points (z%i)', (z) => {
    const points = samplePoints()
    const wrong = points.filter(([lat, lng]) => drawnAt(z, lat, lng) !== maskAt(z, lat, lng))
    expect(wrong.length / points.length, JSON.stringify(wrong.slice(0, 10))).toBeLessThanOrEqual(0.02)
  })

  it.each([
    ['Lake Tunis (north)', 36.826, 10.25, 'water'],
    ['Lake Tunis (south)', 36.789, 10.245, 'water'],
    ['Lake Bizerte', 37.19, 9.86, 'water'],
    ['Ichkeul', 37.16, 9.67, 'water'],
    // 1 km north of their published points, where their names are written (src/map/labels.ts).
    ['Sebkhet Ariana', 36.92, 10.22, 'salt'],
    ['Sebkhet Kelbia', 35.85, 10.27, 'salt'],
    ['Chott el Djerid', 33.75, 8.4, 'salt'],
    ['Chott el Fejej', 33.92, 9.2, 'salt'],
    ['Tunis centre', 36.8, 10.18, 'land'],
    ['Djerba', 33.8, 10.88, 'land'],
  ] as const)('draws %s as %s on a rendered tile (z12)', async (_, lat, lng, kind) => {
    expect(await renderedAt(12, lat, lng)).toBe(kind)
    expect(surfaceAt(lat, lng)).toBe(kind)
  })

  it.each([
    ['Chott el Djerid', 33.75, 8.4, 'salt', [5, 6, 7]],
    ['Chott el Fejej', 33.92, 9.2, 'salt', [6, 7]],
    ['Sebkhet Kelbia', 35.84, 10.27, 'salt', [6, 7]],
    ['Lake Bizerte', 37.19, 9.86, 'water', [5, 6, 7]],
    ['Ichkeul', 37.16, 9.67, 'water', [6, 7]],
    ['Lake Tunis (north)', 36.826, 10.25, 'water', [7]],
  ] as const)(
    'draws %s as %s below zoom 8 too (z%j), as on any map of the country',
    (_, lat, lng, kind, zooms) => {
      for (const z of zooms) expect(drawnAt(z, lat, lng), `z${z}`).toBe(kind)
    },
  )

  // Known by their published centre and area only (no outline on this project's machines): the
  // ellipses that stand in for them keep their ground clear, and are not drawn as if they were theirs.
  it.each([
    ['Sebkha Séjoumi', 36.764, 10.147],
    ['Chott el Gharsa', 34.12, 7.87],
  ] as const)(
    'does not draw %s, known only by its centre and area, but keeps its ground clear',
    async (name, lat, lng) => {
      expect(surfaceAt(lat, lng), name).toBe('salt')
      expect(onLand(lat, lng), name).toBe(false)
      expect(await renderedAt(12, lat, lng), name).toBe('land')
      for (const z of [6, 7, 9]) expect(drawnAt(z, lat, lng), `${name} z${z}`).toBe('land')
    },
  )

  // GSHHG's level-2 lakes (scripts/build-land.ts, `GSHHG_LAKES`) where OpenStreetMap's copy had
  // straight edges of up to ~5 km and a rectangular notch (Ichkeul: 21 points, 85 km²) or loose
  // triangles (the Mellègue reservoir).
  it.each([
    ['Lac Ichkeul', 37.1667, 9.6664],
    ['the Mellègue reservoir', 36.305, 8.7],
  ] as const)(
    "draws %s with GSHHG's outline: its area within 2 percent, its shore within 25 m of GSHHG's",
    (name, lat, lng) => {
      const gshhg = (coast.lakes as number[][][])
        .map((ring) => ring.flat())
        .find((r) => inFlatRing(r, lat, lng))
      const holes = landRings().land.filter((r) => signedArea(r) < 0 && inFlatRing(r, lat, lng))
      expect(gshhg, name).toBeDefined()
      expect(holes, name).toHaveLength(1)
      const [hole] = holes as [Float64Array]
      expect(surfaceAt(lat, lng)).toBe('water')
      expect(km2Of(hole) / km2Of(gshhg!)).toBeGreaterThan(0.98)
      expect(km2Of(hole) / km2Of(gshhg!)).toBeLessThan(1.02)
      /** The greatest distance in metres from a vertex of `a` to the nearest edge of `b`. */
      const farthestM = (a: ArrayLike<number>, b: ArrayLike<number>) => {
        const kx = 111_320 * Math.cos((lat * Math.PI) / 180)
        let worst = 0
        for (let i = 0; i < a.length; i += 2) {
          let best = Number.POSITIVE_INFINITY
          for (let j = 0; j < b.length; j += 2) {
            const k = (j + 2) % b.length
            const [ax, ay] = [(b[j]! - a[i]!) * kx, (b[j + 1]! - a[i + 1]!) * 110_540]
            const [dx, dy] = [(b[k]! - b[j]!) * kx, (b[k + 1]! - b[j + 1]!) * 110_540]
            const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)))
            best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy))
          }
          worst = Math.max(worst, best)
        }
        return worst
      }
      // Its shore is GSHHG's, both ways, within the file's rounding (OpenStreetMap's Ichkeul was up
      // to ~1.5 km off it, its notch included).
      expect(farthestM(hole, gshhg!)).toBeLessThan(25)
      expect(farthestM(gshhg!, hole)).toBeLessThan(25)
    },
  )

  it("leaves no water of OpenStreetMap's coarser Ichkeul beyond GSHHG's shore", () => {
    // Its west corner and the rectangular notch in its north shore were water.
    expect(surfaceAt(37.16, 9.568)).toBe('land')
    expect(surfaceAt(37.19, 9.675)).toBe('land')
  })

  // GSHHG's full-resolution coast here is traced on a 3″ grid, every edge east-west, north-south or
  // diagonal: drawn as it was, a coast at any other angle was a staircase at z12-z14 (scripts/build-land.ts,
  // `unstep`). Measured on the land's outer rings in the 3 x 3 tiles of zoom 13 around each town.
  it.each([
    ['Houmt Souk', 33.875, 10.857],
    ['Hammamet', 36.4, 10.61],
    ['Sousse', 35.83, 10.64],
    ['Sfax', 34.73, 10.77],
    ['Bizerte', 37.27, 9.87],
    ['Monastir', 35.77, 10.83],
    ['Mahdia', 35.5, 11.07],
    ['Tabarka', 36.96, 8.76],
  ] as const)('draws the coast around %s at z13 with no staircase of grid-aligned edges', (_, lat, lng) => {
    const { x, y } = tileOf(13, lat, lng)
    const size = worldSize(13)
    const [w, e] = [longitudeOf(((x - 1) * TILE_SIZE) / size), longitudeOf(((x + 2) * TILE_SIZE) / size)]
    const [n, s] = [latitudeOf(((y - 1) * TILE_SIZE) / size), latitudeOf(((y + 2) * TILE_SIZE) / size)]
    let [edges, axisAligned, longestRun] = [0, 0, 0]
    for (const ring of outers) {
      let run = 0
      for (let i = 0; i < ring.length; i += 2) {
        const j = (i + 2) % ring.length
        const [x0, y0] = [ring[i]!, ring[i + 1]!]
        const [dx, dy] = [Math.abs(ring[j]! - x0), Math.abs(ring[j + 1]! - y0)]
        if (x0 < w || x0 > e || y0 < s || y0 > n || dx + dy === 0) {
          run = 0
          continue
        }
        edges++
        const axis = dx === 0 || dy === 0
        if (axis) axisAligned++
        // East-west, north-south, or diagonal in degrees: the directions of a 3″ grid's trace.
        run = axis || Math.abs(dx - dy) <= 0.1 * Math.max(dx, dy) ? run + 1 : 0
        longestRun = Math.max(longestRun, run)
      }
    }
    expect(edges).toBeGreaterThan(15)
    // Before: runs of 5-17 such edges, 30-45% of the edges axis-aligned.
    expect(longestRun).toBeLessThan(3)
    expect(axisAligned / edges).toBeLessThan(0.1)
  })

  it('draws the Tunis-La Goulette causeway between the two lakes of Tunis (z14), the south lake up to it', async () => {
    // Along the TGM (src/data/tgm.ts), which it carries beside the road: at 10.23 E the line is at 36.8058 N.
    expect(await renderedAt(14, 36.8056, 10.23)).toBe('land')
    expect(await renderedAt(14, 36.802, 10.23)).toBe('water')
    expect(await renderedAt(14, 36.81, 10.23)).toBe('water')
    // No strip of land between the south lake and the causeway (places stood in the lake there).
    for (const lng of [10.21, 10.2165, 10.24, 10.26, 10.27])
      for (let south = 120; south <= 500; south += 40) {
        const lat = 36.80066 + ((lng - 10.19192) / 0.1005) * 0.01354 - south / 110_540
        expect(surfaceAt(lat, lng), `${lat.toFixed(5)}, ${lng}`).toBe('water')
      }
  })

  it('stands the port of Radès on land between the south lake and the sea, the Radès - La Goulette road on it', () => {
    // East of where GSHHG's navigation channel meets the lake (10.273 E), south of the channel.
    for (const [lat, lng] of [
      [36.8, 10.278],
      [36.795, 10.275],
      [36.79, 10.28],
      [36.806, 10.285],
    ] as const)
      expect(surfaceAt(lat, lng), `${lat}, ${lng}`).toBe('land')
    // The sea stays east of GSHHG's coast, the lake west of the port.
    expect(surfaceAt(36.795, 10.29)).toBe('water')
    expect(surfaceAt(36.795, 10.26)).toBe('water')
    // The road runs on that land to the bridge over the channel (its one crossing, ~400 m).
    const road = sharedRoads().find((r) => r.name === 'Pont Radès - La Goulette')!
    let wet = 0
    for (let i = 2; i < road.points.length; i += 2) {
      const [a, b] = [road.points.slice(i - 2, i), road.points.slice(i, i + 2)]
      const n = 200
      for (let k = 0; k < n; k++) {
        const [lat, lng] = [a[0]! + ((b[0]! - a[0]!) * k) / n, a[1]! + ((b[1]! - a[1]!) * k) / n]
        if (surfaceAt(lat, lng) === 'water')
          wet += Math.hypot((b[0]! - a[0]!) * 110.54, (b[1]! - a[1]!) * 89.2) / n
      }
    }
    expect(wet).toBeLessThan(0.5)
  })

  // GSHHG's full-resolution coast (scripts/build-coast.ts, ~120 m edges) where OpenStreetMap's
  // simplified one had ~0.9 km edges.
  it("draws the coastal cities' waterfronts from the finer coast: Sousse's Medina, Bizerte's canal, the Ajim strait", () => {
    /** Metres of water along a line, in runs (sampled every ~10 m). */
    const waterRuns = (a: [number, number], b: [number, number]) => {
      const km = Math.hypot((b[0] - a[0]) * 110.54, (b[1] - a[1]) * 111.32 * Math.cos((a[0] * Math.PI) / 180))
      const n = Math.ceil(km * 100)
      const runs: number[] = []
      let run = 0
      for (let i = 0; i <= n; i++) {
        const wet = surfaceAt(a[0] + ((b[0] - a[0]) * i) / n, a[1] + ((b[1] - a[1]) * i) / n) === 'water'
        if (wet) run += (km * 1000) / n
        else if (run > 0) {
          runs.push(run)
          run = 0
        }
      }
      if (run > 0) runs.push(run)
      return runs
    }
    // The Great Mosque of Sousse (src/data/landmarks.ts) stood in a rectangular "harbour".
    expect(surfaceAt(35.826667, 10.639722)).toBe('land')
    // Bizerte's canal is ~100-250 m wide where it passes the town (it was drawn ~700 m wide).
    const canal = waterRuns([37.29, 9.865], [37.255, 9.875])
    expect(canal).toHaveLength(1)
    expect(canal[0]).toBeGreaterThan(80)
    expect(canal[0]).toBeLessThan(300)
    // The strait between Djerba (Ajim) and the mainland (Jorf), ~2.5 km: water, not a pixel's width.
    const strait = waterRuns([33.7, 10.7], [33.75, 10.78])
    expect(Math.max(...strait)).toBeGreaterThan(1500)
    // Every real landmark the map draws stands on land.
    for (const l of LANDMARKS) expect(surfaceAt(l.lat, l.lng), l.id).toBe('land')
  })

  it('has no round islets of land at sea around coastal towns (no land discs)', () => {
    // A disc of 0.9-3 km around every town used to cover the sea off coastal towns.
    const coastal = LOCALITIES.filter((l) => inTerritory(l.lat, l.lng))
    let checked = 0
    for (const town of coastal) {
      const r = Math.min(3, 0.9 + Math.sqrt(town.pop ?? 0) / 300) * 0.7
      for (let k = 0; k < 12; k++) {
        const a = (k / 12) * Math.PI * 2
        const lat = town.lat + (Math.sin(a) * r) / 111.32
        const lng = town.lng + (Math.cos(a) * r) / (111.32 * Math.cos((town.lat * Math.PI) / 180))
        // The sea and the northern lakes: where the mask's 'water' is not Algeria or Libya.
        const seaSide = (lat > 33.2 && lng > 9) || (lat > 36.85 && lng > 8.65)
        if (maskAt(13, lat, lng) !== 'water' || !seaSide) continue
        checked++
        expect(drawnAt(13, lat, lng), `${town.name} ${lat},${lng}`).toBe('water')
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('puts the 100 places nearest Tunis centre, and places countrywide, on the land it draws', () => {
    const world = worldFor('land')
    const centre = { lat: 36.81, lng: 10.2 }
    const near = poiTowns()
      .filter((t) => Math.hypot(t.lat - centre.lat, t.lng - centre.lng) < 0.2)
      .flatMap((t) => townPlaces(world, t))
      .sort(
        (a, b) =>
          Math.hypot(a.lat - centre.lat, a.lng - centre.lng) -
          Math.hypot(b.lat - centre.lat, b.lng - centre.lng),
      )
      .slice(0, 100)
    const random = seededRandom('land-test', 'places')
    const countrywide = random
      .pick(poiTowns(), 60)
      .flatMap((t) => random.pick(townPlaces(world, t), Math.min(5, townPlaces(world, t).length)))
    expect(near).toHaveLength(100)
    for (const p of [...near, ...countrywide]) {
      expect(onLand(p.lat, p.lng), `${p.name.fr} ${p.lat},${p.lng}`).toBe(true)
      expect(drawnAt(14, p.lat, p.lng), `${p.name.fr} ${p.lat},${p.lng}`).toBe('land')
    }
  })

  it('puts every generated street and its doors on land', () => {
    for (const street of worldFor('land').streets) {
      for (const n of [1, 2, Math.round(street.maxNumber / 2), street.maxNumber - 1, street.maxNumber]) {
        const door = houseDoor(street, n)
        expect(onLand(door.lat, door.lng), `${street.fr} (${street.locality.name}) ${n}`).toBe(true)
      }
    }
  })
})
