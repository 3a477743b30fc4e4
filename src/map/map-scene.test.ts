import { beforeAll, describe, expect, it } from 'vitest'
import { decodePng, near } from '../../test/support/png.ts'
import { generateStreets, houseDoor } from '../data/streets.ts'
import { geocoderFor } from '../endpoints/geocoding/geocoder.ts'
import type { TextShape } from '../rasterizer/scene.ts'
import { loadBaseLevel } from './basemap.ts'
import { buildMapScene } from './map-scene.ts'
import { mapWorldFor } from './map-world.ts'
import { mercatorX, mercatorY, TILE_SIZE, tileView, toPixel } from './projection.ts'
import { renderTile } from './render.ts'
import { PALETTES } from './styles.ts'

const world = mapWorldFor('scene')
const texts = (z: number, x: number, y: number) =>
  buildMapScene(world, tileView(z, x, y)).shapes.filter((s): s is TextShape => s.kind === 'text')
const tileOf = (z: number, lat: number, lng: number) =>
  [Math.floor(mercatorX(lng) * 2 ** z), Math.floor(mercatorY(lat) * 2 ** z)] as const

describe('buildMapScene', () => {
  beforeAll(() => loadBaseLevel(8))
  it('names Tunis in French and Arabic at zoom 8, and no street there', () => {
    const [x, y] = tileOf(8, 36.8, 10.18)
    const scene = buildMapScene(world, tileView(8, x, y))
    const labels = scene.shapes.filter((s): s is TextShape => s.kind === 'text').map((s) => s.text)
    expect(labels).toEqual(expect.arrayContaining(['Tunis', 'تونس']))
    expect(scene.shapes.some((s) => s.role === 'street')).toBe(false)
    expect(scene.shapes.some((s) => s.role === 'road')).toBe(true)
  })

  it('draws a label that crosses a tile edge on both tiles, at the same place on the map', () => {
    for (const z of [7, 8, 9, 10]) {
      const crossing = world.labelsAt(z).find((p) => {
        const edge = Math.floor(p.box[2] / TILE_SIZE) * TILE_SIZE
        return p.box[0] < edge && p.label.kind === 'town' && mercatorY(37.5) * 2 ** z * TILE_SIZE < p.y
      })
      if (!crossing) continue
      const tx = Math.floor(crossing.box[0] / TILE_SIZE)
      const ty = Math.floor(crossing.y / TILE_SIZE)
      const [left, right] = [texts(z, tx, ty), texts(z, tx + 1, ty)]
      const find = (list: TextShape[], dx: number) => list.find((t) => t.text === crossing.label.fr)!.x + dx
      expect(find(left, tx * TILE_SIZE)).toBeCloseTo(find(right, (tx + 1) * TILE_SIZE), 6)
      return
    }
    throw new Error('no label crosses a tile edge at zooms 7-10')
  })

  it('places labels the same whatever tile asks first (placement is per zoom, not per tile)', () => {
    const fresh = mapWorldFor('scene-2')
    const [x, y] = tileOf(9, 35.8, 10.6)
    const a = buildMapScene(fresh, tileView(9, x, y)).shapes
    const b = buildMapScene(world, tileView(9, x, y)).shapes
    expect(a.filter((s) => s.kind === 'text')).toEqual(b.filter((s) => s.kind === 'text'))
  })

  it("draws the seed's streets where the geocoder puts them", async () => {
    const street = generateStreets('scene').find(
      (s) => s.locality.name === 'Sfax' && s.fr === 'Avenue Habib Bourguiba',
    )!
    const found = geocoderFor('scene').forward({
      q: 'Avenue Habib Bourguiba, Sfax',
      limit: 1,
      lang: 'fr',
    })[0]!
    expect([found.lat, found.lng]).toEqual([street.lat, street.lng])
    // Points along its course (between two doors facing each other): street-coloured, but where
    // its name is written along it.
    const onStreet: number[] = []
    for (const t of [0.15, 0.3, 0.45, 0.6, 0.75]) {
      const n = Math.max(2, Math.round((t * street.maxNumber) / 2) * 2)
      const [left, right] = [houseDoor(street, n), houseDoor(street, n + 1)]
      const point = { lat: (left.lat + right.lat) / 2, lng: (left.lng + right.lng) / 2 }
      const [x, y] = tileOf(16, point.lat, point.lng)
      const png = decodePng(await renderTile('scene', 16, x, y))
      if (near(png.pixel(...toPixel(tileView(16, x, y), point.lat, point.lng)), PALETTES.streets.street))
        onStreet.push(t)
    }
    expect(onStreet.length).toBeGreaterThanOrEqual(3)
  })

  it('shows motorways from zoom 5, national roads from 6 and regional roads from 7', () => {
    const [x4, y4] = tileOf(4, 36, 10)
    expect(buildMapScene(world, tileView(4, x4, y4)).shapes.some((s) => s.role === 'road')).toBe(false)
    const [x7, y7] = tileOf(7, 36, 10)
    const roads = buildMapScene(world, tileView(7, x7, y7)).shapes.filter((s) => s.role === 'road')
    const widths = new Set(roads.map((r) => (r.kind === 'line' ? r.width.toFixed(2) : '')))
    expect(widths.size).toBe(3)
  })

  it("draws the medina's real lanes (Rue Jemaa Zitouna, Rue de la Kasbah) as narrow as its lanes, not as avenues", async () => {
    await loadBaseLevel(17)
    const tunis = generateStreets('scene').filter((s) => s.locality.name === 'Tunis')
    /** A street's line width (its fill: the narrower of its two passes) in the z17 tile at its start. */
    const widthOf = (fr: string) => {
      const street = tunis.find((s) => s.fr === fr)!
      const view = tileView(17, ...tileOf(17, street.points[0]!, street.points[1]!))
      // Its line: the one through every vertex of its course (streets share their ends).
      const vertices = Array.from({ length: street.points.length / 2 }, (_, k) =>
        toPixel(view, street.points[k * 2]!, street.points[k * 2 + 1]!),
      )
      const widths: number[] = []
      for (const shape of buildMapScene(world, view).shapes) {
        if (shape.kind !== 'line' || shape.role !== 'street') continue
        const points = Array.from(shape.points)
        const through = ([x, y]: readonly number[]) =>
          points.some((px, i) => i % 2 === 0 && Math.hypot(px - x!, points[i + 1]! - y!) < 0.01)
        if (vertices.every(through)) widths.push(shape.width)
      }
      return Math.min(...widths)
    }
    const lane = widthOf(tunis.find((s) => s.kind === 'medina' && s.points.length >= 6)!.fr)
    expect(widthOf('Rue Jemaa Zitouna')).toBeCloseTo(lane, 6)
    expect(widthOf('Rue de la Kasbah')).toBeCloseTo(lane, 6)
    // The Ville Nouvelle's avenue from Bab Bhar stays an avenue.
    expect(widthOf('Avenue de France')).toBeGreaterThan(lane * 2.5)
  })
})
