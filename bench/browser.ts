/**
 * Browser part of `npm run bench`: time from navigation to the first mocked response, in real
 * Chromium, for a page running the TMaps mock's worker against a page running a bare msw worker
 * with one handler; fresh browser context each time (service worker installed anew), pages
 * alternating, medians compared.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, preview } from 'vite'
import { CHROMIUM, launchChromium } from '../test/support/browser.ts'
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
    const ms = await tab.waitForFunction(() => window.firstResponseMs, undefined, { timeout: 30_000 })
    const value = (await ms.jsonValue()) as number
    await context.close()
    return value
  }
  const times = { tmaps: [] as number[], bare: [] as number[] }
  await time('tmaps')
  await time('bare')
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['tmaps', 'bare'] as const) : (['bare', 'tmaps'] as const)
    for (const page of order) times[page].push(await time(page))
  }
  await browser.close()
  await server.close()
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
  const aMicros = median(times.tmaps) * 1000
  const bMicros = median(times.bare) * 1000
  return [
    {
      label: 'page load to first mocked response, Chromium (cold service worker)',
      a: 'tmaps-mock worker',
      b: 'bare msw worker',
      aMicros,
      bMicros,
      ratio: aMicros / bMicros,
      target: null,
    },
  ]
}
