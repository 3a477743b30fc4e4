import type { EndpointContext } from '../endpoint.ts'
import { NotFoundError, ParamError } from '../params.ts'

/** Tiles exist from zoom 0 to 18, as documented. */
export const MAX_TILE_ZOOM = 18
const SEGMENT = /^\d{1,9}$/
/** A retina tile's last segment, as Leaflet's `{r}` makes it (`25@2x`). */
const RETINA = /^\d{1,9}@\d+(\.\d+)?x$/
const NO_RETINA = 'TMaps has no @2x tiles: ask for 256 px tiles, zoom 0 to 18'

/**
 * `GET https://tiles.tmaps.tn/r-tile/{z}/{x}/{y}`: a 256 x 256 PNG of the XYZ (Web Mercator)
 * grid. A segment that is not a whole number answers 400 `invalid param: z` (x, y); a tile
 * that does not exist (zoom above 18, x or y outside the grid) answers 404, as a tile server does,
 * and so does a retina one (`25@2x`: `not found (TMaps has no @2x tiles ...)`).
 * The renderer loads on the first tile.
 * @example
 * await rasterTile({ url, params: { z: '6', x: '33', y: '25' }, seed: 'tmaps', renderer: inThread })
 * // PNG bytes
 */
export async function rasterTile(ctx: EndpointContext): Promise<Uint8Array<ArrayBuffer>> {
  const [z, x, y] = (['z', 'x', 'y'] as const).map((name) => {
    const value = ctx.params[name] ?? ''
    if (name === 'y' && RETINA.test(value)) throw new NotFoundError(`retina tile ${value}`, NO_RETINA)
    if (!SEGMENT.test(value)) throw new ParamError('invalid-param', name)
    return Number(value)
  }) as [number, number, number]
  if (z > MAX_TILE_ZOOM)
    throw new NotFoundError(`zoom ${z} is above ${MAX_TILE_ZOOM}: TMaps has no tiles there`)
  const count = 2 ** z
  if (x >= count || y >= count)
    throw new NotFoundError(`tile ${z}/${x}/${y} is outside the grid (0-${count - 1} at zoom ${z})`)
  return ctx.renderer.tile(ctx.seed, z, x, y)
}
