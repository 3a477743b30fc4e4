import { test as base, expect } from '@playwright/test'
import { type TmapsTestFixtures, type TmapsWorkerFixtures, tmapsFixtures } from 'tmaps-mock/playwright'

// One mock per worker, routed into every test's whole browser context, reset after each test.
const test = base.extend<TmapsTestFixtures, TmapsWorkerFixtures>(tmapsFixtures({ state: 'empty' }))

// Your app, served by your own route (it keeps working beside the mock's); it opens a popup
// that geocodes too.
const APP = 'http://localhost:4173/'
const app = `<output></output><button>Open</button><script type="module">
  const key = new URL(location.href).searchParams.get('key')
  const response = await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=' + key)
  document.querySelector('output').textContent = String(response.status)
  document.querySelector('button').onclick = () => window.open(location.href)
</script>`

test.beforeEach(async ({ page }) => {
  await page.context().route(`${APP}**`, (route) => route.fulfill({ contentType: 'text/html', body: app }))
})

test('answers the page and its popup, beside your own routes', async ({ page, tmaps }) => {
  const { value } = await tmaps.console.createKey({ name: 'E2E', domains: ['localhost'] })
  // A route of your own on the page, for another host: both work.
  await page.route('https://cdn.example.tn/**', (route) =>
    route.fulfill({ body: 'ok', headers: { 'Access-Control-Allow-Origin': '*' } }),
  )
  await page.goto(`${APP}?key=${value}`)
  await expect(page.locator('output')).toHaveText('200')
  expect(await page.evaluate(async () => (await fetch('https://cdn.example.tn/x')).text())).toBe('ok')
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('button').click()])
  await expect(popup.locator('output')).toHaveText('200')
  expect(tmaps.log.entries().map((entry) => entry.status)).toEqual([200, 200])
})

test('starts every test from the same state', async ({ page, tmaps }) => {
  expect(tmaps.console.listKeys()).toEqual([]) // the key of the test before is gone
  expect(tmaps.log.entries()).toEqual([])
  const { value } = await tmaps.console.createKey({ name: 'Other site', domains: ['shop.example.tn'] })
  await page.goto(`${APP}?key=${value}`)
  await expect(page.locator('output')).toHaveText('403')
})
