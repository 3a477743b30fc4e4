import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM, launchChromium, watchErrors } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, filesOf, root } from '../support/packed.ts'

/**
 * Consumer: a Storybook 10 project (`test/consumer/storybook-project/`, Preact + Vite) with a
 * place search on TMaps (geocoding and a Leaflet map of TMaps tiles), whose `.storybook/preview.ts`
 * has one loader, `tmapsLoader()` from `tmaps-mock/storybook`, installed from the packed tarball.
 * Each story says its console or faults in `parameters.tmaps` and asserts what a user sees in its
 * play function. The static build is opened in Chromium, story after story in one page and in
 * reverse order (a story's mock never leaks into the next); then the manager UI; then the
 * Storybook Vitest addon runs the play functions.
 */
const fixture = join(import.meta.dirname, 'storybook-project')
const env = { STORYBOOK_DISABLE_TELEMETRY: '1', CHROMIUM_PATH: CHROMIUM }
const SCREENSHOTS = join(root, '.scratch')

interface StoryCase {
  id: string
  /** What the user reads once the story's play function is done. */
  shows: string
  /** The map's tiles: drawn by the mock, or refused (the map says so). */
  tiles: 'loaded' | 'refused'
}

// biome-ignore format: a table reads best with one story a line
const STORIES: StoryCase[] = [
  { id: 'placesearch--works', shows: '3000 Sfax, Tunisie', tiles: 'loaded' },
  { id: 'placesearch--key-disabled', shows: 'API key refused (401)', tiles: 'refused' },
  { id: 'placesearch--domain-not-authorized', shows: 'This site is not authorized (403)', tiles: 'refused' },
  { id: 'placesearch--rate-limited', shows: 'Too many requests (429)', tiles: 'loaded' },
  { id: 'placesearch--slow-network', shows: '3000 Sfax, Tunisie', tiles: 'loaded' },
  { id: 'placesearch--no-results', shows: 'No place matches “Sfax”.', tiles: 'loaded' },
  { id: 'placesearch--key-disabled-with-override', shows: 'API key refused (401)', tiles: 'refused' },
  { id: 'placesearch--own-handler', shows: 'Café Diwan, Sfax', tiles: 'loaded' },
  { id: 'placesearch--recorded', shows: 'Grande Mosquée de Kairouan, 3100 Kairouan, Tunisie', tiles: 'loaded' },
]

let project: ConsumerProject
let server: Server
let base: string
let browser: Browser
let page: Page
let errors: string[] = []

beforeAll(async () => {
  project = await consumerProject('storybook-project', {
    files: filesOf(fixture),
  })
  project.run('npx', ['storybook', 'build', '--quiet'], { env, timeout: 120_000 })
  ;({ server, base } = await serveStatic(join(project.dir, 'storybook-static')))
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 800, height: 440 } })
  await page.addInitScript(recordStoryEvents)
  errors = watchErrors(page)
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 400_000)

afterAll(() =>
  cleanUp({
    'close the browser': () => browser?.close(),
    'stop the static server': () => server?.close(),
    'remove the project': () => project?.remove(),
  }),
)

it('type-checks the stories, the component and .storybook against the published types', () => {
  project.run(join(root, 'node_modules/.bin/tsc'), ['-p', '.'])
})

it('builds a static Storybook with msw’s worker script and every story', () => {
  const built = join(project.dir, 'storybook-static')
  expect(existsSync(join(built, 'mockServiceWorker.js'))).toBe(true)
  const index = JSON.parse(readFileSync(join(built, 'index.json'), 'utf8')) as { entries: object }
  expect(Object.keys(index.entries).sort()).toEqual(STORIES.map((s) => s.id).sort())
})

// In reverse order, in one page: each story starts from its own parameters.tmaps, whatever ran before.
it.each([...STORIES].reverse().map((s) => [s.id, s]))(
  'renders %s: its play function passes and the user sees what its mock says',
  async (id, story) => {
    await page.goto(`${base}/iframe.html?id=${id}&viewMode=story`)
    if (id === 'placesearch--slow-network') {
      // The answer is held back 2 s: the loading state is visible first.
      await page.getByRole('status').filter({ hasText: 'Searching for “Sfax”…' }).waitFor()
      await page.screenshot({ path: join(SCREENSHOTS, 'storybook-slow-network-loading.png') })
    }
    expect(await storyFinished(page, id)).toEqual({ event: 'storyFinished', storyId: id, status: 'success' })
    await expect.poll(() => page.locator('#storybook-root').innerText()).toContain(story.shows)
    if (story.tiles === 'loaded') {
      // Every tile of the view drawn by the mock (256 px PNGs), none refused.
      await page.waitForFunction(() => {
        const tiles = [...document.querySelectorAll<HTMLImageElement>('img.leaflet-tile')]
        const drawn = (tile: HTMLImageElement) =>
          tile.classList.contains('leaflet-tile-loaded') && getComputedStyle(tile).opacity === '1' // faded in
        return tiles.length > 3 && tiles.every(drawn)
      })
      const widths = await page.$$eval('img.leaflet-tile', (tiles) =>
        tiles.map((tile) => (tile as HTMLImageElement).naturalWidth),
      )
      expect(new Set(widths)).toEqual(new Set([256]))
      expect(await page.getByText('Map tiles refused').count()).toBe(0)
    } else {
      await page.getByText('Map tiles refused: check the key and its authorized domains.').waitFor()
    }
    // The page came under the worker's control without a reload.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.type)).toBe('navigate')
    await page.screenshot({ path: join(SCREENSHOTS, `storybook-${id.replace('placesearch--', '')}.png`) })
    expect(errors).toEqual([])
  },
)

it('answers the same in the manager UI, story after story in its preview iframe', async () => {
  // The same tab as the stories above: the preview iframe must come under the worker's control.
  await page.setViewportSize({ width: 1200, height: 700 })
  await page.goto(`${base}/?path=/story/placesearch--domain-not-authorized`)
  const preview = page.frameLocator('#storybook-preview-iframe')
  await preview.getByText('This site is not authorized (403)').waitFor({ timeout: 15_000 })
  await page.locator('#placesearch--works').click()
  await preview.getByRole('list', { name: 'Places' }).filter({ hasText: '3000 Sfax, Tunisie' }).waitFor()
  await page.locator('#placesearch--key-disabled').click()
  await preview.getByText('API key refused (401)').waitFor()
  await page.screenshot({ path: join(SCREENSHOTS, 'storybook-manager.png') })
  expect(errors).toEqual([])
})

it('runs every story’s play function with the Storybook Vitest addon', () => {
  const args = [
    'vitest',
    'run',
    '--project',
    'storybook',
    '--reporter=json',
    '--outputFile=vitest-report.json',
  ]
  project.run('npx', args, { env, timeout: 120_000 })
  const report = JSON.parse(readFileSync(join(project.dir, 'vitest-report.json'), 'utf8'))
  expect(report).toMatchObject({ numPassedTests: STORIES.length, numTotalTests: STORIES.length })
}, 130_000)

it('stops a story whose parameters.tmaps is wrong, saying which story and what to fix', async () => {
  writeFileSync(
    join(project.dir, 'src/Mistakes.stories.tsx'),
    `import type { Meta, StoryObj } from '@storybook/preact-vite'
import { PlaceSearch } from './PlaceSearch.tsx'

export default { title: 'Mistakes', component: PlaceSearch } satisfies Meta<typeof PlaceSearch>

export const BadStatus: StoryObj = { parameters: { tmaps: { keys: [{ name: 'Web', status: 'off' }] } } }
export const Typo: StoryObj = { parameters: { tmaps: { key: [{ name: 'Web' }] } } }
export const BadOverride: StoryObj = { parameters: { tmaps: { use: [{ endpoint: 'geocoding/forward', scenario: 'at-sea' }] } } }
`,
  )
  project.run('npx', ['storybook', 'build', '--quiet', '--output-dir', 'storybook-mistakes'], { env })
  const mistakes = await serveStatic(join(project.dir, 'storybook-mistakes'))
  try {
    const shown = async (id: string) => {
      await page.goto(`${mistakes.base}/iframe.html?id=${id}&viewMode=story`)
      const message = page.locator('#error-message', { hasText: 'Failed to set up the TMaps mock' })
      return message.innerText()
    }
    expect(await shown('mistakes--bad-status')).toBe(
      'Failed to set up the TMaps mock of the story "Mistakes / Bad Status" (mistakes--bad-status): parameters.tmaps.keys[0].status must be "enabled", "disabled" or "revoked" (got "off").',
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'storybook-mistake.png') })
    expect(await shown('mistakes--typo')).toBe(
      'Failed to set up the TMaps mock of the story "Mistakes / Typo" (mistakes--typo): parameters.tmaps has no field key. Its fields are keys, faults, state, seed, use.',
    )
    expect(await shown('mistakes--bad-override')).toBe(
      'Failed to set up the TMaps mock of the story "Mistakes / Bad Override" (mistakes--bad-override): parameters.tmaps.use[0].scenario "at-sea" does not apply to geocoding/forward: it applies to geocoding/reverse, geocoding/nearby, routing/direction, routing/optimized, routing/isochrone, distance-matrix.',
    )
  } finally {
    mistakes.server.close()
  }
}, 60_000)

/** A story's end as Storybook's channel tells it; `detail` is a failure's message. */
type StoryEvent = { event: string; storyId?: string; status?: string; detail?: string }

/**
 * Records the events of Storybook's channel in `window.storyEvents` from the page's start (the
 * channel is a global that Storybook sets; a story can finish before any later script runs).
 */
function recordStoryEvents(): void {
  const events: StoryEvent[] = []
  let channel: { on(event: string, listener: (data: never) => void): void } | undefined
  Object.assign(window, { storyEvents: events })
  Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', {
    configurable: true,
    get: () => channel,
    set(next) {
      channel = next
      for (const event of [
        'storyFinished',
        'storyErrored',
        'storyThrewException',
        'playFunctionThrewException',
      ])
        next.on(event, (data: { storyId?: string; status?: string; message?: string }) =>
          events.push(
            event === 'storyFinished'
              ? { event, storyId: data.storyId, status: data.status }
              : { event, detail: data?.message ?? JSON.stringify(data) },
          ),
        )
    },
  })
}

/** Storybook's verdict on the story: `storyFinished` (its play function ran) or the failure event. */
async function storyFinished(on: Page, storyId: string): Promise<StoryEvent> {
  const found = await on.waitForFunction(
    (id) =>
      (window as unknown as { storyEvents: StoryEvent[] }).storyEvents.find(
        (e) => e.event !== 'storyFinished' || e.storyId === id,
      ),
    storyId,
    // The first search of a page builds the generated world: seconds on a busy machine.
    { timeout: 45_000 },
  )
  return (await found.jsonValue()) as StoryEvent
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
}

/** A static file server for the built Storybook on 127.0.0.1 (as `npx serve storybook-static` would). */
async function serveStatic(dir: string): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    if (path.endsWith('/')) path += 'index.html'
    const file = normalize(join(dir, path))
    if (!file.startsWith(dir) || !existsSync(file)) return void response.writeHead(404).end()
    response
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { server, base: `http://127.0.0.1:${port}` }
}
