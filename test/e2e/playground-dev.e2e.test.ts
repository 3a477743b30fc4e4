import type { Browser } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, launchChromium, openPage, screenshot } from '../support/browser.ts'

/**
 * `npm start`: the playground in Vite's dev server, the quick start's first command. The built
 * page is tested in playground.e2e.test.ts; this one serves its render worker otherwise (bundled
 * by the config's `startEarlyInDev` when the server starts), so it is tested on its own, at the
 * street zoom a geocode takes the map to.
 */
let browser: Browser
let server: ViteDevServer
let url = ''

beforeAll(async () => {
  const port = await freePort()
  ;[browser, server] = await Promise.all([
    launchChromium(),
    createServer({
      configFile: 'playground/vite.config.ts',
      logLevel: 'warn',
      server: { port, strictPort: true, open: false },
    }),
  ])
  await server.listen()
  url = `http://localhost:${port}/`
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('the playground in vite dev (npm start), in Chromium', () => {
  it('draws the map at street zoom after the default geocode: its tiles load, nothing fails', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const { page, errors } = await openPage(context, url)
    const tiles = () => page.locator('.map').getAttribute('data-tiles')
    const zoom = () => page.locator('.map-canvas').evaluate((el: HTMLElement) => Number(el.dataset.zoom))
    await expect.poll(tiles, { timeout: 30_000 }).toBe('loaded')
    // The log folds the map's own tiles away, and says so rather than looking empty.
    expect(await page.locator('.log-panel p.muted').textContent()).toMatch(
      /^Only the map’s own tiles so far \(tick Map tiles to see them\)\./,
    )
    const select = page.getByLabel('API key', { exact: true })
    const option = select.locator('option', { hasText: 'Web app (local dev) ·' })
    await select.selectOption((await option.getAttribute('value'))!)
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expect.poll(() => page.getByTestId('result-status').textContent(), { timeout: 15_000 }).toBe('200')
    // The map goes to the answer: street zoom, whose layers the render worker loads lazily.
    await expect.poll(zoom, { timeout: 15_000 }).toBeGreaterThanOrEqual(10)
    await expect.poll(tiles, { timeout: 30_000 }).not.toBe('loading')
    expect(await tiles()).toBe('loaded')
    await screenshot(page, 'dev-street-zoom')
    expect(errors()).toEqual([])
    await context.close()
  }, 120_000)
})
