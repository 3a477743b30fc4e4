import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PALETTES } from '../../src/map/styles.ts'
import { createTmapsMock, type TmapsMock } from '../../src/runtimes/msw/create-tmaps-mock.ts'
import { routeTmaps } from '../../src/runtimes/playwright/index.ts'
import { startTmapsHttpsServer, type TmapsHttpsServer } from '../../src/runtimes/server/https-server.ts'
import { launchChromium, screenshot, serveApp, watchErrors } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { decodePng, near } from '../support/png.ts'
import type { MapsState } from './maps-app/main.ts'

/**
 * The TMaps docs' own map snippets (Leaflet's tile layer, MapLibre's raster source) in real
 * Chromium, against the mock's raster tiles in its three browser-facing runtimes: the service
 * worker (`setupTmapsWorker` in the page), the Playwright adapter (`routeTmaps`) and the HTTPS
 * server (`startTmapsHttpsServer`). A key linked to `localhost` loads every tile of the view on
 * http://localhost; on http://127.0.0.1 every tile is refused, decided from the `Referer` for
 * Leaflet's `<img>` tiles and from the `Origin` for MapLibre's `fetch` tiles.
 */

/**
 * MapLibre draws with WebGL. Headless Chromium 156 here gives WebGL 2 on ANGLE over SwiftShader
 * (Vulkan, Subzero) even with `--disable-gpu`: checked with no extra flag, with
 * `--enable-webgl --ignore-gpu-blocklist`, and with `--use-angle=swiftshader`, also without
 * Playwright's own default `--enable-unsafe-swiftshader`. These two flags say so explicitly,
 * so the suite does not lean on a default of Chromium or Playwright that may change.
 */
const WEBGL = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader']
/** The fixture's map is 768 x 512 (test/e2e/maps-app/index.html); the viewport is the map. */
const SIZE = { width: 768, height: 512 }
/** The docs' view: Tunis at zoom 12. */
const CENTER = { lat: 36.8002, lng: 10.1815 }

let browser: Browser
let app: Awaited<ReturnType<typeof serveApp>>
let server: TmapsHttpsServer
/** The mock behind the Playwright adapter and the HTTPS server (the worker has its own, in the page). */
let mock: TmapsMock
let certDir = ''
/** A key linked to `localhost` only, in `mock`. */
let key = ''

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'tmaps-maps-'))
  mock = createTmapsMock({ state: 'empty', seed: 'maps-e2e' })
  await mock.ready
  key = (await mock.console.createKey({ name: 'Web', domains: ['localhost'] })).value
  ;[browser, app, server] = await Promise.all([
    launchChromium(WEBGL),
    serveApp('test/e2e/maps-app/vite.config.ts', 'maps-app'),
    startTmapsHttpsServer({ mock, port: 0, certDir }),
  ])
}, 120_000)
afterAll(() =>
  cleanUp({
    'close the browser': () => browser?.close(),
    'stop the app': () => app?.close(),
    'stop the server': () => server?.close(),
    'remove the certificates': () => rmSync(certDir, { recursive: true, force: true }),
  }),
)

type Lib = 'leaflet' | 'maplibre'
type Host = 'localhost' | '127.0.0.1'
type LogEntry = ReturnType<TmapsMock['log']['entries']>[number]

interface Opened {
  page: Page
  context: BrowserContext
  /** The mock's log entries for this page's tile requests, oldest first. */
  tiles(): Promise<LogEntry[]>
  /** `pageerror`s and `console.error`s, but the browser's notices of 4xx answers. */
  errors: string[]
}

interface Runtime {
  name: string
  /** Names its screenshots. */
  id: string
  /** The log facts say the headers were rebuilt (the service worker cannot see them). */
  reconstructed: boolean
  /** The host a tile's log entry names: the one the page asked (TMaps's, or the server's own). */
  tileHost(): string
  /**
   * Opens the fixture running `lib`'s snippet on `http://<host>:<port>`, the key linked to localhost only.
   */
  open(lib: Lib, host: Host): Promise<Opened>
}

/** A fresh context (own cache, storage and service worker) showing the fixture at `query`. */
async function openFixture(
  host: Host,
  query: string,
  options: { serviceWorkers: 'allow' | 'block'; ignoreHTTPSErrors?: boolean },
  setup?: (context: BrowserContext) => Promise<unknown>,
) {
  const context = await browser.newContext({ viewport: SIZE, ...options })
  await setup?.(context)
  const page = await context.newPage()
  const errors = watchErrors(page)
  await page.goto(`http://${host}:${app.port}/?${query}`)
  return { context, page, errors }
}

/** Reads the Node mock's tile entries logged after this call. */
function tilesFromNow(): () => Promise<LogEntry[]> {
  const since = mock.log.entries()[0]?.seq ?? 0
  return async () =>
    mock.log
      .entries()
      .filter((e) => e.seq > since && e.endpoint === 'r-tile')
      .reverse()
}

const RUNTIMES: Runtime[] = [
  {
    name: 'the service worker (setupTmapsWorker in the page)',
    id: 'worker',
    reconstructed: true,
    tileHost: () => 'tiles.tmaps.tn',
    async open(lib, host) {
      // The page starts the worker with its own mock and a key linked to localhost, then the map.
      const opened = await openFixture(host, `lib=${lib}&worker=localhost`, { serviceWorkers: 'allow' })
      const tiles = async () =>
        (await opened.page.evaluate(() => window.tmaps!.log.entries()))
          .filter((e) => e.endpoint === 'r-tile')
          .reverse()
      return { ...opened, tiles }
    },
  },
  {
    name: 'the Playwright adapter (routeTmaps)',
    id: 'playwright',
    reconstructed: false,
    tileHost: () => 'tiles.tmaps.tn',
    async open(lib, host) {
      const tiles = tilesFromNow()
      const opened = await openFixture(
        host,
        `lib=${lib}&key=${key}`,
        { serviceWorkers: 'block' },
        (context) => routeTmaps(context, mock),
      )
      return { ...opened, tiles }
    },
  },
  {
    name: 'the HTTPS server (startTmapsHttpsServer)',
    id: 'server',
    reconstructed: false,
    tileHost: () => new URL(server.url).host,
    async open(lib, host) {
      const tiles = tilesFromNow()
      // The page trusts the server's certificate (signed by the mock's local CA) as the contract
      // suite's pages do: ignoreHTTPSErrors. Both origins are loopback: no local-network flags.
      const query = `lib=${lib}&key=${key}&tiles=${encodeURIComponent(server.url)}`
      const opened = await openFixture(host, query, { serviceWorkers: 'block', ignoreHTTPSErrors: true })
      return { ...opened, tiles }
    },
  },
]

const state = (page: Page): Promise<MapsState> => page.evaluate(() => window.maps)

/**
 * The tiles a 768 x 512 view centred on Tunis needs at tile zoom `z` (Web Mercator, 256 px
 * tiles): Leaflet's own rule (`_pxBoundsToTileRange`). MapLibre counts zoom in 512 px tiles, so
 * its zoom 12 asks 256 px tiles of zoom 13.
 */
function viewTiles(z: number): string[] {
  const world = 256 * 2 ** z
  const phi = (CENTER.lat * Math.PI) / 180
  const cx = ((CENTER.lng + 180) / 360) * world
  const cy = (0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI)) * world
  const range = (c: number, half: number) => {
    const [min, max] = [Math.floor((c - half) / 256), Math.ceil((c + half) / 256) - 1]
    return Array.from({ length: max - min + 1 }, (_, i) => min + i)
  }
  return range(cx, SIZE.width / 2)
    .flatMap((x) => range(cy, SIZE.height / 2).map((y) => `/r-tile/${z}/${x}/${y}`))
    .sort()
}
const LEAFLET_TILES = viewTiles(12)
const MAPLIBRE_TILES = viewTiles(13)

/** The facts the mock decided on, for one page on `host` through `via`. */
const decidedOn = (via: 'origin' | 'referer', host: Host, reconstructed: boolean) => ({
  via,
  header: via === 'origin' ? `http://${host}:${app.port}` : `http://${host}:${app.port}/`,
  host,
  linked: ['localhost'],
  reconstructed,
  simulated: false,
})

/**
 * A screenshot of a loaded map shows Tunis: the streets style's sea (the Gulf and the Lake of
 * Tunis) and land (open or built-up: from zoom 10 the city is drawn as an urban area), and dark
 * label text; not a grey (Leaflet's empty pane) or white picture.
 */
function expectTunis(path: string) {
  const png = decodePng(readFileSync(path))
  const { sea, land, urban, label } = PALETTES.streets
  let [seaPixels, landPixels, labelPixels, grey] = [0, 0, 0, 0]
  for (let y = 0; y < png.height; y += 2) {
    for (let x = 0; x < png.width; x += 2) {
      const p = png.pixel(x, y)
      if (near(p, sea, 6)) seaPixels++
      else if (near(p, land, 6) || near(p, urban, 6)) landPixels++
      else if (near(p, label, 40)) labelPixels++
      else if (near(p, [221, 221, 221], 3)) grey++
    }
  }
  const total = Math.ceil(png.width / 2) * Math.ceil(png.height / 2)
  expect(seaPixels / total, 'sea').toBeGreaterThan(0.05)
  expect(landPixels / total, 'land').toBeGreaterThan(0.2)
  expect(labelPixels / total, 'labels').toBeGreaterThan(0.001)
  expect(grey / total, "Leaflet's grey background").toBeLessThan(0.01)
}

describe.each(RUNTIMES)("the TMaps docs' map snippets in Chromium through $name", (runtime) => {
  it('Leaflet on localhost, key linked to localhost: every tile of the view loads (200 from the Referer), no tileerror, Tunis shows', async () => {
    const { page, context, tiles, errors } = await runtime.open('leaflet', 'localhost')
    await page.waitForFunction(() => window.maps.load > 0)
    expect(await state(page)).toMatchObject({ tileload: LEAFLET_TILES.length, tileerror: 0, load: 1 })
    const logged = await tiles()
    expect(logged.map((e) => e.path).sort()).toEqual(LEAFLET_TILES)
    for (const entry of logged) {
      expect(entry).toMatchObject({ status: 200, rule: 'ok', host: runtime.tileHost() })
      // An <img> without crossorigin: no Origin, the Referer the default policy leaves.
      expect(entry.facts).toMatchObject(decidedOn('referer', 'localhost', runtime.reconstructed))
    }
    // Leaflet fades each tile in over 200 ms after it loads: shoot once every tile is opaque.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.leaflet-tile')].every((tile) => getComputedStyle(tile).opacity === '1'),
    )
    expectTunis(await screenshot(page, `maps-leaflet-${runtime.id}`))
    expect(errors).toEqual([])
    await context.close()
  }, 30_000)

  it('MapLibre on localhost, key linked to localhost: load and idle fire, no error event, every tile 200 from the Origin, Tunis shows', async () => {
    const { page, context, tiles, errors } = await runtime.open('maplibre', 'localhost')
    await page.waitForFunction(() => window.maps.idle > 0 || window.maps.errors.length > 0)
    expect(await state(page)).toMatchObject({ load: 1, errors: [] })
    expect((await state(page)).idle).toBeGreaterThan(0)
    const logged = await tiles()
    expect(logged.map((e) => e.path).sort()).toEqual(MAPLIBRE_TILES)
    for (const entry of logged) {
      expect(entry).toMatchObject({ status: 200, rule: 'ok', host: runtime.tileHost() })
      // fetch() in CORS mode: the Origin decides.
      expect(entry.facts).toMatchObject(decidedOn('origin', 'localhost', runtime.reconstructed))
    }
    expectTunis(await screenshot(page, `maps-maplibre-${runtime.id}`))
    expect(errors).toEqual([])
    await context.close()
  }, 30_000)

  it('Leaflet on 127.0.0.1, key linked to localhost only: every tile is a tileerror, refused 403 domain-not-authorized from the Referer', async () => {
    const { page, context, tiles } = await runtime.open('leaflet', '127.0.0.1')
    await page.waitForFunction(() => window.maps.load > 0)
    expect(await state(page)).toMatchObject({ tileload: 0, tileerror: LEAFLET_TILES.length, load: 1 })
    const logged = await tiles()
    expect(logged.map((e) => e.path).sort()).toEqual(LEAFLET_TILES)
    for (const entry of logged) {
      expect(entry).toMatchObject({ status: 403, rule: 'domain-not-authorized', outcome: 'rejected' })
      expect(entry.facts).toMatchObject(decidedOn('referer', '127.0.0.1', runtime.reconstructed))
    }
    await context.close()
  }, 30_000)

  it('MapLibre on 127.0.0.1, key linked to localhost only: one 403 error event per tile, refused domain-not-authorized from the Origin', async () => {
    const { page, context, tiles } = await runtime.open('maplibre', '127.0.0.1')
    // Wait on the errors themselves. (MapLibre 6.17 does fire `load` and one `idle` once every
    // tile has failed with a 403, unlike a 404, after which it stays silent: see design.md §6.)
    await page.waitForFunction((n) => window.maps.errors.length >= n, MAPLIBRE_TILES.length)
    const { errors } = await state(page)
    expect(errors).toHaveLength(MAPLIBRE_TILES.length)
    expect(errors.map((e) => e.status)).toEqual(MAPLIBRE_TILES.map(() => 403))
    const logged = await tiles()
    expect(logged.map((e) => e.path).sort()).toEqual(MAPLIBRE_TILES)
    for (const entry of logged) {
      expect(entry).toMatchObject({ status: 403, rule: 'domain-not-authorized', outcome: 'rejected' })
      expect(entry.facts).toMatchObject(decidedOn('origin', '127.0.0.1', runtime.reconstructed))
    }
    await context.close()
  }, 30_000)
})

describe('the renderer in the browser', () => {
  it("draws the same bytes in the page's service worker as in Node: a tile and a static map with text and a pin", async () => {
    const { page, context } = await openFixture('localhost', 'lib=leaflet&worker=localhost', {
      serviceWorkers: 'allow',
    })
    await page.waitForFunction(() => window.maps.load > 0)
    const paths = [
      '/r-tile/12/2163/1597',
      '/maps/static?center=36.8002,10.1815&zoom=13&size=300x200&style=dark&marker=36.8002,10.1815|red|T',
    ]
    const inPage = await page.evaluate(async (list) => {
      const hex = async (bytes: ArrayBuffer) =>
        [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
          .map((b) => b.toString(16).padStart(2, '0'))
          .join('')
      const out: string[] = []
      for (const path of list) {
        const host = path.startsWith('/r-tile') ? 'https://tiles.tmaps.tn' : 'https://api.tmaps.tn'
        const sep = path.includes('?') ? '&' : '?'
        const response = await fetch(`${host}${path}${sep}api_key=${window.maps.key}`)
        out.push(`${response.status} ${await hex(await response.arrayBuffer())}`)
      }
      return out
    }, paths)
    const inNode: string[] = []
    for (const path of paths) {
      const host = path.startsWith('/r-tile') ? 'https://tiles.tmaps.tn' : 'https://api.tmaps.tn'
      const sep = path.includes('?') ? '&' : '?'
      const response = await mock.fetch(new Request(`${host}${path}${sep}api_key=${key}`))
      const digest = await crypto.subtle.digest('SHA-256', await response.arrayBuffer())
      inNode.push(`${response.status} ${Buffer.from(digest).toString('hex')}`)
    }
    expect(inPage).toEqual(inNode)
    expect(inNode.every((line) => line.startsWith('200 '))).toBe(true)
    await context.close()
  }, 30_000)
})
