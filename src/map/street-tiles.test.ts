import { describe, expect, it } from 'vitest'
import { decodePng, near } from '../../test/support/png.ts'
import { worldFor } from '../data/world.ts'
import { mercatorX, mercatorY, TILE_SIZE, worldSize } from './projection.ts'
import { renderTile } from './render.ts'
import { PALETTES } from './styles.ts'

const SEED = 'street-tiles'
const { street: FILL } = PALETTES.streets

/**
 * Where a street's course crosses a vertical tile edge at a zoom: the tile column left of the edge,
 * the tile row, and the crossing's y in that tile's pixels (a crossing well inside the tile's height).
 */
function crossing(points: Float64Array, zoom: number) {
  const size = worldSize(zoom)
  for (let i = 2; i < points.length; i += 2) {
    const [x0, y0] = [mercatorX(points[i - 1]!) * size, mercatorY(points[i - 2]!) * size]
    const [x1, y1] = [mercatorX(points[i + 1]!) * size, mercatorY(points[i]!) * size]
    const edge = Math.ceil(Math.min(x0, x1) / TILE_SIZE) * TILE_SIZE
    if (edge >= Math.max(x0, x1) || edge <= Math.min(x0, x1)) continue
    // Steep enough across the edge to be seen on it, not along it.
    if (Math.abs(x1 - x0) < Math.abs(y1 - y0) * 0.5) continue
    const y = y0 + ((y1 - y0) * (edge - x0)) / (x1 - x0)
    const inTile = y - Math.floor(y / TILE_SIZE) * TILE_SIZE
    if (inTile < 8 || inTile > TILE_SIZE - 8) continue
    return { column: edge / TILE_SIZE - 1, row: Math.floor(y / TILE_SIZE), y: inTile }
  }
  return undefined
}

describe('streets across tile edges', () => {
  const streets = worldFor(SEED).streetsOf('gn:2464470')
  const bourguiba = streets.find((s) => s.fr === 'Avenue Habib Bourguiba')!
  const others = streets.filter((s) => s.kind === 'grid' || s.kind === 'suburb').slice(0, 40)

  it.each([15, 16, 17])(
    'draws a street at zoom %i on both tiles of an edge it crosses, meeting there',
    async (zoom) => {
      const candidates = [bourguiba, ...others]
      let checked = 0
      for (const street of candidates) {
        const at = crossing(street.points, zoom)
        if (!at) continue
        const left = decodePng(await renderTile(SEED, zoom, at.column, at.row))
        const right = decodePng(await renderTile(SEED, zoom, at.column + 1, at.row))
        // Along the shared edge, around the crossing: the last column of the left tile and the first
        // of the right one show the street's fill at the same rows. A crossing its name is written
        // over (grey text on both tiles, the whole street's width) is not this test's: the next one is.
        const rows = [-1, 0, 1].map((d) => Math.round(at.y) + d)
        const text = (p: ArrayLike<number>) => p[0]! < 190 && p[1]! < 190 && p[2]! < 190
        const written = [-4, -2, 0, 2, 4].some(
          (d) =>
            text(left.pixel(TILE_SIZE - 1, Math.round(at.y) + d)) ||
            text(right.pixel(0, Math.round(at.y) + d)),
        )
        if (written) continue
        const onLeft = rows.filter((y) => near(left.pixel(TILE_SIZE - 1, y), FILL))
        const onRight = rows.filter((y) => near(right.pixel(0, y), FILL))
        // The same row shows the fill on both sides of the edge: the street goes on across it.
        expect(
          onLeft.filter((y) => onRight.includes(y)).length,
          `${street.fr} z${zoom} ${onLeft} | ${onRight}`,
        ).toBeGreaterThan(0)
        if (++checked >= 3) break
      }
      expect(checked).toBe(3)
    },
    120_000,
  )
})
