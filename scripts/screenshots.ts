/**
 * Regenerates the README's pictures (`npm run screenshots`, needs Debian's chromium): the
 * playground in its main states, in real Chromium on the built page, and a static map and a
 * tile mosaic straight from the renderer. Look at them before committing them.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { encodePng } from '../src/rasterizer/png.ts'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { launchChromium, openPage, servePlayground } from '../test/support/browser.ts'
import { decodePng } from '../test/support/png.ts'

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots')
mkdirSync(OUT, { recursive: true })
/** A common projector, and the smallest screen the playground keeps on one screen. */
const VIEW = { width: 1280, height: 720 }

/** Sends the composer's request with a key (by name) and waits for its answer. */
async function send(page: Page, keyName: string, endpoint?: string, params?: string) {
  if (endpoint) await page.getByLabel('Endpoint').selectOption(endpoint)
  if (params !== undefined) await page.locator('#params').fill(params)
  const select = page.getByLabel('API key', { exact: true })
  const option = select.locator('option', { hasText: `${keyName} ·` })
  await select.selectOption((await option.getAttribute('value'))!)
  const before = (await page.getByTestId('result').count())
    ? await page.getByTestId('result').getAttribute('data-seq')
    : '0'
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await page.waitForFunction(
    (seq) => (document.querySelector('[data-testid="result"]')?.getAttribute('data-seq') ?? '0') !== seq,
    before,
    { timeout: 20_000 },
  )
}

/** Waits until the map's tiles are `loaded` or `refused` (every visible one answered). */
async function tiles(page: Page, state: 'loaded' | 'refused') {
  await page.waitForFunction((s) => document.querySelector('.map')?.getAttribute('data-tiles') === s, state, {
    timeout: 30_000,
  })
  await page.waitForTimeout(400) // Leaflet fades tiles in
}

/** `npm run screenshots -- --maps`: only the maps (tiles and static maps), without Chromium. */
const MAPS_ONLY = process.argv.includes('--maps')

const [browser, server] = MAPS_ONLY ? [] : await Promise.all([launchChromium(), servePlayground()])
if (browser && server)
  try {
    const context = await browser.newContext({ viewport: VIEW })
    // 1. localhost (the README's picture): the whole country on the map's tiles, the log showing
    // them, and the production key refused here: the step that failed and its one-click fix.
    const { page } = await openPage(context, `http://localhost:${server.port}/`)
    await tiles(page, 'loaded')
    await page.getByLabel('Map tiles').check()
    await send(page, 'Production frontend')
    await page.screenshot({ path: join(OUT, 'playground.png') })
    // 2. 127.0.0.1: another origin, the local-dev key refused there, by the request and the map.
    const loopback = await openPage(context, `http://127.0.0.1:${server.port}/`)
    await tiles(loopback.page, 'refused')
    await send(loopback.page, 'Web app (local dev)')
    await loopback.page.screenshot({ path: join(OUT, 'playground-refused.png') })
    await context.close()
  } finally {
    await browser.close()
    await server.close()
  }

// 3. The docs' static-map example with a route, and a 3 x 2 mosaic of zoom-8 tiles around Tunis.
const mock = createTmapsMock({ state: 'empty' })
const { value } = await mock.console.createKey({ name: 'Screenshots' })
const route = await (
  await mock.fetch(
    new Request(
      `https://api.tmaps.tn/routing/direction?from=36.8002,10.1815&to=36.8528,10.3261&api_key=${value}`,
    ),
  )
).json()
const staticMap = await mock.fetch(
  new Request(
    `https://api.tmaps.tn/maps/static?bbox=10.13,36.77,10.36,36.89&size=800x450&marker=36.8002,10.1815|green|A&marker=36.8528,10.3261|red|B&path=weight:5|color:0x0066ff|enc:${encodeURIComponent(route.geometry)}&api_key=${value}`,
  ),
)
writeFileSync(join(OUT, 'static-map.png'), Buffer.from(await staticMap.arrayBuffer()))
writeFileSync(join(OUT, 'tiles-z8.png'), await mosaic(8, 134, 99, 3, 2))

/** A mosaic of `cols` x `rows` tiles of zoom `z` from tile `tx0`, `ty0`, as a PNG. */
async function mosaic(z: number, tx0: number, ty0: number, cols: number, rows: number) {
  const out = new Uint8Array(cols * 256 * rows * 256 * 3)
  for (let j = 0; j < rows; j++)
    for (let i = 0; i < cols; i++) {
      const tile = await mock.fetch(
        new Request(`https://tiles.tmaps.tn/r-tile/${z}/${tx0 + i}/${ty0 + j}?api_key=${value}`),
      )
      const png = decodePng(new Uint8Array(await tile.arrayBuffer()))
      for (let y = 0; y < 256; y++)
        for (let x = 0; x < 256; x++) out.set(png.pixel(x, y), ((j * 256 + y) * cols * 256 + i * 256 + x) * 3)
    }
  return encodePng(out, cols * 256, rows * 256)
}

/** A mosaic of `cols` x `rows` tiles of zoom `z` centred on a point, as a PNG. */
function tilesAround(lat: number, lng: number, z: number, cols: number, rows: number) {
  const n = 2 ** z
  const fx = ((lng + 180) / 360) * n
  const fy = ((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * n
  return mosaic(z, Math.round(fx - cols / 2), Math.round(fy - rows / 2), cols, rows)
}

// 4. The views: the land, water and salt flats (OpenStreetMap-derived; the cities'
// waterfronts are not refined: see scripts/build-land.ts) and the roads, from the whole country
// to a city's streets.
const VIEWS: Array<[file: string, lat: number, lng: number, z: number, cols: number, rows: number]> = [
  ['tunisia-z6', 34.2, 9.6, 6, 2, 3],
  ['lakes-north-z7', 36.9, 9.9, 7, 3, 2],
  ['chotts-z7', 33.8, 8.7, 7, 3, 2],
  ['roads-greater-tunis-z10', 36.82, 10.2, 10, 4, 3],
  ['land-tunis-z12', 36.81, 10.24, 12, 4, 3],
  ['tunis-centre-z14', 36.8, 10.19, 14, 4, 3],
  ['la-goulette-z14', 36.815, 10.3, 14, 4, 3],
  ['sfax-z12', 34.74, 10.75, 12, 4, 3],
  ['sousse-z14', 35.83, 10.64, 14, 4, 3],
  ['monastir-z13', 35.77, 10.83, 13, 4, 3],
  ['bizerte-z13', 37.27, 9.87, 13, 4, 3],
  ['land-djerba-el-kantara-z12', 33.7, 10.93, 12, 4, 3],
  ['land-gulf-of-gabes-z8', 34.0, 10.4, 8, 4, 3],
]
for (const [file, lat, lng, z, c, r] of VIEWS)
  writeFileSync(join(OUT, `${file}.png`), await tilesAround(lat, lng, z, c, r))

// 5. Two routes on static maps: Tunis -> Sousse by the A1, Tunis centre -> La Marsa by the RN9.
for (const [file, from, to, bbox] of [
  ['route-tunis-sousse', '36.8002,10.1815', '35.8254,10.637', '9.95,35.7,10.75,36.9'],
  ['route-tunis-la-marsa', '36.8002,10.1815', '36.8782,10.3247', '10.14,36.77,10.36,36.9'],
] as const) {
  const r = await (
    await mock.fetch(
      new Request(`https://api.tmaps.tn/routing/direction?from=${from}&to=${to}&api_key=${value}`),
    )
  ).json()
  const picture = await mock.fetch(
    new Request(
      `https://api.tmaps.tn/maps/static?bbox=${bbox}&size=800x500&marker=${from}|green|A&marker=${to}|red|B&path=weight:5|color:0x0066ff|enc:${encodeURIComponent(r.geometry)}&api_key=${value}`,
    ),
  )
  writeFileSync(join(OUT, `${file}.png`), Buffer.from(await picture.arrayBuffer()))
}
// 6. The street-zoom views (built-up areas, parks, squares, landmarks, POI icons, street
// names), and the docs' Carthage listing thumbnail (a static map, as the docs write it).
const STREET_VIEWS: Array<[file: string, lat: number, lng: number, z: number]> = [
  ['street-tunis-medina-z16', 36.7985, 10.1705, 16],
  ['street-ville-nouvelle-z15', 36.8005, 10.1855, 15],
  ['street-la-marsa-z14', 36.878, 10.322, 14],
  ['street-sousse-z14', 35.828, 10.636, 14],
  ['street-sfax-z14', 34.738, 10.758, 14],
  ['street-houmt-souk-z15', 33.8755, 10.858, 15],
  ['street-bizerte-z14', 37.2745, 9.8725, 14],
  ['street-nabeul-z15', 36.4525, 10.7364, 15],
  ['street-monastir-z16', 35.7755, 10.8295, 16],
  // The views: Tunis centre on Avenue Habib Bourguiba, the lake and its causeway, Sousse's
  // Medina by its port, Monastir's shore (GSHHG's coast).
  ['street-tunis-centre-z15', 36.8002, 10.1855, 15],
  ['street-tunis-centre-z16', 36.8002, 10.1845, 16],
  ['street-lake-la-goulette-z14', 36.81, 10.265, 14],
  ['street-sousse-z15', 35.8267, 10.6397, 15],
  ['street-sousse-z16', 35.8267, 10.6397, 16],
  ['street-monastir-z15', 35.777, 10.833, 15],
]
for (const [file, lat, lng, z] of STREET_VIEWS)
  writeFileSync(join(OUT, `${file}.png`), await tilesAround(lat, lng, z, 4, 3))
const thumbnail = await mock.fetch(
  new Request(
    `https://api.tmaps.tn/maps/static?center=36.8528,10.3261&zoom=15&size=800x500&style=streets&marker=36.8528,10.3261|red|H&api_key=${value}`,
  ),
)
writeFileSync(join(OUT, 'carthage-thumbnail.png'), Buffer.from(await thumbnail.arrayBuffer()))

console.log(
  `wrote ${OUT}/{${MAPS_ONLY ? '' : 'playground,playground-refused,'}static-map,tiles-z8,${[...VIEWS.map((v) => v[0]), 'route-tunis-sousse', 'route-tunis-la-marsa', ...STREET_VIEWS.map((v) => v[0]), 'carthage-thumbnail'].join(',')}}.png`,
)
