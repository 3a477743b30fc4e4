import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TmapsWorker } from '../../src/runtimes/browser/index.ts'
import { freePort, launchChromium, screenshot, watchErrors } from '../support/browser.ts'
import { type ConsumerProject, consumerProject, developerEnv, filesOf, root } from '../support/packed.ts'
import { keyCard } from '../support/playground-page.ts'

/**
 * Consumer: a vanilla TypeScript Vite app (`test/consumer/vite-app/`) that geocodes "Sfax" and
 * shows a Leaflet map of TMaps tiles with its own key (from `.env`), its `vite.config.ts` with one
 * line for the mock: `tmapsMock({ apiKey })` from `tmaps-mock/vite`, installed from the packed
 * tarball. `vite dev` answers TMaps offline in Chromium; `vite build` holds no trace of the mock.
 */
const fixture = join(import.meta.dirname, 'vite-app')
/** The app's own key, as its `.env` has it. */
const apiKey = /^VITE_TMAPS_API_KEY=(\S+)$/m.exec(readFileSync(join(fixture, '.env'), 'utf8'))![1]!

let project: ConsumerProject
let browser: Browser
let dev: DevServer
let page: Page
let errors: string[] = []
let navigations = 0
const infos: string[] = []

beforeAll(async () => {
  project = await consumerProject('vite-app', {
    files: filesOf(fixture),
  })
  browser = await launchChromium()
  dev = await startDev(project.dir)
  // A context of its own (the console test opens a second tab in it: the same origin's storage).
  page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage()
  errors = watchErrors(page)
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++
  })
  page.on('console', (message) => {
    if (message.type() === 'info' && message.text().startsWith('tmaps-mock')) infos.push(message.text())
  })
}, 400_000)

afterAll(async () => {
  await browser?.close()
  await dev?.close()
  project?.remove()
})

it('type-checks the app and its vite.config.ts against the published types', () => {
  project.run(join(root, 'node_modules/.bin/tsc'), ['-p', '.'])
})

it('answers the app’s first fetch in vite dev: 200 with Sfax, the mock started before the entry ran', async () => {
  await page.goto(dev.url)
  await page.locator('#status').filter({ hasText: /^\d+$/ }).waitFor()
  expect(await page.locator('#status').textContent()).toBe('200')
  const body = JSON.parse((await page.locator('#body').textContent())!)
  expect(body.results[0].components.governorate).toBe('Sfax')
  // Answered by the mock in the page (its log has it), not by the network.
  const log = await page.evaluate(() =>
    (window as unknown as { tmaps: TmapsWorker }).tmaps.log
      .entries()
      .filter((entry) => entry.host === 'api.tmaps.tn')
      .map(({ path, status, rule }) => ({ path, status, rule })),
  )
  expect(log).toEqual([{ path: '/geocoding/forward', status: 200, rule: 'ok' }])
  expect(infos).toEqual([expect.stringContaining(`Your key ${apiKey.slice(0, 7)}… is linked to localhost.`)])
  expect(infos[0]).not.toContain(apiKey)
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${dev.url}mockServiceWorker.js`,
  )
  // One navigation and no "optimized dependencies changed. reloading": the mock's modules were
  // pre-bundled with the app's before the first load.
  expect(navigations).toBe(1)
  expect(dev.output()).not.toMatch(/reload|new dependencies/i)
  expect(errors).toEqual([])
})

it('sends the mock’s pre-bundled modules with a link to their source map, the app’s with theirs inlined as Vite does', async () => {
  // As the page asked for them: the mock's pre-bundled entry (modulepreloaded) and Leaflet's.
  const urls = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))
  const mockUrl = urls.find((url) => /\/deps\/tmaps-mock_vite_page\.js\?v=/.test(url))!
  const leafletUrl = urls.find((url) => /\/deps\/leaflet\.js\?v=/.test(url))!
  expect(mockUrl).toBeDefined()
  expect(leafletUrl).toBeDefined()
  const mock = await (await fetch(mockUrl)).text()
  expect(mock).toContain('setupTmapsWorker')
  expect(mock).not.toContain('sourceMappingURL=data:')
  expect(mock.trimEnd().endsWith('//# sourceMappingURL=tmaps-mock_vite_page.js.map')).toBe(true)
  // The link resolves: devtools show the mock's and msw's own files.
  const map = (await (await fetch(new URL('tmaps-mock_vite_page.js.map', mockUrl))).json()) as {
    sources: string[]
    mappings: string
  }
  expect(map.mappings.length).toBeGreaterThan(1000)
  expect(map.sources.some((source) => source.includes('tmaps-mock/dist/runtimes/browser/'))).toBe(true)
  expect(map.sources.some((source) => source.includes('msw/lib/'))).toBe(true)
  // The app's own dependencies are left as Vite serves them.
  expect(await (await fetch(leafletUrl)).text()).toContain('sourceMappingURL=data:application/json')
})

it('draws the Leaflet map from the mock’s tiles, in its render worker', async () => {
  await page.waitForFunction(() => document.querySelectorAll('img.leaflet-tile-loaded').length >= 6)
  const tiles = await page.$$eval('img.leaflet-tile-loaded', (images) =>
    images.map((image) => (image as HTMLImageElement).naturalWidth),
  )
  expect(tiles.every((width) => width === 256)).toBe(true)
  expect(page.workers().map((worker) => worker.url())).toEqual([
    expect.stringContaining('/@id/__x00__virtual:tmaps-mock/render-worker'),
  ])
  // Not blank: the map's pixels hold land, sea, roads and labels.
  const pixels = PNG.sync.read(await page.locator('#map').screenshot())
  const colours = new Set<number>()
  for (let i = 0; i < pixels.data.length; i += 4 * 7) colours.add(pixels.data.readUInt32BE(i))
  expect(colours.size).toBeGreaterThan(50)
  await screenshot(page, 'vite-app')
  expect(errors).toEqual([])
})

it('keeps hot module replacement: an edited module updates the page without a reload', async () => {
  await page.evaluate(() => Object.assign(window, { beforeEdit: true }))
  const file = join(project.dir, 'src/title.ts')
  writeFileSync(file, readFileSync(file, 'utf8').replace("'Sfax on TMaps'", "'Sfax, edited'"))
  await page.locator('#title', { hasText: 'Sfax, edited' }).waitFor()
  expect(await page.evaluate(() => 'beforeEdit' in window)).toBe(true)
  expect(navigations).toBe(1)
})

it('answers 403 once the key is unlinked from localhost in the page’s console, and keeps it across a reload', async () => {
  await page.evaluate(
    (key) => (window as unknown as { tmaps: TmapsWorker }).tmaps.console.unlinkDomain(key, 'localhost'),
    apiKey,
  )
  await page.reload()
  await page.locator('#status').filter({ hasText: /^\d+$/ }).waitFor()
  expect(await page.locator('#status').textContent()).toBe('403')
  expect(JSON.parse((await page.locator('#body').textContent())!)).toEqual({ error: 'domain not authorized' })
  expect(infos.at(-1)).toContain(`Your key ${apiKey.slice(0, 7)}… is linked to no domain.`)
  expect(errors).toEqual([])
})

it('goes back to the configured state and the app’s key on tmaps.reset(), and keeps that across a reload', async () => {
  await page.evaluate(() => (window as unknown as { tmaps: TmapsWorker }).tmaps.reset())
  await page.reload()
  await page.locator('#status').filter({ hasText: /^\d+$/ }).waitFor()
  expect(await page.locator('#status').textContent()).toBe('200')
  expect(infos.at(-1)).toContain(`Your key ${apiKey.slice(0, 7)}… is linked to localhost.`)
  // The demo console and the app's key: nothing of the state kept before the reset.
  const keys = await page.evaluate(() =>
    (window as unknown as { tmaps: TmapsWorker }).tmaps.console
      .listKeys()
      .map((key) => `${key.name}: ${key.domains.join(' ') || 'no domain'}`),
  )
  expect(keys).toEqual([
    'Web app (local dev): localhost',
    'Backend (server-side): no domain',
    'Production frontend: app.jasmin-delivery.tn www.jasmin-delivery.tn',
    'Staging frontend: staging.jasmin-delivery.tn',
    'Old mobile app: no domain',
    'Your app (tmaps-mock/vite apiKey): localhost',
  ])
  // A later load names the mock's pre-bundled modules up front (modulepreload), so they come at once.
  expect(await page.locator('link[rel="modulepreload"][href*="tmaps-mock_vite_page"]').count()).toBe(1)
  expect(errors).toEqual([])
})

it('serves its console at /__tmaps/ over the app’s own state: a key disabled there refuses the app’s next fetch, live, and the console’s log shows it', async () => {
  expect(dev.output()).toContain(`➜  TMaps:   ${dev.url}__tmaps/`)
  const consoleTab = await page.context().newPage()
  const consoleErrors = watchErrors(consoleTab)
  await consoleTab.goto(`${dev.url}__tmaps`) // redirected to the folder
  await consoleTab.getByRole('heading', { name: 'API keys' }).waitFor()
  expect(consoleTab.url()).toBe(`${dev.url}__tmaps/`)
  expect(await consoleTab.getByTestId('app-console').textContent()).toContain('shared with the app’s tabs')
  const name = 'Your app (tmaps-mock/vite apiKey)'
  const card = keyCard(consoleTab, name)
  expect(await card.textContent()).toContain(`${apiKey.slice(0, 7)}…`)
  expect(await card.textContent()).not.toContain(apiKey)
  const appFetch = () =>
    page.evaluate(
      async (key) => (await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sousse&api_key=${key}`)).status,
      apiKey,
    )
  expect(await appFetch()).toBe(200)
  // Disabled in the console: the app's next fetch is refused, without a reload of the app.
  await card.getByRole('switch', { name: `Enabled: ${name}` }).click()
  await expect.poll(appFetch).toBe(401)
  // The app's requests are in the console's log, marked with the app's page.
  const fromApp = consoleTab.getByTestId('log-entry').filter({ has: consoleTab.getByTestId('log-tab') })
  await expect
    .poll(() => fromApp.first().textContent())
    .toMatch(/^401GET.*\/geocoding\/forward.*key-disabled\s*from \//)
  expect(await fromApp.count()).toBeGreaterThanOrEqual(2) // the 200 before it too
  // Enabled again there: the app answers 200 again.
  await card.getByRole('switch', { name: `Enabled: ${name}` }).click()
  await expect.poll(appFetch).toBe(200)
  await screenshot(consoleTab, 'vite-app-console')
  expect(consoleErrors).toEqual([])
  expect(errors).toEqual([])
  await consoleTab.close()
})

it('works under a base other than /', async () => {
  await dev.close()
  dev = await startDev(project.dir, ['--base', '/app/'])
  const context = await browser.newContext()
  const other = await context.newPage()
  const otherErrors = watchErrors(other)
  await other.goto(dev.url)
  await other.locator('#status').filter({ hasText: /^\d+$/ }).waitFor()
  expect(await other.locator('#status').textContent()).toBe('200')
  expect(await other.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${dev.url}mockServiceWorker.js`,
  )
  expect(otherErrors).toEqual([])
  await context.close()
})

it('applies the overrides module in vite dev, keeps the contract, and takes its edits without a reload', async () => {
  await dev.close()
  dev = await startDev(project.dir, ['--config', 'vite.config.overrides.ts'])
  const context = await browser.newContext()
  const other = await context.newPage()
  const otherErrors = watchErrors(other)
  const consoleLines: string[] = []
  other.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`))
  let loads = 0
  other.on('framenavigated', (frame) => {
    if (frame === other.mainFrame()) loads++
  })
  await other.goto(dev.url)
  await other.locator('#status').filter({ hasText: /^\d+$/ }).waitFor()
  // The app's first search, answered by scenarios.noResults() of src/tmaps-overrides.ts.
  expect(await other.locator('#status').textContent()).toBe('200')
  expect(JSON.parse((await other.locator('#body').textContent())!)).toEqual({ query: 'Sfax', results: [] })
  const call = (path: string) =>
    other.evaluate(
      async ([path, key]) => {
        const response = await fetch(`https://api.tmaps.tn${path}&api_key=${key}`)
        return { status: response.status, body: await response.json() }
      },
      [path, apiKey] as const,
    )
  const direction = '/routing/direction?from=36.8002,10.1815&to=36.8528,10.3261'
  expect(await call(direction)).toEqual({
    status: 400,
    body: {
      error: 'invalid param: to (no road reaches it: at sea, abroad or on an island without a crossing)',
    },
  })
  const overridden = await other.evaluate(() =>
    (window as unknown as { tmaps: TmapsWorker }).tmaps.log
      .entries()
      .filter((entry) => entry.host === 'api.tmaps.tn')
      .map(({ path, status, overridden }) => ({ path, status, overridden })),
  )
  expect(overridden).toEqual([
    { path: '/routing/direction', status: 400, overridden: true },
    { path: '/geocoding/forward', status: 200, overridden: true },
  ])
  // The contract first: a disabled key gets its 401, the override unused.
  await other.evaluate(
    (key) => (window as unknown as { tmaps: TmapsWorker }).tmaps.console.disableKey(key),
    apiKey,
  )
  expect(await call('/geocoding/forward?q=Sfax')).toEqual({ status: 401, body: { error: 'missing api_key' } })
  await other.evaluate(
    (key) => (window as unknown as { tmaps: TmapsWorker }).tmaps.console.enableKey(key),
    apiKey,
  )

  // An edit of the module replaces the overrides in the running page.
  await other.evaluate(() => Object.assign(window, { beforeEdit: true }))
  const file = join(project.dir, 'src/tmaps-overrides.ts')
  const original = readFileSync(file, 'utf8')
  writeFileSync(
    file,
    "import type { TmapsOverrideEntry } from 'tmaps-mock'\n\nexport default [{ endpoint: 'geocoding/forward', scenario: 'low-confidence', confidence: 0.3 }] satisfies TmapsOverrideEntry[]\n",
  )
  await expect
    .poll(() =>
      consoleLines.filter((line) => line.includes('overrides of ./src/tmaps-overrides.ts are updated')),
    )
    .toHaveLength(1)
  const weak = await call('/geocoding/forward?q=Sfax')
  expect(weak.status).toBe(200)
  expect(weak.body.results[0]).toMatchObject({ confidence: 0.3, components: { governorate: 'Sfax' } })
  expect((await call(direction)).status).toBe(200) // at-sea is gone with the edit
  // A wrong edit is reported, and the overrides in force stay.
  writeFileSync(file, "export default [{ endpoint: 'geocoding/forward', scenario: 'at-sea' }]\n")
  await expect
    .poll(() => consoleLines.filter((line) => line.startsWith('error: tmaps-mock/vite: the default export')))
    .toEqual([
      'error: tmaps-mock/vite: the default export of ./src/tmaps-overrides.ts[0].scenario "at-sea" does not apply to geocoding/forward: it applies to geocoding/reverse, geocoding/nearby, routing/direction, routing/optimized, routing/isochrone, distance-matrix (the overrides in force stay)',
    ])
  expect((await call('/geocoding/forward?q=Sfax')).body.results[0].confidence).toBe(0.3)
  expect(await other.evaluate(() => 'beforeEdit' in window)).toBe(true)
  expect(loads).toBe(1)
  expect(dev.output()).not.toMatch(/new dependencies|optimized dependencies changed/i)
  writeFileSync(file, original)
  // The one error: the wrong edit's, as reported above.
  expect(otherErrors).toEqual([
    expect.stringMatching(
      /^console\.error: tmaps-mock\/vite: the default export of \.\/src\/tmaps-overrides\.ts\[0\]/,
    ),
  ])
  await context.close()
})

it('replays a recording in vite dev (replay: ./tmaps.har): the recorded bytes for what it holds, the mock for the rest, the contract first', async () => {
  await dev.close()
  dev = await startDev(project.dir, ['--config', 'vite.config.replay.ts'])
  // The recording is from January: one warning, at start, naming the file and its oldest date.
  expect(dev.output()).toMatch(
    /the recording \.\/tmaps\.har holds answers older than 90d \(the oldest from 2026-01-05\)/,
  )
  const context = await browser.newContext()
  const other = await context.newPage()
  const otherErrors = watchErrors(other)
  await other.goto(dev.url)
  await other.locator('#status').filter({ hasText: /^\d+$/ }).waitFor()
  const recorded = JSON.parse(readFileSync(join(fixture, 'tmaps.har'), 'utf8')).log.entries[0].response
    .content.text
  // The app's first search: TMaps's recorded answer, byte for byte (its confidence 0.42 is the recording's).
  expect(await other.locator('#status').textContent()).toBe('200')
  expect(JSON.parse((await other.locator('#body').textContent())!)).toEqual(JSON.parse(recorded))
  const log = () =>
    other.evaluate(() =>
      (window as unknown as { tmaps: TmapsWorker }).tmaps.log
        .entries()
        .map(({ host, path, status, source }) => ({ host, path, status, source })),
    )
  expect((await log()).filter((e) => e.host === 'api.tmaps.tn')).toEqual([
    { host: 'api.tmaps.tn', path: '/geocoding/forward', status: 200, source: 'replay' },
  ])
  // The map's tiles are not in the recording: the mock draws them (logged replay-miss).
  await expect
    .poll(async () => (await log()).filter((e) => e.host === 'tiles.tmaps.tn' && e.status === 200).length)
    .toBeGreaterThan(0)
  expect((await log()).find((e) => e.host === 'tiles.tmaps.tn')?.source).toBe('replay-miss')
  // The contract first: a disabled key gets its 401, not the recorded answer.
  const status = () =>
    other.evaluate(
      async (key) => (await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key}`)).status,
      apiKey,
    )
  await other.evaluate(
    (key) => (window as unknown as { tmaps: TmapsWorker }).tmaps.console.disableKey(key),
    apiKey,
  )
  expect(await status()).toBe(401)
  await other.evaluate(() => (window as unknown as { tmaps: TmapsWorker }).tmaps.reset())
  expect(await status()).toBe(200)
  expect(otherErrors).toEqual([])
  await context.close()
})

it('builds for production with no trace of the mock: the same files as without the plugin', () => {
  project.run('npx', ['vite', 'build', '--logLevel', 'error'], { env: developerEnv })
  // The same app built with a config that has no mock line at all.
  writeFileSync(join(project.dir, 'vite.config.plain.ts'), 'export default {}\n')
  project.run(
    'npx',
    ['vite', 'build', '--config', 'vite.config.plain.ts', '--outDir', 'dist-plain', '--logLevel', 'error'],
    { env: developerEnv },
  )
  const built = filesOf(join(project.dir, 'dist'), 'latin1')
  expect(Object.keys(built).sort()).toEqual(
    Object.keys(filesOf(join(project.dir, 'dist-plain'), 'latin1')).sort(),
  )
  expect(built).toEqual(filesOf(join(project.dir, 'dist-plain'), 'latin1'))
  expect(Object.keys(built).some((path) => /mockServiceWorker|render-worker|worker/i.test(path))).toBe(false)
  // The app's own code names the TMaps hosts and `api_key=` (its fetch and tile URLs), so those
  // are allowed; these strings exist only in msw and in the mock.
  const code = Object.values(built).join('\n')
  for (const trace of [
    'msw',
    'mockServiceWorker',
    'setupTmapsWorker',
    'tmaps-mock',
    'domain not authorized',
    'missing api_key',
    'createWorkerRenderer',
    'virtual:tmaps',
  ]) {
    expect(code, trace).not.toContain(trace)
  }
  expect(code).toContain('api.tmaps.tn/geocoding/forward')
}, 60_000)

it('refuses a bad option at creation, saying what failed and how to fix it', () => {
  const script = `
    import { tmapsMock } from 'tmaps-mock/vite'
    const tries = [{ persist: '' }, { renderer: 'gpu' }, { apiKey: 'ak_123' }, { state: '{"keys":1}' }, { persists: 'x' }, { overrides: 1 }]
    const messages = tries.map((options) => { try { tmapsMock(options); return 'accepted' } catch (e) { return e.message } })
    console.log(JSON.stringify({ messages, off: tmapsMock({ enabled: false }).length, on: tmapsMock().map((p) => p.name) }))
  `
  const out = JSON.parse(project.run('node', ['--input-type=module', '-e', script], { env: developerEnv }))
  expect(out.off).toBe(0)
  expect(out.on).toEqual(['tmaps-mock:msw-worker', 'tmaps-mock'])
  expect(out.messages).toEqual([
    'Failed to set up tmaps-mock/vite: persist must be a localStorage name such as "my-app", or false to start every load from state.',
    'Failed to set up tmaps-mock/vite: renderer must be "worker" or "page" (got "gpu").',
    expect.stringMatching(
      /^Failed to set up tmaps-mock\/vite: apiKey must be a TMaps key: "ak_" and 32 lower-case/,
    ),
    expect.stringMatching(
      /^Failed to set up tmaps-mock\/vite: state is neither "demo", "empty" nor a valid snapshot/,
    ),
    expect.stringMatching(
      /^Failed to set up tmaps-mock\/vite: there is no option "persists"\. The options are enabled, state/,
    ),
    'Failed to set up tmaps-mock/vite: overrides must be the path of a module of your project whose default export lists the overrides, e.g. "./src/tmaps-overrides.ts".',
  ])
})

interface DevServer {
  url: string
  output(): string
  close(): Promise<void>
}

/** `vite` in the project, as a developer starts it (`npx vite`), on a free port of localhost. */
async function startDev(dir: string, args: string[] = []): Promise<DevServer> {
  const port = await freePort('localhost')
  const child: ChildProcess = spawn(
    join(dir, 'node_modules/.bin/vite'),
    ['--port', String(port), '--strictPort', ...args],
    { cwd: dir, env: developerEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const base = args.includes('--base') ? args[args.indexOf('--base') + 1]! : '/'
  const url = `http://localhost:${port}${base}`
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`vite dev exited with ${child.exitCode}:\n${output}`)
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (waited > 30_000) throw new Error(`vite dev did not answer ${url} within 30 s:\n${output}`)
    await sleep(100)
  }
  return {
    url,
    output: () => output,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
