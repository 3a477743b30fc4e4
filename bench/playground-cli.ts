/**
 * `npx tmaps-mock playground` as an installed user starts it (the built package's command, a
 * fresh process), against `npm start` in this repository (`vite dev` of the playground), each from
 * the command's start to the first map tile drawn in a fresh Chromium context at 1440 x 900.
 * Alternating rounds, both orders; the row is the median of the paired ratios. Target: within
 * 2x of `npm start`. Needs `npm run build` (dist/) first.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import type { Browser } from 'playwright-core'
import { CHROMIUM, freePort, launchChromium } from '../test/support/browser.ts'
import { type Comparison, quantile } from './harness.ts'

const ROUNDS = 7
const root = join(import.meta.dirname, '..')
const node = join(root, 'node_modules/.bin/node')

/** Starts a command and resolves with the page's URL once it prints it, and the process. */
function started(
  command: string,
  args: string[],
  url: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      out += chunk
      const found = stripVTControlCharacters(out).match(url)?.[1]
      if (found) resolve({ child, url: found })
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out}`)))
  })
}

/** From the command's start to the first map tile drawn in a fresh context, in ms. */
async function firstTile(browser: Browser, start: () => ReturnType<typeof started>): Promise<number> {
  const t0 = performance.now()
  const { child, url } = await start()
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const tab = await context.newPage()
    await tab.goto(url, { timeout: 60_000 })
    await tab.locator('.leaflet-tile-loaded').first().waitFor({ timeout: 60_000 })
    const ms = performance.now() - t0
    await context.close()
    return ms
  } finally {
    child.kill('SIGTERM')
    await new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once('exit', done)))
  }
}

export async function playgroundCliRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  if (!existsSync(CHROMIUM)) return { rows: [], notes: [] }
  if (!existsSync(join(root, 'dist/playground/index.html')))
    throw new Error('the built playground is missing: run npm run build first')
  const browser = await launchChromium()
  const cli = async () =>
    started(
      node,
      [join(root, 'dist/cli/tmaps-mock.js'), 'playground', '--port', String(await freePort('localhost'))],
      /playground at (http:\/\/\S+)/,
    )
  const npmStart = async () =>
    started(
      join(root, 'node_modules/.bin/vite'),
      [
        '--config',
        'playground/vite.config.ts',
        '--port',
        String(await freePort('localhost')),
        '--strictPort',
      ],
      /Local:\s+(http:\/\/\S+)/,
    )
  const times = { cli: [] as number[], start: [] as number[] }
  const ratios: number[] = []
  try {
    await firstTile(browser, cli) // warm: the OS's file cache, Chromium's first context
    await firstTile(browser, npmStart)
    for (let round = 0; round < ROUNDS; round++) {
      const pair = { cli: 0, start: 0 }
      for (const which of round % 2 === 0 ? (['cli', 'start'] as const) : (['start', 'cli'] as const))
        pair[which] = await firstTile(browser, which === 'cli' ? cli : npmStart)
      times.cli.push(pair.cli)
      times.start.push(pair.start)
      ratios.push(pair.cli / pair.start)
    }
  } finally {
    await browser.close()
  }
  const median = (values: number[]) => quantile(values, 0.5)
  return {
    rows: [
      {
        label:
          'npx tmaps-mock playground (the package) vs npm start (this repository): command to the first map tile',
        a: 'tmaps-mock playground',
        b: 'npm start (vite dev)',
        aMicros: median(times.cli) * 1000,
        bMicros: median(times.start) * 1000,
        ratio: median(ratios),
        spread: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
        target: 2,
      },
    ],
    notes: [
      `Playground from its command (${ROUNDS} rounds): tmaps-mock playground ${times.cli.map((t) => t.toFixed(0)).join(', ')} ms; npm start ${times.start.map((t) => t.toFixed(0)).join(', ')} ms.`,
    ],
  }
}
