import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TmapsMockCore } from '../../src/core/create-core.ts'
import { tmapsFixtures } from '../../src/runtimes/playwright/index.ts'
import type { TmapsHar } from '../../src/upstream/har.ts'
import { launchChromium } from '../support/browser.ts'
import { APP_ORIGIN, REAL_KEY, type StandIn, startStandIn } from '../support/stand-in-tmaps.ts'

/**
 * The Playwright fixtures recording TMaps (`tmapsFixtures({ upstream, record })`), one HAR per
 * test file, from a real Chromium page on the app's origin, against a stand-in TMaps on a real
 * HTTPS socket. The runner's part (a worker, its tests and their `testInfo.file`) is played by
 * hand, as the fixtures' own example does.
 */
let standIn: StandIn
let browser: Browser
beforeAll(async () => {
  standIn = await startStandIn()
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await standIn?.close()
})

const PAGE = `<output></output><script type="module">
  const key = new URL(location.href).searchParams.get('key')
  const q = new URL(location.href).searchParams.get('q')
  const response = await fetch('https://api.tmaps.tn/geocoding/forward?q=' + q + '&api_key=' + key)
  document.querySelector('output').textContent = response.status + ' ' + (await response.text())
</script>`

/** One Playwright worker running `files` (each: the places its test geocodes from the app's page). */
async function runWorker(key: string | undefined, dir: string, files: Record<string, string[]>) {
  const {
    tmapsMock: [perWorker],
    tmaps: [perTest],
  } = tmapsFixtures({
    state: 'empty',
    upstream: { key, api: standIn.url, tiles: standIn.url, ca: standIn.ca },
    record: { har: (testFile) => join(dir, `${basename(testFile)}.har`) },
  })
  const shown: string[] = []
  await perWorker({}, async (mock: TmapsMockCore) => {
    for (const [file, places] of Object.entries(files)) {
      const context = await browser.newContext()
      await context.route(`${APP_ORIGIN}/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: PAGE }),
      )
      try {
        await perTest(
          { context, tmapsMock: mock },
          async (tmaps) => {
            const { value } = await tmaps.console.createKey({ name: 'E2E', domains: ['app.example.tn'] })
            const page = await context.newPage()
            for (const q of places) {
              await page.goto(`${APP_ORIGIN}/?key=${value}&q=${q}`)
              await page
                .locator('output')
                .filter({ hasText: /\d{3} / })
                .waitFor()
              shown.push(
                `${(await page.locator('output').textContent())?.slice(0, 3)} ${tmaps.log.entries()[0]?.source}`,
              )
            }
          },
          { file: `/work/app/tests/${file}` },
        )
      } finally {
        await context.close()
      }
    }
  })
  return shown
}

const entriesOf = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as TmapsHar).log.entries

it('records one HAR per test file through the real browser, with its real Origin, then replays them without a key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-record-fixture-'))
  const before = standIn.seen.length
  const recorded = await runWorker(REAL_KEY, dir, {
    'search.spec.ts': ['Sfax', 'Sfax'],
    'trip.spec.ts': ['Gabes'],
  })
  expect(recorded).toEqual(['200 upstream', '200 replay', '200 upstream'])
  const sent = standIn.seen.slice(before)
  expect(sent).toHaveLength(2)
  // The browser's own Origin went to TMaps (the real key is linked to the app there); msw was not involved.
  expect(sent.map((r) => r.headers.origin)).toEqual([APP_ORIGIN, APP_ORIGIN])
  expect(sent.every((r) => !String(r.headers.accept ?? '').includes('msw'))).toBe(true)
  const search = join(dir, 'search.spec.ts.har')
  const trip = join(dir, 'trip.spec.ts.har')
  expect(entriesOf(search).map((e) => new URL(e.request.url).searchParams.get('q'))).toEqual(['Sfax'])
  expect(entriesOf(trip).map((e) => new URL(e.request.url).searchParams.get('q'))).toEqual(['Gabes'])
  for (const file of [search, trip]) expect(readFileSync(file, 'utf8')).not.toMatch(/ak_[0-9a-f]{32}/)
  // CI without the secret: both files replayed, TMaps never asked; a place not recorded is a 500.
  const replayed = await runWorker(undefined, dir, {
    'search.spec.ts': ['Sfax', 'Tunis'],
    'trip.spec.ts': ['Gabes'],
  })
  expect(replayed).toEqual(['200 replay', '500 replay-miss', '200 replay'])
  expect(standIn.seen.length).toBe(before + 2)
  expect(existsSync(join(dir, 'other.spec.ts.har'))).toBe(false)
})
