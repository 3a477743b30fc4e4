/**
 * Browser part of `npm run bench`: time from navigation to the first mocked answer (a 401, which
 * the contract answers without any endpoint data) and then to the first geocode, in real
 * Chromium, for a page running the TMaps mock's worker against a page running a bare msw worker
 * with one handler; fresh browser context each time (service worker installed anew), pages
 * alternating, medians compared. Target: the first answer within 1.3x of the bare page.
 */
import { existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, createServer, preview } from 'vite'
import { CHROMIUM, freePort, launchChromium } from '../test/support/browser.ts'
import type { Comparison } from './harness.ts'

const ROUNDS = 11

export async function browserRows(): Promise<Comparison[]> {
  if (!existsSync(CHROMIUM)) {
    console.log(`(browser rows skipped: no Chromium at ${CHROMIUM}; apt-get install -y chromium)\n`)
    return []
  }
  const outDir = join(tmpdir(), `tmaps-bench-${process.pid}`)
  await build({ configFile: 'bench/browser/vite.config.ts', build: { outDir, emptyOutDir: true } })
  const server = await preview({
    configFile: 'bench/browser/vite.config.ts',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, open: false },
  })
  const base = server.resolvedUrls!.local[0]!
  const browser = await launchChromium()
  const time = async (page: 'tmaps' | 'bare') => {
    const context = await browser.newContext()
    const tab = await context.newPage()
    await tab.goto(`${base}${page}.html`)
    await tab.waitForFunction(() => window.firstGeocodeMs, undefined, { timeout: 30_000 })
    const value = await tab.evaluate(() => ({
      first: window.firstResponseMs!,
      geocode: window.firstGeocodeMs!,
    }))
    await context.close()
    return value
  }
  const times = {
    tmaps: { first: [] as number[], geocode: [] as number[] },
    bare: { first: [] as number[], geocode: [] as number[] },
  }
  await time('tmaps')
  await time('bare')
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['tmaps', 'bare'] as const) : (['bare', 'tmaps'] as const)
    for (const page of order) {
      const { first, geocode } = await time(page)
      times[page].first.push(first)
      times[page].geocode.push(geocode)
    }
  }
  await browser.close()
  await server.close()
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
  const row = (label: string, which: 'first' | 'geocode', target: number | null): Comparison => {
    const aMicros = median(times.tmaps[which]) * 1000
    const bMicros = median(times.bare[which]) * 1000
    return {
      label,
      a: 'tmaps-mock worker',
      b: 'bare msw worker',
      aMicros,
      bMicros,
      ratio: aMicros / bMicros,
      target,
    }
  }
  return [
    row('page load to the first mocked answer (a 401), Chromium, cold service worker', 'first', 1.3),
    row('page load to the first geocode (its data loaded on the way), same pages', 'geocode', null),
  ]
}

declare global {
  interface Window {
    firstTileMs?: number
    /** When the page saw its first click (the bench's click on Send). */
    clickMs?: number
  }
}

/**
 * The playground as a person opens it (built, fresh browser context, service worker installed
 * anew): time from navigation to the page's `load` event and to the first map tile drawn
 * (Leaflet and the tile renderer load on the way). Target: the first tile within 500 ms of load.
 */
export async function playgroundRows(): Promise<Comparison[]> {
  if (!existsSync(CHROMIUM)) return []
  const outDir = join(tmpdir(), `tmaps-bench-playground-${process.pid}`)
  await build({
    configFile: 'playground/vite.config.ts',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  })
  const server = await preview({
    configFile: 'playground/vite.config.ts',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, open: false },
  })
  // On localhost: the demo's tiles key is linked to localhost (on 127.0.0.1 its tiles are refused).
  const base = server.resolvedUrls!.local[0]!.replace('127.0.0.1', 'localhost')
  const browser = await launchChromium()
  const open = async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.addInitScript(() => {
      document.addEventListener(
        'load',
        (event) => {
          const target = event.target as HTMLElement
          if (target.classList?.contains('leaflet-tile')) window.firstTileMs ??= performance.now()
        },
        true,
      )
    })
    const tab = await context.newPage()
    await tab.goto(base)
    await tab.waitForFunction(() => window.firstTileMs, undefined, { timeout: 30_000 })
    const times = await tab.evaluate(() => ({
      load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart,
      tile: window.firstTileMs!,
    }))
    await context.close()
    return times
  }
  await open()
  const load: number[] = []
  const tile: number[] = []
  for (let round = 0; round < 7; round++) {
    const t = await open()
    load.push(t.load)
    tile.push(t.tile)
  }
  await browser.close()
  await server.close()
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
  const aMicros = median(tile) * 1000
  const bMicros = median(load) * 1000
  return [
    {
      label:
        'playground (built, 1440 x 900, cold service worker): navigation to the first map tile vs to the load event',
      a: 'first map tile',
      b: 'load event',
      aMicros,
      bMicros,
      ratio: aMicros / bMicros,
      target: null,
      budgetMs: median(load) + 500,
    },
  ]
}

/**
 * The playground as a newcomer first sees it, `npm start` (Vite's dev server, one module per
 * file), against the built page, side by side: fresh context each time, the two alternating,
 * 7 rounds after a warm-up each. Timed in the page: navigation to the first map tile drawn, and
 * the first geocode (the composer's default request) from the click on Send to its answer,
 * Send being clicked 2 s after the first tile (a person reading the page) and, in the notes,
 * at once.
 */
export async function playgroundDevRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  if (!existsSync(CHROMIUM)) return { rows: [], notes: [] }
  const configFile = 'playground/vite.config.ts'
  const outDir = join(tmpdir(), `tmaps-bench-playground-dev-${process.pid}`)
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  const built = await preview({
    configFile,
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, open: false },
  })
  const dev = await createServer({
    configFile,
    logLevel: 'warn',
    server: { host: 'localhost', port: await freePort('localhost'), strictPort: true, open: false },
  })
  await dev.listen()
  const urls = {
    dev: dev.resolvedUrls!.local[0]!,
    built: built.resolvedUrls!.local[0]!.replace('127.0.0.1', 'localhost'),
  }
  const browser = await launchChromium()
  const open = async (url: string, sendAfterMs: number) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.addInitScript(() => {
      document.addEventListener(
        'load',
        (event) => {
          if ((event.target as HTMLElement).classList?.contains('leaflet-tile'))
            window.firstTileMs ??= performance.now()
        },
        true,
      )
      document.addEventListener(
        'click',
        () => {
          window.clickMs ??= performance.now()
        },
        true,
      )
    })
    const tab = await context.newPage()
    await tab.goto(url, { timeout: 60_000 })
    await tab.waitForFunction(() => window.firstTileMs, undefined, { timeout: 60_000 })
    await tab.waitForTimeout(sendAfterMs)
    await tab.getByRole('button', { name: 'Send', exact: true }).click()
    const answered = () =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
        (e) => e.name.startsWith('https://api.tmaps.tn/') && e.responseEnd > 0,
      )
    await tab.waitForFunction(answered, undefined, { timeout: 60_000 })
    const times = await tab.evaluate(() => {
      const answer = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
        e.name.startsWith('https://api.tmaps.tn/'),
      )!
      return { tile: window.firstTileMs!, send: answer.responseEnd - window.clickMs! }
    })
    await context.close()
    return times
  }
  const times = {
    dev: { tile: [] as number[], send: [] as number[], sendAtOnce: [] as number[] },
    built: { tile: [] as number[], send: [] as number[], sendAtOnce: [] as number[] },
  }
  try {
    await open(urls.dev, 0)
    await open(urls.built, 0)
    for (let round = 0; round < 7; round++) {
      const order = round % 2 === 0 ? (['dev', 'built'] as const) : (['built', 'dev'] as const)
      for (const page of order) {
        const t = await open(urls[page], 2000)
        times[page].tile.push(t.tile)
        times[page].send.push(t.send)
      }
    }
    for (let round = 0; round < 3; round++)
      for (const page of ['dev', 'built'] as const)
        times[page].sendAtOnce.push((await open(urls[page], 0)).send)
  } finally {
    await browser.close()
    await dev.close()
    await built.close()
    rmSync(outDir, { recursive: true, force: true })
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    return `${sorted[Math.floor(sorted.length / 4)]!.toFixed(0)}-${sorted[Math.floor((sorted.length * 3) / 4)]!.toFixed(0)} ms`
  }
  const row = (label: string, which: 'tile' | 'send'): Comparison => {
    const aMicros = median(times.dev[which]) * 1000
    const bMicros = median(times.built[which]) * 1000
    return {
      label,
      a: 'npm start (vite dev)',
      b: 'built page',
      aMicros,
      bMicros,
      ratio: aMicros / bMicros,
      target: null,
    }
  }
  return {
    rows: [
      row(
        'playground, 1440 x 900, fresh context: navigation to the first map tile, vite dev vs built',
        'tile',
      ),
      row('the same pages: the first geocode, from Send (2 s after the first tile) to its answer', 'send'),
    ],
    notes: [
      `Playground (7 rounds, middle half): first tile ${spread(times.dev.tile)} in vite dev, ${spread(times.built.tile)} built; ` +
        `first geocode after Send ${spread(times.dev.send)} vs ${spread(times.built.send)}; Send clicked with the first tile ` +
        `(3 rounds): ${times.dev.sendAtOnce.map((t) => t.toFixed(0)).join(', ')} ms vs ${times.built.sendAtOnce.map((t) => t.toFixed(0)).join(', ')} ms.`,
    ],
  }
}
