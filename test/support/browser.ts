import { existsSync, mkdirSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { build, preview } from 'vite'

/** Debian's Chromium, installed by `.ci/run` (`apt-get install -y chromium`). Never downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The flags these machines need (design.md §4): no sandbox as root, no background networking. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Chromium as these tests need it. `args` adds flags, e.g. to let a page on a public origin call
 * the local HTTPS server (Chromium's Local Network Access checks would block it).
 */
export function launchChromium(args: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Failed to start the browser tests: no Chromium at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...args] })
}

/** A TCP port free right now on `host` (default: every address). */
export function freePort(host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * Builds the playground (as `npm run playground:build` does) and serves it with `vite preview` on
 * every local address, so it opens both at http://localhost:<port> and http://127.0.0.1:<port>.
 */
export function servePlayground(): Promise<{ port: number; close: () => Promise<void> }> {
  return serveApp('playground/vite.config.ts', 'playground')
}

/**
 * Builds the Vite app of `configFile` into a temporary folder and serves it with `vite preview`
 * on every local address (http://localhost:<port> and http://127.0.0.1:<port>: two origins).
 */
export async function serveApp(
  configFile: string,
  name: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const outDir = join(tmpdir(), `tmaps-${name}-${process.pid}`)
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  const port = await freePort()
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: true, port, strictPort: true, open: false },
  })
  return { port, close: () => server.close() }
}

/**
 * A page of a fresh context (its own storage and service worker) that records what the page
 * logs as errors; `errors()` leaves out the browser's own "Failed to load resource" notices for
 * answers with a 4xx status, which are the answers under test.
 */
export async function openPage(context: BrowserContext, url: string) {
  const page = await context.newPage()
  const errors = watchErrors(page)
  await page.goto(url)
  await page.getByRole('heading', { name: 'API keys' }).waitFor()
  return { page, errors: () => errors }
}

/**
 * Collects what a page reports as errors (uncaught exceptions, console.error), leaving out the
 * browser's own "Failed to load resource" notices for 4xx answers, which are under test.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(`console.error: ${message.text()}`)
    }
  })
  return errors
}

const SHOTS = join('test-results', 'screenshots')

/** Saves a full-page screenshot under test-results/screenshots and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true })
  const path = join(SHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
