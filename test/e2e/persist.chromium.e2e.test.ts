import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium, serveApp, watchErrors } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { APP_KEY } from './persist-app/app-key.ts'

/**
 * `setupTmapsWorker` with `persist` in Chromium (`test/e2e/persist-app/`: an empty console plus
 * the app's own key through `keys`, kept under one `localStorage` name): a change survives a
 * reload, `reset()` goes back to the configured state (not to the stored one) and is stored in
 * turn, and the origin’s other tabs follow, their usage counts added up.
 */
let browser: Browser
let app: Awaited<ReturnType<typeof serveApp>>
let context: BrowserContext
let first: Page
/** What each tab reported as errors. */
const errors: string[][] = []

beforeAll(async () => {
  ;[browser, app] = await Promise.all([
    launchChromium(),
    serveApp('test/e2e/persist-app/vite.config.ts', 'persist-app'),
  ])
  context = await browser.newContext()
}, 120_000)
afterAll(() =>
  cleanUp({
    'close the browser': () => browser?.close(),
    'stop the app': () => app?.close(),
  }),
)

/** A new tab of the context on the app, once its mock has started. */
async function open(): Promise<Page> {
  const page = await context.newPage()
  errors.push(watchErrors(page))
  await page.goto(`http://localhost:${app.port}/`)
  await page.waitForFunction(() => window.started)
  return page
}
async function reload(page: Page): Promise<void> {
  await page.reload()
  await page.waitForFunction(() => window.started)
}
/** The console's keys as `name: domains`. */
const keys = (page: Page) =>
  page.evaluate(() =>
    window.tmaps!.console.listKeys().map((k) => `${k.name}: ${k.domains.join(' ') || 'no domain'}`),
  )
/** The status of the app's geocode from the page (its Origin: http://localhost:<port>). */
const geocode = (page: Page) =>
  page.evaluate(
    async (key) => (await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key}`)).status,
    APP_KEY,
  )

it('starts from the configured state and its keys, and keeps a change across a reload', async () => {
  first = await open()
  expect(await keys(first)).toEqual(['App: localhost'])
  expect(await geocode(first)).toBe(200)
  await first.evaluate(async (key) => {
    await window.tmaps!.console.createKey({ name: 'Extra' })
    await window.tmaps!.console.unlinkDomain(key, 'localhost')
  }, APP_KEY)
  await reload(first)
  expect(await keys(first)).toEqual(['App: no domain', 'Extra: no domain'])
  expect(await geocode(first)).toBe(403)
})

it('resets to the configured state, not the stored one, keeps it across a reload, and other tabs follow', async () => {
  const second = await open()
  expect(await geocode(second)).toBe(403)
  await first.evaluate(() => window.tmaps!.reset())
  expect(await keys(first)).toEqual(['App: localhost'])
  expect(await geocode(first)).toBe(200)
  // The other tab loads the reset state before its next request.
  expect(await geocode(second)).toBe(200)
  expect(await keys(second)).toEqual(['App: localhost'])
  await reload(first)
  expect(await keys(first)).toEqual(['App: localhost'])
  expect(await geocode(first)).toBe(200)
  await second.close()
  expect(errors.flat()).toEqual([])
})

it('adds up the usage counts of both tabs, and each tab shows them all', async () => {
  const second = await open()
  const total = (page: Page) => page.evaluate((key) => window.tmaps!.usage(key).total, APP_KEY)
  await expect.poll(async () => (await total(first)) === (await total(second))).toBe(true)
  const before = await total(first)
  await geocode(first)
  await geocode(second)
  await geocode(second)
  await expect.poll(() => total(first), { timeout: 10_000 }).toBe(before + 3)
  await expect.poll(() => total(second), { timeout: 10_000 }).toBe(before + 3)
  await second.close()
  expect(errors.flat()).toEqual([])
})
