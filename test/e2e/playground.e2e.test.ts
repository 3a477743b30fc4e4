import { readFileSync, statSync } from 'node:fs'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openPage, screenshot, servePlayground } from '../support/browser.ts'
import { keyCard, selectKey, send } from '../support/playground-page.ts'

let browser: Browser
let server: Awaited<ReturnType<typeof servePlayground>>
let localhost = ''
let loopback = ''

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchChromium(), servePlayground()])
  localhost = `http://localhost:${server.port}/`
  loopback = `http://127.0.0.1:${server.port}/`
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** The map's tiles: `loading`, `loaded` (every visible tile) or `refused` (some failed). */
const mapTiles = (page: Page) => page.locator('.map').getAttribute('data-tiles')

/**
 * Whether a person sees the whole element without scrolling: its box lies inside the viewport
 * and inside every ancestor that clips (a panel that scrolls, the map's frame).
 */
function wholly(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect()
    const seen = { top: 0, left: 0, bottom: innerHeight, right: innerWidth }
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up)
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
      const clip = up.getBoundingClientRect()
      seen.top = Math.max(seen.top, clip.top)
      seen.left = Math.max(seen.left, clip.left)
      seen.bottom = Math.min(seen.bottom, clip.bottom)
      seen.right = Math.min(seen.right, clip.right)
    }
    const slack = 0.5
    return (
      box.width > 0 &&
      box.height > 0 &&
      box.top >= seen.top - slack &&
      box.left >= seen.left - slack &&
      box.bottom <= seen.bottom + slack &&
      box.right <= seen.right + slack
    )
  })
}

/** Tunisia's extent (the country, not the map's margin around it). */
const TUNISIA = { south: 30.24, north: 37.35, west: 7.52, east: 11.6 }

/** Where Tunisia is drawn on the map, in pixels from its top left corner, and the map's size. */
async function tunisiaOnTheMap(page: Page) {
  const view = await page.locator('.map-canvas').evaluate((el: HTMLElement) => ({
    zoom: Number(el.dataset.zoom),
    center: el.dataset.center!.split(',').map(Number) as [number, number],
    width: el.clientWidth,
    height: el.clientHeight,
  }))
  // Web Mercator at the map's zoom (256 px tiles), as Leaflet draws it.
  const world = 256 * 2 ** view.zoom
  const x = (lng: number) => (world * (lng + 180)) / 360
  const y = (lat: number) =>
    (world * (1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI)) / 2
  const [lat, lng] = view.center
  const left = x(TUNISIA.west) - x(lng) + view.width / 2
  const right = x(TUNISIA.east) - x(lng) + view.width / 2
  const top = y(TUNISIA.north) - y(lat) + view.height / 2
  const bottom = y(TUNISIA.south) - y(lat) + view.height / 2
  return { left, right, top, bottom, width: view.width, height: view.height }
}

describe('the playground, in Chromium', () => {
  it('walks a key through its life: create, link, unlink, disable, enable, revoke, reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const { page, errors } = await openPage(context, localhost)
    await screenshot(page, '1-demo-state')

    // Create a key: its value is shown once, then only its prefix.
    await page.getByLabel('New key name').fill('E2E key')
    await page.getByRole('button', { name: 'Create key' }).click()
    const value = (await page.getByTestId('created-key').locator('code').textContent())!
    expect(value).toMatch(/^ak_[0-9a-f]{32}$/)
    await screenshot(page, '2-key-created')
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.content()).not.toContain(value)
    await expect.poll(() => keyCard(page, 'E2E key').textContent()).toContain(`${value.slice(0, 7)}…`)

    // No domain linked: refused from this page, with the trace.
    let answer = await send(page, 'E2E key')
    expect(answer.status).toBe(403)
    expect(answer.reason).toBe(
      `Origin (reconstructed) ${localhost.slice(0, -1)} -> host localhost is not linked to key ${value.slice(0, 7)}…; linked: none.`,
    )

    // Link localhost from the key's card: accepted.
    const card = keyCard(page, 'E2E key')
    await card.getByLabel('Link a domain').selectOption('localhost')
    await card.getByRole('button', { name: 'Link', exact: true }).click()
    // Linked, and the picker back to "+ domain…" (a linked domain is no longer among its options).
    const linkedWithPickerReset = async () => {
      await expect
        .poll(() => card.getByRole('list', { name: 'Domains linked to E2E key' }).textContent())
        .toContain('localhost')
      expect(
        await card.getByLabel('Link a domain').evaluate((el) => (el as HTMLSelectElement).selectedIndex),
      ).toBe(0)
    }
    await linkedWithPickerReset()
    answer = await send(page, 'E2E key')
    expect(answer.status).toBe(200)
    expect(answer.reason).toContain('-> host localhost is linked to key')
    await screenshot(page, '3-accepted')

    // Add a domain: said under the field, and its card brought into view.
    await page.getByRole('textbox', { name: 'Domain', exact: true }).fill('shop.example.tn')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await expect
      .poll(() => page.locator('#domain-check').textContent())
      .toBe('Added shop.example.tn: link it to a key on its card.')
    await expect.poll(() => page.locator('[data-domain="shop.example.tn"]').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Remove shop.example.tn' }).click()

    // Unlink it from the domain's side: 403 again.
    await page.getByRole('button', { name: 'Unlink E2E key from localhost' }).click()
    answer = await send(page, 'E2E key')
    expect(answer.status).toBe(403)
    expect(answer.reason).toContain('host localhost is not linked')
    await screenshot(page, '4-domain-refused')

    // Link again, from the domain's side while the key's card has localhost picked: the card's
    // picker is back to "+ domain…", not blank. Then disable: 401. Enable: 200.
    await card.getByLabel('Link a domain').selectOption('localhost')
    const localhostCard = page.locator('[data-domain="localhost"]')
    await localhostCard.getByLabel('Link a key').selectOption({ label: 'E2E key' })
    await localhostCard.getByRole('button', { name: 'Link', exact: true }).click()
    await linkedWithPickerReset()
    // The status is a switch: on (enabled), off (disabled).
    const status = card.getByRole('switch', { name: 'Enabled: E2E key' })
    expect(await status.getAttribute('aria-checked')).toBe('true')
    await status.click()
    await expect.poll(() => card.getByTestId('status').textContent()).toBe('disabled')
    expect(await status.getAttribute('aria-checked')).toBe('false')
    answer = await send(page, 'E2E key')
    expect(answer).toEqual({
      status: 401,
      reason: `Key ${value.slice(0, 7)}… is disabled: enable it in the console to use it again.`,
    })
    await screenshot(page, '5-key-disabled')
    await status.click()
    expect((await send(page, 'E2E key')).status).toBe(200)

    // Revoke is offered only once disabled; after it, enable is not offered, and why is shown.
    await expect(card.getByRole('button', { name: 'Revoke' }).count()).resolves.toBe(0)
    await expect(card.textContent()).resolves.toContain(
      'Revoke is not offered: an enabled key must be disabled before it can be revoked',
    )
    await status.click()
    // Revoke asks first: dismissed, the key stays disabled; accepted, it is revoked.
    let asked = ''
    page.once('dialog', (d) => {
      asked = d.message()
      void d.dismiss()
    })
    await card.getByRole('button', { name: 'Revoke' }).click()
    await expect.poll(() => asked).toContain('Revocation is final')
    expect(await card.getByTestId('status').textContent()).toBe('disabled')
    expect((await send(page, 'E2E key')).status).toBe(401)
    page.once('dialog', (d) => d.accept())
    await card.getByRole('button', { name: 'Revoke' }).click()
    await expect.poll(() => card.getByTestId('status').textContent()).toBe('revoked')
    expect(await card.getByRole('switch').count()).toBe(0)
    expect(await card.textContent()).toContain(
      'Enable is not offered: it is revoked, and revocation is final',
    )
    expect((await send(page, 'E2E key')).status).toBe(401)
    await screenshot(page, '6-key-revoked')

    // Reload: the state is kept.
    await page.reload()
    await page.getByRole('heading', { name: 'API keys' }).waitFor()
    await expect.poll(() => keyCard(page, 'E2E key').getByTestId('status').textContent()).toBe('revoked')
    expect(errors()).toEqual([])
    await context.close()
  }, 120_000)

  it('keeps two tabs in step: a key disabled in one is refused in the other', async () => {
    const context = await browser.newContext()
    const one = await openPage(context, localhost)
    const two = await openPage(context, localhost)
    expect((await send(two.page, 'Web app (local dev)')).status).toBe(200)
    await keyCard(one.page, 'Web app (local dev)').getByRole('switch').click()
    await expect
      .poll(() => keyCard(one.page, 'Web app (local dev)').getByTestId('status').textContent())
      .toBe('disabled')
    expect((await send(two.page, 'Web app (local dev)')).status).toBe(401)
    await expect
      .poll(() => keyCard(two.page, 'Web app (local dev)').getByTestId('status').textContent())
      .toBe('disabled')
    // And back: reset to the demo in tab two, tab one follows.
    two.page.once('dialog', (d) => d.accept())
    await two.page.getByRole('button', { name: 'Reset to demo' }).click()
    // Reset is done (and written for the other tabs) once tab two shows the key enabled again.
    await expect
      .poll(() => keyCard(two.page, 'Web app (local dev)').getByTestId('status').textContent())
      .toBe('enabled')
    expect((await send(one.page, 'Web app (local dev)')).status).toBe(200)
    expect([...one.errors(), ...two.errors()]).toEqual([])
    await context.close()
  }, 60_000)

  it('shows localhost and 127.0.0.1 as two origins: the local-dev key is linked to localhost only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
    const onLocalhost = await openPage(context, localhost)
    const onLoopback = await openPage(context, loopback)
    expect((await send(onLocalhost.page, 'Web app (local dev)')).status).toBe(200)
    // The map's tiles, with the same key, are refused there too: an <img> sends its Referer.
    await expect.poll(() => mapTiles(onLoopback.page), { timeout: 15_000 }).toBe('refused')
    expect(await onLoopback.page.getByTestId('map-notice').textContent()).toMatch(
      /Referer \(reconstructed\) http:\/\/127\.0\.0\.1:\d+\/ -> host 127\.0\.0\.1 is not linked to key ak_[0-9a-f]{4}…; linked: localhost\./,
    )
    const refused = await send(onLoopback.page, 'Web app (local dev)')
    expect(refused.status).toBe(403)
    expect(refused.reason).toMatch(
      /^Origin \(reconstructed\) http:\/\/127\.0\.0\.1:\d+ -> host 127\.0\.0\.1 is not linked to key ak_[0-9a-f]{4}…; linked: localhost\.$/,
    )
    // On a 1280 x 720 screen (this context's), the answer's fix and the map's are in view at once.
    const loopbackFix = 'Link 127.0.0.1 to Web app (local dev)'
    for (const locator of [
      onLoopback.page.locator('[data-testid="decision-step"][data-state="fail"]'),
      onLoopback.page.getByTestId('result').getByRole('button', { name: loopbackFix }),
      onLoopback.page.getByTestId('map-notice').getByRole('button', { name: loopbackFix }),
    ])
      expect(await wholly(locator)).toBe(true)
    await screenshot(onLoopback.page, '7-loopback-refused')
    // The 127.0.0.1 page says it is another origin with its own console, and fixes it in one click.
    const notice = onLoopback.page.getByTestId('loopback-notice')
    expect(await notice.textContent()).toContain('another origin than')
    expect(await notice.textContent()).toContain('it is linked to localhost only')
    expect(await onLocalhost.page.getByTestId('loopback-notice').count()).toBe(0)
    // Its two buttons start a row of their own, at the notice's left edge (not after its text).
    const [box, first] = await Promise.all([
      notice.boundingBox(),
      notice.getByRole('button', { name: 'Link 127.0.0.1 to Web app (local dev)' }).boundingBox(),
    ])
    expect(first!.x - box!.x).toBeLessThan(20)
    await notice.getByRole('button', { name: 'Link 127.0.0.1 to Web app (local dev)' }).click()
    await expect.poll(() => notice.textContent()).toContain('its requests pass')
    expect((await send(onLoopback.page, 'Web app (local dev)')).status).toBe(200)
    // The localhost page's own console is untouched: state is per origin.
    const linkedThere = keyCard(onLocalhost.page, 'Web app (local dev)').getByRole('list', {
      name: 'Domains linked to Web app (local dev)',
    })
    expect(await linkedThere.textContent()).not.toContain('127.0.0.1')
    // The map tries its refused tiles again after the console changed: they load.
    await expect.poll(() => mapTiles(onLoopback.page), { timeout: 15_000 }).toBe('loaded')
    expect(await onLoopback.page.getByTestId('map-notice').count()).toBe(0)
    expect([...onLocalhost.errors(), ...onLoopback.errors()]).toEqual([])
    await context.close()
  }, 60_000)

  it('copies the console of localhost into 127.0.0.1 in one click (a pop-up of the twin origin)', async () => {
    const context = await browser.newContext()
    const onLocalhost = await openPage(context, localhost)
    await onLocalhost.page.getByLabel('New key name').fill('Twin key')
    await onLocalhost.page.getByRole('button', { name: 'Create key' }).click()
    await keyCard(onLocalhost.page, 'Twin key').waitFor()
    const onLoopback = await openPage(context, loopback)
    expect(await keyCard(onLoopback.page, 'Twin key').count()).toBe(0)
    onLoopback.page.once('dialog', (d) => d.accept())
    const host = new URL(localhost).host
    await onLoopback.page.getByRole('button', { name: `Import the console of ${host}` }).click()
    await keyCard(onLoopback.page, 'Twin key').waitFor({ timeout: 15_000 })
    // Kept in this origin's storage: still there after a reload.
    await onLoopback.page.reload()
    await keyCard(onLoopback.page, 'Twin key').waitFor()
    // A page that asks for the state under another origin's name gets nothing.
    const asked = await context.newPage()
    await asked.goto(`${localhost}?send-state-to=${encodeURIComponent('https://evil.example')}`)
    await asked.getByRole('heading', { name: 'API keys' }).waitFor()
    expect(asked.isClosed()).toBe(false)
    expect([...onLocalhost.errors(), ...onLoopback.errors()]).toEqual([])
    await context.close()
  }, 60_000)

  it('answers each caller as TMaps would: real <img> requests, and simulated ones', async () => {
    const context = await browser.newContext()
    const { page, errors } = await openPage(context, localhost)
    // A tile <img> sends only a Referer: checked like an Origin.
    const tile = await send(page, 'Web app (local dev)', 'Map tile (img)')
    expect(tile.status).toBe(200)
    expect(tile.reason).toMatch(
      /^Referer \(reconstructed\) http:\/\/localhost:\d+\/ -> host localhost is linked/,
    )
    expect((await send(page, 'Production frontend', 'Map tile (img)')).status).toBe(403)
    // Under no-referrer an <img> sends neither header: the domain list is not checked at all.
    const hidden = await send(page, 'Production frontend', 'No referrer (img)')
    expect(hidden.status).toBe(200)
    expect(hidden.reason).toMatch(/^No Origin and no Referer \(reconstructed\)/)
    // Simulated: a sandboxed iframe sends Origin: null; another site its own origin; curl nothing.
    const sandboxed = await send(page, 'Web app (local dev)', 'Sandboxed iframe')
    expect(sandboxed).toMatchObject({ status: 403 })
    expect(sandboxed.reason).toContain('Origin (simulated) null -> no host can be read from it')
    await page.getByLabel('Another site').check()
    await page.getByLabel('Origin', { exact: true }).fill('https://www.jasmin-delivery.tn')
    expect((await send(page, 'Production frontend', 'Another site')).status).toBe(200)
    expect((await send(page, 'Backend (server-side)', 'Server-side / curl')).status).toBe(200)
    expect((await send(page, 'Backend (server-side)')).status).toBe(403)
    // The log shows the same, newest first, and filters by outcome.
    await page.getByLabel('Outcome').selectOption('rejected')
    const rejected = await page.getByTestId('log-entry').allTextContents()
    expect(rejected.length).toBe(3)
    for (const text of rejected) expect(text).toMatch(/^40[13]/)
    await screenshot(page, '8-log')
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it('answers every endpoint from the composer and draws geocoding results on the map', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const { page, errors } = await openPage(context, localhost)
    const endpoints = await page.getByLabel('Endpoint').locator('option').allTextContents()
    expect(endpoints).toHaveLength(10)
    for (const endpoint of endpoints) {
      await page.getByLabel('Endpoint').selectOption(endpoint)
      expect((await send(page, 'Web app (local dev)')).status, endpoint).toBe(200)
      if (endpoint === 'GET /maps/static' || endpoint.startsWith('GET /r-tile')) {
        // The picture is shown, decoded by the browser at its real size.
        const size = await page.getByTestId('result-image').evaluate(async (img: HTMLImageElement) => {
          await img.decode()
          return [img.naturalWidth, img.naturalHeight]
        })
        expect(size, endpoint).toEqual(endpoint === 'GET /maps/static' ? [800, 500] : [256, 256])
        await screenshot(page, endpoint === 'GET /maps/static' ? '9a-static-map' : '9b-tile')
      }
    }
    await page.getByLabel('Endpoint').selectOption('GET /geocoding/nearby')
    await send(page, 'Web app (local dev)')
    // The query point and each result are markers; a result's popup names it.
    const results = page.locator('.map path.answer-result')
    await expect.poll(() => results.count()).toBeGreaterThan(0)
    expect(await page.locator('.map path.answer-query').count()).toBe(1)
    expect(await page.getByTestId('map-caption').textContent()).toBe(
      `The last answer (GET /geocoding/nearby): ${await results.count()} results.`,
    )
    await results.last().click()
    expect(await page.locator('.leaflet-popup-content').textContent()).toMatch(
      /^(Pharmacie|Hôpital|Clinique|Polyclinique).+Tunis/,
    )
    // Usage counts the 11 requests sent, one of them a tile, and the map's own tiles (same key).
    const [total, tiles] = await page.evaluate(() =>
      ['usage-total', 'usage-tiles'].map((id) =>
        Number.parseInt(
          document.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/^\(/, '') ?? '',
          10,
        ),
      ),
    )
    expect(tiles).toBeGreaterThan(1)
    expect(total! - tiles!).toBe(10)
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
    await screenshot(page, '9-nearby-on-the-map')
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it('injects faults from the faults panel: 429s that run out, latency, an endpoint down', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const { page, errors } = await openPage(context, localhost)
    const faults = page.getByRole('region', { name: 'Faults' })
    const rules = faults.getByTestId('fault-rule')
    const log = page.getByTestId('log-entry')
    // The map's tiles are requests too: let them load before faults apply to every request.
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')

    // The next 2 requests: 429, before the key is checked; the third is answered normally.
    await faults.getByLabel('Requests', { exact: true }).fill('2')
    await faults.getByRole('button', { name: 'Next 2 requests: 429' }).click()
    await expect
      .poll(() => rules.allTextContents())
      .toEqual([expect.stringContaining('Every request: 429 rate limited')])
    expect(await rules.textContent()).toContain('2 left')
    const limited = await send(page, 'Web app (local dev)')
    expect(limited.status).toBe(429)
    expect(limited.reason).toMatch(/^Injected fault fault_\d+: 429 rate limited, before the auth check\.$/)
    await expect.poll(() => rules.textContent()).toContain('1 left')
    expect((await send(page, 'Web app (local dev)')).status).toBe(429)
    expect((await send(page, 'Web app (local dev)')).status).toBe(200)
    // The log marks the two injected answers; the rule is used up and gone from the list.
    await expect.poll(() => log.count()).toBe(3)
    expect(await log.nth(0).getByTestId('log-injected').count()).toBe(0)
    for (const i of [1, 2]) {
      expect(await log.nth(i).textContent()).toMatch(/^429GET/)
      expect(await log.nth(i).getByTestId('log-injected').textContent()).toBe('injected')
    }
    await expect.poll(() => rules.count()).toBe(0)
    await faults.getByTestId('fault-rules-empty').waitFor()

    // Latency: one delay rule for every request; the answer is still 200, its log entry says the delay.
    await faults.getByLabel('Latency', { exact: true }).fill('300')
    await expect
      .poll(() => rules.allTextContents())
      .toEqual([expect.stringContaining('Every request: answered after 300 ms')])
    expect(await faults.getByTestId('fault-latency-value').textContent()).toBe('300 ms')
    const started = Date.now()
    expect((await send(page, 'Web app (local dev)')).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
    // Its time says so: at least the 300 ms the fault added, which the cell's title names.
    const delay = log.nth(0).getByTestId('log-delay')
    expect(Number.parseFloat((await delay.textContent())!)).toBeGreaterThanOrEqual(300)
    expect(await delay.textContent()).toMatch(/^\d+ ms$/)
    expect(await delay.getAttribute('title')).toBe('delayed 300 ms by a fault')
    expect(await log.nth(0).getByTestId('log-injected').count()).toBe(0)
    // A new value replaces the rule.
    await faults.getByLabel('Latency', { exact: true }).fill('100')
    await expect
      .poll(() => rules.allTextContents())
      .toEqual([expect.stringContaining('Every request: answered after 100 ms')])

    // Endpoint down: forward geocoding answers 503 until removed; another endpoint answers 200.
    await faults.getByLabel('Take down', { exact: true }).selectOption('/geocoding/forward')
    await faults.getByRole('button', { name: 'Down: 503' }).click()
    await expect.poll(() => rules.count()).toBe(2)
    const down = await send(page, 'Web app (local dev)')
    expect(down.status).toBe(503)
    expect(down.reason).toMatch(/: 503 service unavailable after 100 ms, before the auth check\.$/)
    await page.getByLabel('Endpoint', { exact: true }).selectOption('GET /geocoding/reverse')
    expect((await send(page, 'Web app (local dev)')).status).toBe(200)
    expect(await rules.nth(1).textContent()).toContain('/geocoding/forward: 503 service unavailable')
    expect(await rules.nth(1).textContent()).toContain('until removed · applied 1×')
    await screenshot(page, '11-faults')
    await faults.getByRole('button', { name: /^Remove fault_\d+: \/geocoding\/forward:/ }).click()
    await expect.poll(() => rules.count()).toBe(1)
    await page.getByLabel('Endpoint', { exact: true }).selectOption('GET /geocoding/forward')
    expect((await send(page, 'Web app (local dev)')).status).toBe(200)

    // Clear all: no rule left, the latency control is back to off.
    await faults.getByRole('button', { name: 'Clear all' }).click()
    await expect.poll(() => rules.count()).toBe(0)
    expect(await faults.getByTestId('fault-latency-value').textContent()).toBe('off')
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it('draws the map on the mock’s tiles through the contract: refused for a key not linked to the page', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const { page, errors } = await openPage(context, localhost)
    const loaded = page.locator('.map img.leaflet-tile-loaded')
    const notice = page.getByTestId('map-notice')

    // On localhost, the local-dev key (linked to localhost) gets its tiles.
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
    expect(await loaded.count()).toBeGreaterThan(0)
    expect(await notice.count()).toBe(0)
    // They are in the log (folded away until asked for): 200s, decided on the <img>'s Referer.
    await page.getByLabel('Map tiles').check()
    const tiles = page.getByTestId('log-entry').filter({ hasText: 'tiles.tmaps.tn/r-tile/' })
    expect(await tiles.count()).toBeGreaterThan(0)
    for (const row of await tiles.all()) {
      expect(await row.textContent()).toMatch(
        /^200GETtiles\.tmaps\.tn\/r-tile\/\d+\/\d+\/\d+\?api_key=ak_[0-9a-f]{4}…&v=\d+ak_[0-9a-f]{4}…ok[\d.<]+ m?s[\d.]+ k?B$/,
      )
      expect(await row.getAttribute('title')).toMatch(
        /\nReferer \(reconstructed\) http:\/\/localhost:\d+\/ -> host localhost is linked to key/,
      )
    }
    await screenshot(page, '12-map')

    // The tiles are drawn in the page's render worker: the same bytes as Node draws.
    const tileSrc = (await loaded.first().getAttribute('src'))!
    const drawn = await page.evaluate(async (src) => {
      const bytes = await (await fetch(src)).arrayBuffer()
      return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    }, tileSrc)
    const [z, x, y] = new URL(tileSrc).pathname.split('/').slice(2).map(Number) as [number, number, number]
    const { renderTile } = await import('../../src/map/render.ts')
    const inNode = [
      ...new Uint8Array(await crypto.subtle.digest('SHA-256', await renderTile('tmaps', z, x, y))),
    ]
    expect(drawn).toEqual(inNode)
    expect(
      await page.evaluate(() =>
        performance.getEntriesByType('resource').some((e) => e.name.includes('render-worker')),
      ),
    ).toBe(true)

    // The production key is not linked to localhost: every tile is refused, and the map says why.
    await selectKey(page, 'Tiles key', 'Production frontend')
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('refused')
    await expect.poll(() => notice.textContent()).toContain('is not linked')
    expect(await notice.textContent()).toMatch(/^Tiles refused \(403\) · \d+ tiles? failed/)
    expect(await notice.getByTestId('map-notice-reason').textContent()).toMatch(
      /^Referer \(reconstructed\) http:\/\/localhost:\d+\/ -> host localhost is not linked to key ak_[0-9a-f]{4}…; linked: .+\.$/,
    )
    expect(await notice.textContent()).toContain('Map tiles are <img> requests: they send only a Referer')
    expect(await loaded.count()).toBe(0)
    await screenshot(page, '13-map-refused')

    // Back to the local-dev key: the tiles load again, the notice is gone.
    await selectKey(page, 'Tiles key', 'Web app (local dev)')
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
    expect(await notice.count()).toBe(0)
    expect(await loaded.count()).toBeGreaterThan(0)

    // Unlink this page's host from the tiles' key: the map is refused at once, and its notice
    // links it back in one click.
    await page.getByRole('button', { name: 'Unlink localhost from Web app (local dev)' }).click()
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('refused')
    await expect.poll(() => notice.textContent()).toContain('host localhost is not linked')
    expect(await loaded.count()).toBe(0)
    await notice.getByRole('button', { name: 'Link localhost to Web app (local dev)' }).click()
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
    expect(await notice.count()).toBe(0)
    expect(await loaded.count()).toBeGreaterThan(0)
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it('draws the decision as steps and fixes a refusal in one click: link the host, enable the key', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const { page, errors } = await openPage(context, localhost)
    const result = page.getByTestId('result')
    const steps = page.getByRole('list', { name: 'How TMaps decided, step by step' })
    const states = () =>
      steps.getByTestId('decision-step').evaluateAll((els) => els.map((el) => el.dataset.state))
    const seq = async () => Number(await result.getAttribute('data-seq'))

    // The production key is not linked to localhost: the host step is crossed, the endpoint not reached.
    expect((await send(page, 'Production frontend')).status).toBe(403)
    expect(await states()).toEqual(['pass', 'pass', 'pass', 'pass', 'fail', 'not-reached'])
    // Each step: an icon, its state in words (for screen readers), and the fact it used.
    expect(await steps.getByTestId('decision-step').first().textContent()).toBe('✓passed: Scheme https')
    const texts = await steps.locator('.step-text').allTextContents()
    expect(texts).toEqual([
      'Scheme https',
      expect.stringMatching(/^Key ak_[0-9a-f]{4}… found$/),
      'Status enabled',
      `Origin (reconstructed) ${localhost.slice(0, -1)}`,
      'Host localhost is not linked (linked: app.jasmin-delivery.tn, www.jasmin-delivery.tn)',
      'Endpoint: not reached',
    ])
    const link = result.getByRole('button', { name: 'Link localhost to Production frontend' })
    await screenshot(page, '14-decision-steps')

    // One click links it and sends the same request again: 200, every step ticked, the log moved on.
    const before = await seq()
    await link.click()
    await expect.poll(seq, { timeout: 10_000 }).toBeGreaterThan(before)
    expect(await page.getByTestId('result-status').textContent()).toBe('200')
    expect(await states()).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass'])
    expect(await steps.locator('.step-text').last().textContent()).toBe(
      'Endpoint geocoding/forward answered 200',
    )
    expect(await page.getByTestId('log-entry').first().textContent()).toMatch(/^200/)
    const linked = keyCard(page, 'Production frontend').getByRole('list', {
      name: 'Domains linked to Production frontend',
    })
    expect(await linked.textContent()).toContain('localhost')
    expect(await result.getByTestId('fix').count()).toBe(0)

    // Disabled: 401, the status step crossed, the same-body note, and "Enable this key" gives 200.
    await keyCard(page, 'Production frontend').getByRole('switch').click()
    await expect
      .poll(() => keyCard(page, 'Production frontend').getByTestId('status').textContent())
      .toBe('disabled')
    expect((await send(page, 'Production frontend')).status).toBe(401)
    expect(await states()).toEqual(['pass', 'pass', 'fail', 'not-reached', 'not-reached', 'not-reached'])
    expect(await result.getByTestId('same-401').textContent()).toContain('for every 401 on purpose')
    const again = await seq()
    await result.getByRole('button', { name: 'Enable this key' }).click()
    await expect.poll(seq, { timeout: 10_000 }).toBeGreaterThan(again)
    expect(await page.getByTestId('result-status').textContent()).toBe('200')
    expect(await states()).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass'])
    expect(await keyCard(page, 'Production frontend').getByTestId('status').textContent()).toBe('enabled')
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it('shows the log as a network panel does: one line a request, details on a click; clears it and exports HAR', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
    const { page, errors } = await openPage(context, localhost)
    const log = page.getByTestId('log-entry')
    expect((await send(page, 'Production frontend')).status).toBe(403)
    expect((await send(page, 'Web app (local dev)')).status).toBe(200)
    await expect.poll(() => log.count()).toBe(2)

    // One line per request: status, method, the URL with its query and the key masked, the key,
    // the rule, the time and the size, each in its own column.
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'Status',
      'Method',
      'URL',
      'Key',
      'Rule',
      'Time',
      'Size',
    ])
    const cells = (row: number) =>
      log.nth(row).evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))
    const query =
      /^api\.tmaps\.tn\/geocoding\/forward\?q=Avenue\+Habib\+Bourguiba,\+Tunis&limit=3&api_key=ak_[0-9a-f]{4}…$/
    expect(await cells(0)).toEqual([
      '200',
      'GET',
      expect.stringMatching(query),
      expect.stringMatching(/^ak_[0-9a-f]{4}…$/),
      'ok',
      // The first geocode of a page builds the geocoder's data: on a busy machine, seconds.
      expect.stringMatching(/^(<0\.1|\d+(\.\d)?) m?s$/),
      expect.stringMatching(/^\d+(\.\d)? kB$/),
    ])
    expect(await cells(1)).toEqual([
      '403',
      'GET',
      expect.stringMatching(query),
      expect.stringMatching(/^ak_[0-9a-f]{4}…$/),
      'domain-not-authorized',
      expect.stringMatching(/ ms$/),
      '33 B',
    ])
    for (const row of await log.all()) {
      const box = (await row.boundingBox())!
      expect(box.height).toBeLessThan(26) // one line
    }
    // Never more of a key than its prefix, in a line or in its tooltip.
    const shown = await page.locator('.log-panel').evaluate((el) => el.outerHTML)
    expect(shown).toMatch(/api_key=ak_[0-9a-f]{4}…/)
    expect(shown).not.toMatch(/ak_[0-9a-f]{5}/)

    // Opened (from the keyboard): the request, the header used and how it is known, the answer,
    // when, how long and how big; it fits the panel's width.
    const newest = log.first()
    await newest.getByTestId('log-url').focus()
    await page.keyboard.press('Enter')
    const detail = page.getByTestId('log-detail')
    await detail.waitFor()
    expect(await newest.getByTestId('log-url').getAttribute('aria-expanded')).toBe('true')
    expect(await detail.textContent()).toMatch(
      /^RequestGET https:\/\/api\.tmaps\.tn\/geocoding\/forward\?q=Avenue\+Habib\+Bourguiba,\+Tunis&limit=3&api_key=ak_[0-9a-f]{4}…Origin/,
    )
    expect(await page.getByTestId('log-header').textContent()).toBe(
      `Origin: ${localhost.slice(0, -1)} (reconstructed)`,
    )
    expect(await detail.textContent()).toMatch(
      /Keyak_[0-9a-f]{4}…Decisionevery step passedAnswer200 · rule ok · Origin/,
    )
    expect(await detail.textContent()).toMatch(
      /When.+ · answered in .+ m?s · \d+(\.\d)? kB of application\/json/,
    )
    const [panel, opened] = await Promise.all([
      page.locator('.log-scroll').boundingBox(),
      detail.boundingBox(),
    ])
    expect(opened!.x).toBeGreaterThanOrEqual(panel!.x)
    expect(opened!.x + opened!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 0.5)
    expect(await page.locator('.log-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await screenshot(page, '15-log-entry')
    // A click on the line closes it.
    await newest.getByTestId('log-url').click()
    await expect.poll(() => detail.count()).toBe(0)

    // Export HAR: the entries shown, as a HAR 1.2 file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export HAR' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('tmaps-mock-log.har')
    const har = JSON.parse(readFileSync((await download.path())!, 'utf8'))
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries).toHaveLength(await log.count())
    expect(har.log.entries[0].request.headers).toEqual([{ name: 'Origin', value: localhost.slice(0, -1) }])

    // Clear log: the list is empty.
    await page.getByRole('button', { name: 'Clear log' }).click()
    await expect.poll(() => log.count()).toBe(0)
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it('fits one laptop screen (1440 x 900), reflows at 200% zoom, and works from the keyboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const { page, errors } = await openPage(context, localhost)
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
    // Console (keys and domains side by side), request, map and log: all on the first screen.
    const boxes = await page.evaluate(() =>
      ['#keys-title', '#domains-title', '#composer-title', '#map-title', '#log-title'].map((id) => {
        const panel = document.querySelector(id)!.closest('.panel')!.getBoundingClientRect()
        return { id, left: panel.left, top: panel.top, bottom: panel.bottom, right: panel.right }
      }),
    )
    for (const box of boxes) {
      expect(box.bottom, box.id).toBeLessThanOrEqual(900)
      expect(box.right, box.id).toBeLessThanOrEqual(1440)
    }
    // The console's two tabs in one column, keys above domains; the map above the log.
    expect(boxes[1]!.left).toBe(boxes[0]!.left)
    expect(boxes[1]!.top).toBeGreaterThan(boxes[0]!.bottom - 1)
    expect(boxes[4]!.top).toBeGreaterThan(boxes[3]!.bottom - 1)
    const map = await page.locator('.map-canvas').boundingBox()
    expect(map!.width * map!.height).toBeGreaterThan(350 * 250)
    // The status switch answers the keyboard: Space turns the key off.
    const toggle = keyCard(page, 'Backend (server-side)').getByRole('switch')
    await toggle.focus()
    await page.keyboard.press('Space')
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
    await page.keyboard.press('Space')
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')
    await context.close()

    // 200% zoom on the same screen: 720 x 450 CSS pixels, one column, nothing cut at the side.
    const zoomed = await browser.newContext({ viewport: { width: 720, height: 450 }, deviceScaleFactor: 2 })
    const two = await openPage(zoomed, localhost)
    await two.page.getByRole('heading', { name: 'API keys' }).waitFor()
    expect(await two.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(720)
    const lefts = await two.page.evaluate(() =>
      [...document.querySelectorAll('.workspace > .panel')].map((p) =>
        Math.round(p.getBoundingClientRect().left),
      ),
    )
    expect(new Set(lefts).size).toBe(1)
    await screenshot(two.page, '16-zoom-200')
    expect([...errors(), ...two.errors()]).toEqual([])
    await zoomed.close()
  }, 60_000)

  it.each([
    [1280, 720],
    [1440, 900],
  ])(
    'keeps the demo’s key moments in view at %i x %i: the answer, the failing step, its fix, the refused map',
    async (width, height) => {
      const context = await browser.newContext({ viewport: { width, height } })
      const { page, errors } = await openPage(context, localhost)
      await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
      const result = page.getByTestId('result')
      const notice = page.getByTestId('map-notice')
      const seq = async () => Number(await result.getAttribute('data-seq'))
      // The first screen is the workspace (faults and usage are below it), and nothing is scrolled.
      const noPageScroll = () =>
        page.evaluate(() => ({
          x: document.documentElement.scrollWidth <= innerWidth,
          y:
            scrollY === 0 && document.querySelector('.screen')!.getBoundingClientRect().bottom <= innerHeight,
        }))

      // At first sight the whole country fills the map: inside it, and most of its height or width.
      const country = await tunisiaOnTheMap(page)
      expect(country.top).toBeGreaterThanOrEqual(0)
      expect(country.left).toBeGreaterThanOrEqual(0)
      expect(country.bottom).toBeLessThanOrEqual(country.height)
      expect(country.right).toBeLessThanOrEqual(country.width)
      expect(
        Math.max(
          (country.bottom - country.top) / country.height,
          (country.right - country.left) / country.width,
        ),
      ).toBeGreaterThan(0.7)
      // And the map is a real part of the screen, not a strip.
      expect(country.height).toBeGreaterThanOrEqual(height / 3)
      expect(country.width * country.height).toBeGreaterThanOrEqual(0.12 * width * height)

      // Each key select shows every key's name and status in full (not "· er").
      for (const id of ['#key', '#tiles-key']) {
        const cut = await page.locator(id).evaluate((select: HTMLSelectElement) => {
          const style = getComputedStyle(select)
          const context = document.createElement('canvas').getContext('2d')!
          context.font = `${style.fontSize} ${style.fontFamily}`
          const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - 24 // the arrow
          return [...select.options]
            .map((o) => o.text)
            .filter((text) => context.measureText(text).width > room)
        })
        expect(cut, id).toEqual([])
      }
      // A domain's Remove stays on its name's line; a linked key's chip stays on one line.
      for (const card of await page.getByTestId('domain').all()) {
        const [name, remove] = await Promise.all([
          card.locator('strong').boundingBox(),
          card.getByRole('button', { name: /^Remove / }).boundingBox(),
        ])
        expect(remove!.y).toBeLessThan(name!.y + name!.height)
        for (const chip of await card.locator('.chip').all())
          expect((await chip.boundingBox())!.height).toBeLessThan(30)
      }

      // Accepted; then localhost is unlinked: the answer says it was given before, dimmed.
      expect((await send(page, 'Web app (local dev)')).status).toBe(200)
      expect(await result.getAttribute('data-stale')).toBe('false')
      await page.getByRole('button', { name: 'Unlink localhost from Web app (local dev)' }).click()
      await expect.poll(() => result.getAttribute('data-stale')).toBe('true')
      const stale = page.getByTestId('result-stale')
      expect(await stale.textContent()).toBe(
        'Sent before you unlinked localhost from “Web app (local dev)”.Send again',
      )
      expect(await wholly(stale)).toBe(true)
      expect(
        await page.getByTestId('result-status').evaluate((el) => getComputedStyle(el.parentElement!).opacity),
      ).toBe('0.5')
      await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('refused')

      // Sent again from the note: refused, the host step crossed, the fix offered, the map refused too.
      const before = await seq()
      await stale.getByRole('button', { name: 'Send again' }).click()
      await expect.poll(seq, { timeout: 10_000 }).toBeGreaterThan(before)
      expect(await page.getByTestId('result-status').textContent()).toBe('403')
      expect(await result.getAttribute('data-stale')).toBe('false')
      const moments: Array<[string, Locator]> = [
        ['the status', page.getByTestId('result-status')],
        ['the reason', page.getByTestId('result-reason')],
        ['the failing step', result.locator('[data-testid="decision-step"][data-state="fail"]')],
        ['the fix', result.getByRole('button', { name: 'Link localhost to Web app (local dev)' })],
        ['the map’s notice', notice],
        ['the map’s fix', notice.getByRole('button', { name: 'Link localhost to Web app (local dev)' })],
        ['Retry tiles', notice.getByRole('button', { name: 'Retry tiles' })],
      ]
      await notice.waitFor()
      for (const [what, locator] of moments) expect(await wholly(locator), what).toBe(true)
      expect(await noPageScroll()).toEqual({ x: true, y: true })
      // The notice leaves the map's attribution readable.
      const [over, attribution] = await Promise.all([
        notice.boundingBox(),
        page.locator('.leaflet-control-attribution').boundingBox(),
      ])
      expect(over!.y + over!.height).toBeLessThanOrEqual(attribution!.y)
      await screenshot(page, `17-key-moments-${width}x${height}`)

      // The fix: one click, 200, and the map's tiles load again.
      const again = await seq()
      await result.getByRole('button', { name: 'Link localhost to Web app (local dev)' }).click()
      await expect.poll(seq, { timeout: 10_000 }).toBeGreaterThan(again)
      expect(await page.getByTestId('result-status').textContent()).toBe('200')
      expect(await result.getAttribute('data-stale')).toBe('false')
      await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')

      // Disabled: the answer is stale again, then 401 with "Enable this key" in view, and the map's own.
      await keyCard(page, 'Web app (local dev)').getByRole('switch').click()
      await expect
        .poll(() => stale.textContent())
        .toBe('Sent before you disabled “Web app (local dev)”.Send again')
      expect((await send(page, 'Web app (local dev)')).status).toBe(401)
      await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('refused')
      for (const locator of [
        result.locator('[data-testid="decision-step"][data-state="fail"]'),
        result.getByRole('button', { name: 'Enable this key' }),
        notice.getByRole('button', { name: 'Enable Web app (local dev)' }),
      ])
        expect(await wholly(locator)).toBe(true)
      expect(await noPageScroll()).toEqual({ x: true, y: true })
      expect(errors()).toEqual([])
      await context.close()
    },
    90_000,
  )

  it('shows the title on a phone (390 x 844), clear of the header’s buttons', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const { page, errors } = await openPage(context, localhost)
    const title = (await page.getByRole('heading', { name: 'tmaps-mock playground' }).boundingBox())!
    const text = await page.getByRole('heading', { name: 'tmaps-mock playground' }).evaluate((h) => {
      const range = document.createRange()
      range.selectNodeContents(h)
      const box = range.getBoundingClientRect()
      return { width: box.width, height: box.height }
    })
    expect(title.width).toBeGreaterThanOrEqual(text.width)
    expect(text.height).toBeLessThan(40) // one line
    for (const name of ['Reset to demo', 'Export state', 'Import state']) {
      const button = (await page.locator('.top-actions').getByText(name, { exact: true }).boundingBox())!
      const apart =
        button.y >= title.y + title.height ||
        button.y + button.height <= title.y ||
        button.x >= title.x + title.width ||
        button.x + button.width <= title.x
      expect(apart, name).toBe(true)
      expect(button.x + button.width).toBeLessThanOrEqual(390)
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, '18-phone-header')
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)

  it.each([
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ])(
    'frames the whole country above the map’s credit at $width x $height',
    async (viewport) => {
      const context = await browser.newContext({ viewport })
      const { page, errors } = await openPage(context, localhost)
      await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
      const canvas = page.locator('.map-canvas')
      const [view, box, credit] = await Promise.all([
        canvas.evaluate((el) => ({
          zoom: Number(el.dataset.zoom),
          center: el.dataset.center!.split(',').map(Number),
        })),
        canvas.boundingBox(),
        page.locator('.leaflet-control-attribution').boundingBox(),
      ])
      // Web Mercator: where a latitude falls in the map, from its centre and zoom.
      const y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))
      const px = (lat: number) =>
        box!.y + box!.height / 2 - ((y(lat) - y(view.center[0]!)) * 256 * 2 ** view.zoom) / (2 * Math.PI)
      // Its southern tip (the frame's 30.2° N) above the credit (two lines on a phone), Cap Blanc below the
      // top.
      expect(px(30.2)).toBeLessThanOrEqual(credit!.y + 1)
      expect(px(37.4)).toBeGreaterThanOrEqual(box!.y - 1)
      expect(errors()).toEqual([])
      await context.close()
    },
    60_000,
  )

  it('is usable at 360 px wide, labels every control and shows the data attribution', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } })
    const { page, errors } = await openPage(context, localhost)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea, button')]
        .filter((el) => {
          const control = el as HTMLInputElement
          const named =
            (control.labels?.length ?? 0) > 0 ||
            control.getAttribute('aria-label') ||
            (el.tagName === 'BUTTON' && el.textContent?.trim())
          return !named
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    )
    expect(unlabeled).toEqual([])
    expect(await page.locator('footer').textContent()).toContain('GeoNames')
    await expect.poll(() => mapTiles(page), { timeout: 15_000 }).toBe('loaded')
    // The land and water are OpenStreetMap-derived (ODbL): credited on the page and on the map.
    expect(await page.locator('footer').textContent()).toContain('© OpenStreetMap contributors')
    expect(await page.locator('.leaflet-control-attribution').textContent()).toContain(
      '© OpenStreetMap contributors',
    )
    const shot = await screenshot(page, '10-narrow')
    expect(statSync(shot).size).toBeGreaterThan(10_000)
    expect(errors()).toEqual([])
    await context.close()
  }, 60_000)
})
