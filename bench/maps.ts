/**
 * Maps part of `npm run bench`: raster tiles and static maps, through the whole pipeline
 * (msw's `getResponse` over the mock's handlers), against a bare msw handler that answers a fixed
 * PNG of the same size. Targets: a tile's median <= 15 ms uncached and <= 0.2 ms from
 * the answer cache; an 800 x 500 static map with overlays <= 80 ms; memory flat over 10,000
 * renders (MAP_RENDERS, default 10,000).
 */
import { getResponse, HttpResponse, http } from 'msw'
import { mercatorX, mercatorY } from '../src/map/projection.ts'
import { renderTile } from '../src/map/render.ts'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { type Comparison, compare } from './harness.ts'

export async function mapRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const mock = createTmapsMock({ state: 'empty', seed: 'bench-maps' })
  await mock.ready
  const key = (await mock.console.createKey({ name: 'maps', domains: ['localhost'] })).value
  const headers = { Referer: 'http://localhost:5173/' }
  const tileUrl = (z: number, x: number, y: number) =>
    `https://tiles.tmaps.tn/r-tile/${z}/${x}/${y}?api_key=${key}`
  const fixed = new Uint8Array(
    await (await mock.fetch(new Request(tileUrl(12, 2163, 1597), { headers }))).arrayBuffer(),
  )
  const bare = [
    http.get('https://tiles.tmaps.tn/r-tile/:z/:x/:y', () =>
      HttpResponse.arrayBuffer(fixed.slice().buffer, { headers: { 'Content-Type': 'image/png' } }),
    ),
    http.get('https://api.tmaps.tn/maps/static', () =>
      HttpResponse.arrayBuffer(fixed.slice().buffer, { headers: { 'Content-Type': 'image/png' } }),
    ),
  ]
  const get = (handlers: typeof bare, url: string) => getResponse(handlers, new Request(url, { headers }))
  const rows: Comparison[] = []

  /** Tiles of a zoom around Tunis, row by row, never the same twice (each misses the cache). */
  const walker = (z: number) => {
    const [cx, cy] = [Math.floor(mercatorX(10.18) * 2 ** z), Math.floor(mercatorY(36.8) * 2 ** z)]
    const count = 2 ** z
    const width = Math.min(count, 24)
    let i = 0
    return () => {
      const k = i++
      const x = (cx - (width >> 1) + (k % width) + count) % count
      const y = (cy - 8 + Math.floor(k / width) + count) % count
      return [z, x, y] as const
    }
  }
  for (const z of [6, 12, 15, 16, 17]) {
    const next = walker(z)
    rows.push(
      await compare(
        `raster tile z${z}, uncached`,
        { name: 'tmaps-mock', run: () => get(mock.handlers, tileUrl(...next())) },
        { name: 'bare msw handler, fixed PNG', run: () => get(bare, tileUrl(z, 0, 0)) },
        { batch: 12, rounds: 9, interleave: true, budgetMs: 15 },
      ),
    )
  }
  rows.push(
    await compare(
      'raster tile, from the answer cache',
      { name: 'tmaps-mock', run: () => get(mock.handlers, tileUrl(12, 2163, 1597)) },
      { name: 'bare msw handler, fixed PNG', run: () => get(bare, tileUrl(12, 2163, 1597)) },
      { batch: 200, budgetMs: 0.2 },
    ),
  )

  // The docs' thumbnail with a route, a zone and three pins: a new centre each time (uncached).
  const route = await (
    await mock.fetch(
      new Request(
        `https://api.tmaps.tn/routing/direction?from=36.8002,10.1815&to=36.8528,10.3261&api_key=${key}`,
      ),
    )
  ).json()
  let shift = 0
  const staticUrl = () => {
    const lat = (36.83 + (shift++ % 50) * 0.0004).toFixed(4)
    return (
      `https://api.tmaps.tn/maps/static?center=${lat},10.25&zoom=12&size=800x500&style=streets` +
      `&marker=36.8002,10.1815|red|A&marker=36.8528,10.3261|green|B&marker=36.82,10.3|blue|C` +
      `&path=weight:5|color:0x0066ff|enc:${encodeURIComponent(route.geometry)}` +
      `&polygon=36.84,10.2|36.86,10.24|36.83,10.27&api_key=${key}`
    )
  }
  rows.push(
    await compare(
      'static map 800 x 500, 3 markers, a route, a polygon',
      { name: 'tmaps-mock, uncached', run: () => get(mock.handlers, staticUrl()) },
      { name: 'bare msw handler, fixed PNG', run: () => get(bare, staticUrl()) },
      { batch: 6, rounds: 9, interleave: true, budgetMs: 80 },
    ),
  )

  // A Leaflet view at zoom 13: 5 x 4 tiles, a new view each time (panned), against 20 fixed PNGs.
  let pan = 0
  const view = (handlers: typeof bare) => async () => {
    const [x0, y0] = [
      Math.floor(mercatorX(9) * 8192) + (pan % 100) * 5,
      Math.floor(mercatorY(37) * 8192) + Math.floor(pan / 100) * 4,
    ]
    pan++
    const tiles = []
    for (let dx = 0; dx < 5; dx++)
      for (let dy = 0; dy < 4; dy++) tiles.push(get(handlers, tileUrl(13, x0 + dx, y0 + dy)))
    await Promise.all(tiles)
  }
  rows.push(
    await compare(
      'a Leaflet view (20 tiles at z13), uncached',
      { name: 'tmaps-mock', run: view(mock.handlers) },
      { name: 'bare msw handler, fixed PNG', run: view(bare) },
      { batch: 2, rounds: 7, interleave: true },
    ),
  )

  // Memory: render many different tiles; the heap after them, against the heap after the first 1,000.
  const renders = Number(process.env.MAP_RENDERS ?? 10_000)
  const gc = (globalThis as { gc?: () => void }).gc
  const heapNow = () => {
    gc?.()
    return process.memoryUsage().heapUsed
  }
  const zooms = [8, 10, 12, 14, 16]
  const walkers = zooms.map(walker)
  let early = 0
  const start = performance.now()
  for (let i = 0; i < renders; i++) {
    await renderTile('bench-maps', ...walkers[i % zooms.length]!())
    if (i === Math.min(999, renders - 1)) early = heapNow()
  }
  const late = heapNow()
  const growth = late / early
  const note =
    `Memory over ${renders} tile renders (${((performance.now() - start) / renders).toFixed(1)} ms each, zooms ${zooms.join(', ')}): ` +
    `heap ${(early / 1e6).toFixed(0)} MB after 1,000 -> ${(late / 1e6).toFixed(0)} MB (${growth.toFixed(2)}x; target <= 1.2x` +
    `${gc ? '' : ', measured without --expose-gc'}). ${growth <= 1.2 ? 'ok' : 'OVER TARGET'}`
  return { rows, notes: [note] }
}
