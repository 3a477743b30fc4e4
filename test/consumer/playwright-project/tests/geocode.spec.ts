import { expect, test } from '@playwright/test'
import { createTmapsMock } from 'tmaps-mock'
import { routeTmaps } from 'tmaps-mock/playwright'

// Your app; here a page that geocodes with the key of its URL, served by Playwright itself.
const APP = 'http://localhost:4173/'
const page_html = `<output></output><script type="module">
  const key = new URL(location.href).searchParams.get('key')
  const response = await fetch('https://api.tmaps.tn/geocoding/forward?q=Sousse&api_key=' + key)
  document.querySelector('output').textContent = response.status + ' ' + (await response.text())
</script>`

test.beforeEach(async ({ page }) => {
  await page.route(`${APP}**`, (route) => route.fulfill({ contentType: 'text/html', body: page_html }))
})

test('geocodes from the app, with the Origin the browser really sent', async ({ page }) => {
  const mock = createTmapsMock({ state: 'empty' })
  const { value } = await mock.console.createKey({ name: 'E2E', domains: ['localhost'] })
  await routeTmaps(page, mock)
  await page.goto(`${APP}?key=${value}`)
  await expect(page.locator('output')).toContainText('200 {"query":"Sousse"')
  expect(mock.log.entries()[0]?.facts).toMatchObject({ via: 'origin', header: 'http://localhost:4173' })
})

test('is refused when the key is not linked to the app', async ({ page }) => {
  const mock = createTmapsMock({ state: 'empty' })
  const { value } = await mock.console.createKey({ name: 'Other site', domains: ['shop.example.tn'] })
  await routeTmaps(page, mock)
  await page.goto(`${APP}?key=${value}`)
  await expect(page.locator('output')).toHaveText('403 {"error":"domain not authorized"}')
})
