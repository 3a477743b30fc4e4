/**
 * The Vite plugin in `vite dev`, as a developer runs it: a fresh Vite app (`bench/vite-app/`,
 * Leaflet in its graph) with `tmapsMock({ apiKey })` from the package as `tsc` builds it, against
 * the same app without the mock, whose dev server answers the same two calls with the mock's own
 * bodies, and the same app with a bare msw instead (one handler answering the same JSON), started
 * as msw's documentation has it and as the plugin starts the mock (worker registered by the
 * page's first script): the floor any msw app pays. Each app runs in its own `vite` process; each
 * navigation is a fresh browser context (the service worker installed anew), the apps
 * alternating (A B C D, then D C B A), 15 rounds after two warm-ups each. Measured in the page:
 * navigation start to the first answer read (a 401, which the contract answers without endpoint
 * data), then to the app's geocode read (the geocoder's data loaded on the way). Target: the
 * first answer within 1.5x of the app without the mock. The first load ever (before Vite
 * pre-bundles the dependencies) is timed once, for the notes.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser } from 'playwright-core'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { CHROMIUM, freePort, launchChromium } from '../test/support/browser.ts'
import type { Comparison } from './harness.ts'

const root = join(import.meta.dirname, '..')
const ROUNDS = Number(process.env.VITE_ROUNDS ?? 15)
/**
 * The app's own key, written to its `.env` (VITE_TMAPS_API_KEY) when the bench makes the app, as
 * an app keeps it there and the plugin's `apiKey` reads it: made anew each run, never committed.
 */
const APP_KEY = `ak_${randomBytes(16).toString('hex')}`

declare global {
  interface Window {
    /** Set by `bench/vite-app/src/main.ts`: navigation start to its first answer read (a 401). */
    firstAnswerMs?: number
    /** ... and to its geocode read. */
    firstGeocodeMs?: number
  }
}

interface Times {
  first: number
  geocode: number
}

export async function viteRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  if (!existsSync(CHROMIUM)) return { rows: [], notes: [] }
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-bench-vite-'))
  const servers: DevServer[] = []
  let browser: Browser | undefined
  try {
    await makeProject(dir)
    browser = await launchChromium()
    const mock = await startDev(dir, [])
    const plain = await startDev(dir, ['--config', 'vite.config.plain.ts'])
    const bareMsw = await startDev(dir, ['--config', 'vite.config.msw.ts'])
    const earlyMsw = await startDev(dir, ['--config', 'vite.config.msw-early.ts'])
    servers.push(mock, plain, bareMsw, earlyMsw)
    const urls = { tmaps: mock.url, bare: plain.url, msw: bareMsw.url, mswEarly: earlyMsw.url }
    // The first load ever: Vite pre-bundles the dependencies on the way (timed from the goto,
    // since a page may be reloaded by Vite once its dependencies are ready).
    const cold = {
      tmaps: await open(browser, urls.tmaps, true),
      bare: await open(browser, urls.bare, true),
      msw: await open(browser, urls.msw, true),
    }
    const apps = ['tmaps', 'bare', 'msw', 'mswEarly'] as const
    for (let warm = 0; warm < 2; warm++) for (const app of apps) await open(browser, urls[app])
    const times = { tmaps: [] as Times[], bare: [] as Times[], msw: [] as Times[], mswEarly: [] as Times[] }
    const loads: string[] = [loadAverage()]
    for (let round = 0; round < ROUNDS; round++) {
      if (round === Math.floor(ROUNDS / 2)) loads.push(loadAverage())
      for (const app of round % 2 === 0 ? apps : [...apps].reverse())
        times[app].push(await open(browser, urls[app]))
    }
    loads.push(loadAverage())
    const median = (app: keyof typeof times, which: keyof Times) =>
      quantile(
        times[app].map((t) => t[which]),
        0.5,
      ) * 1000
    const NAMES = {
      tmaps: 'app with tmapsMock()',
      bare: 'same app, no mock',
      msw: 'same app, bare msw',
      mswEarly: 'same app, bare msw registered early',
    }
    const row = (
      label: string,
      which: keyof Times,
      target: number | null,
      a: keyof typeof times = 'tmaps',
    ): Comparison => {
      const aMicros = median(a, which)
      const bMicros = median('bare', which)
      return { label, a: NAMES[a], b: NAMES.bare, aMicros, bMicros, ratio: aMicros / bMicros, target }
    }
    const spread = (values: number[]) =>
      `${quantile(values, 0.25).toFixed(0)}-${quantile(values, 0.75).toFixed(0)} ms`
    return {
      rows: [
        row(
          'Vite plugin, vite dev, fresh context: navigation to the first mocked answer (a 401) vs the same app without the mock',
          'first',
          1.5,
        ),
        row(
          'the same apps: navigation to the app’s geocode (the geocoder’s data loaded on the way)',
          'geocode',
          null,
        ),
        row(
          'the floor: the same app with a bare msw (one handler, the same JSON, started as msw’s docs say), first answer vs no mock',
          'first',
          null,
          'msw',
        ),
        row(
          'the lowest floor: that bare msw app registered and started as the plugin starts the mock (early worker, async start module), first answer vs no mock',
          'first',
          null,
          'mswEarly',
        ),
      ],
      notes: [
        `Vite plugin (${ROUNDS} rounds, middle half): first answer ${spread(times.tmaps.map((t) => t.first))} with the mock, ` +
          `${spread(times.bare.map((t) => t.first))} without; geocode ${spread(times.tmaps.map((t) => t.geocode))} vs ` +
          `${spread(times.bare.map((t) => t.geocode))}; bare msw's first answer ${spread(times.msw.map((t) => t.first))}, registered early ` +
          `${spread(times.mswEarly.map((t) => t.first))}. ` +
          `The first load ever (Vite pre-bundling on the way, one run): first answer ${cold.tmaps.first.toFixed(0)} ` +
          `vs ${cold.bare.first.toFixed(0)} ms (bare msw ${cold.msw.first.toFixed(0)}), geocode ` +
          `${cold.tmaps.geocode.toFixed(0)} vs ${cold.bare.geocode.toFixed(0)} ms. Load average ${loads.join(', ')}.`,
      ],
    }
  } finally {
    await browser?.close()
    for (const server of servers) await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A fresh project: the app's files, the package as `npm pack` would ship it (`tsc` into
 * `node_modules/tmaps-mock`, never this repository's `dist/`, which other runs may be using),
 * and this repository's `node_modules` as hard links (the same versions, no registry).
 */
async function makeProject(dir: string): Promise<void> {
  cpSync(join(root, 'bench/vite-app'), dir, { recursive: true })
  writeFileSync(join(dir, '.env'), `VITE_TMAPS_API_KEY=${APP_KEY}\n`)
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'vite-app', private: true, type: 'module' })}\n`,
  )
  // The folder itself (a worktree's `node_modules` may be a link: `cp` would copy the link, and the
  // package below would be written into the linked folder).
  execFileSync('cp', ['-al', realpathSync(join(root, 'node_modules')), join(dir, 'node_modules')])
  for (const cache of ['.vite', '.vite-temp'])
    rmSync(join(dir, 'node_modules', cache), { recursive: true, force: true })
  const pkg = join(dir, 'node_modules/tmaps-mock')
  mkdirSync(pkg)
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'))
  try {
    execFileSync(
      join(root, 'node_modules/.bin/tsc'),
      ['-p', join(root, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')],
      {
        stdio: 'pipe',
      },
    )
  } catch (error) {
    // tsc writes its output even with type errors (e.g. someone's work in progress elsewhere).
    if (!existsSync(join(pkg, 'dist/runtimes/vite/index.js'))) throw error
    console.warn(
      `bench: tsc reported errors; measuring what it wrote.\n${(error as { stdout?: Buffer }).stdout}`,
    )
  }
  // The mock's own answers, for the app without it.
  const mock = createTmapsMock({ state: 'empty', keys: [{ value: APP_KEY, domains: ['localhost'] }] })
  const answer = async (key: string) =>
    (
      await mock.fetch(
        new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key}`, {
          headers: { Origin: 'http://localhost' },
        }),
      )
    ).json()
  const answers = {
    key: APP_KEY,
    unauthorized: await answer(`ak_${'0'.repeat(32)}`),
    geocode: await answer(APP_KEY),
  }
  writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers))
}

/** One navigation in a fresh context; `fromGoto` times from the goto (a reload may come on the way). */
async function open(browser: Browser, url: string, fromGoto = false): Promise<Times> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const seen: string[] = []
    page.on('console', (message) => seen.push(`${message.type()}: ${message.text()}`))
    page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`))
    const start = Date.now()
    await page.goto(url, { timeout: 120_000 })
    await page
      .waitForFunction(() => window.firstGeocodeMs, undefined, { timeout: 120_000 })
      .catch((error) => {
        throw new Error(
          `bench: ${url} did not answer (${(error as Error).message}); the page said:\n${seen.join('\n')}`,
        )
      })
    const t = await page.evaluate(() => ({
      origin: performance.timeOrigin,
      first: window.firstAnswerMs!,
      geocode: window.firstGeocodeMs!,
    }))
    const offset = fromGoto ? t.origin - start : 0
    return { first: t.first + offset, geocode: t.geocode + offset }
  } finally {
    await context.close()
  }
}

interface DevServer {
  url: string
  close(): Promise<void>
}

/** `vite` in the project, as a developer starts it, on a free port of localhost. */
async function startDev(dir: string, args: string[]): Promise<DevServer> {
  const port = await freePort('localhost')
  const child: ChildProcess = spawn(
    process.execPath,
    [join(dir, 'node_modules/vite/bin/vite.js'), '--port', String(port), '--strictPort', ...args],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'development' } },
  )
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const url = `http://localhost:${port}/`
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`bench: vite dev exited with ${child.exitCode}:\n${output}`)
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (waited > 30_000) throw new Error(`bench: vite dev did not answer ${url} within 30 s:\n${output}`)
    await sleep(100)
  }
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** The machine's load average over the last minute (the bench's numbers depend on it). */
function loadAverage(): string {
  return existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ')[0]! : 'unknown'
}

/** The value below which a share `q` of the values lie (nearest rank). */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
}
