/**
 * Regenerates the README's pictures (`npm run screenshots`, needs Debian's chromium): the
 * playground in its main states, in real Chromium on the built page, and a static map and a
 * tile mosaic straight from the renderer. Look at them before committing them.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { encodePng } from '../src/render/png.ts'
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

const [browser, server] = await Promise.all([launchChromium(), servePlayground()])
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
const [cols, rows, z, x0, y0] = [3, 2, 8, 134, 99]
const mosaic = new Uint8Array(cols * 256 * rows * 256 * 3)
for (let j = 0; j < rows; j++)
  for (let i = 0; i < cols; i++) {
    const tile = await mock.fetch(
      new Request(`https://tiles.tmaps.tn/r-tile/${z}/${x0 + i}/${y0 + j}?api_key=${value}`),
    )
    const png = decodePng(new Uint8Array(await tile.arrayBuffer()))
    for (let y = 0; y < 256; y++)
      for (let x = 0; x < 256; x++) {
        const at = ((j * 256 + y) * cols * 256 + i * 256 + x) * 3
        mosaic.set(png.pixel(x, y), at)
      }
  }
writeFileSync(join(OUT, 'tiles-z8.png'), encodePng(mosaic, cols * 256, rows * 256))
console.log(`wrote ${OUT}/{playground,playground-refused,static-map,tiles-z8}.png`)
