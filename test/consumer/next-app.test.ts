import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort, launchChromium, watchErrors } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, developerEnv, filesOf } from '../support/packed.ts'

/**
 * Consumer: a Next.js App Router app (`test/consumer/next-app/`, quoted by the README's
 * recipe) installed with the packed tarball. `instrumentation.ts` starts `setupTmapsNode` in the
 * server (TMAPS_MOCK=1); `app/tmaps-mock-provider.tsx` starts `setupTmapsWorker` in the browser
 * before the app renders (NEXT_PUBLIC_TMAPS_MOCK=1 at build time). Built with `next build`,
 * served by `next start`, seen in Chromium: the server component geocodes with the app's
 * domain-restricted key (200: a server sends no Origin), the client component gets 200 on
 * `localhost` (listed) and 403 on `127.0.0.1` (a preview domain, not listed), and no request to
 * TMaps escapes the worker on a first visit. `next dev` gets the mock too.
 */
const mockEnv = {
  ...developerEnv,
  NEXT_TELEMETRY_DISABLED: '1',
  TMAPS_MOCK: '1',
  NEXT_PUBLIC_TMAPS_MOCK: '1',
}

let project: ConsumerProject
let browser: Browser | undefined
let server: NextServer | undefined

beforeAll(async () => {
  project = await consumerProject('next-app', {
    files: filesOf(join(import.meta.dirname, 'next-app')),
  })
  // The recipe's step: msw's worker script into public/ (kept in step by msw's postinstall).
  project.run('npx', ['msw', 'init', 'public', '--save'])
  execFileSync('npx', ['next', 'build'], { cwd: project.dir, env: mockEnv, stdio: 'pipe', timeout: 400_000 })
  browser = await launchChromium()
}, 800_000)

afterAll(() =>
  cleanUp({
    'stop next': () => server?.close(),
    'close the browser': () => browser?.close(),
    'remove the project': () => project?.remove(),
  }),
)

it('next build + next start: the server component 200, the client component 200 on its domain and 403 on another, nothing escapes', async () => {
  server = await startNext(project.dir, 'start')
  const context = await browser!.newContext()
  // A request that reaches the network (the worker did not answer it yet) would land here.
  const escaped: string[] = []
  await context.route(/^https:\/\/(api|tiles)\.tmaps\.tn\//, (route) => {
    escaped.push(route.request().url())
    return route.abort()
  })
  const seen: Record<string, [string | null, string | null]> = {}
  for (const host of ['localhost', '127.0.0.1']) {
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.goto(`http://${host}:${server.port}/`)
    await page.waitForFunction(() => !document.querySelector('#browser')?.textContent?.endsWith('…'))
    seen[host] = [await page.locator('#server').textContent(), await page.locator('#browser').textContent()]
    expect(errors).toEqual([])
  }
  expect(seen).toEqual({
    localhost: ['Server: 200 3000 Sfax, Tunisie', 'Browser: 200 3000 Sfax, Tunisie'],
    // The trap: the same key works from the server (no Origin) and not from a domain it lacks.
    '127.0.0.1': ['Server: 200 3000 Sfax, Tunisie', 'Browser: 403 domain not authorized'],
  })
  expect(escaped).toEqual([])
  await context.close()
  await server.close()
  server = undefined
}, 180_000)

it('next dev: the server component gets the mock too', async () => {
  server = await startNext(project.dir, 'dev')
  const html = await (await fetch(`http://localhost:${server.port}/`)).text()
  expect(html.replaceAll('<!-- -->', '')).toContain('<p id="server">Server: 200 3000 Sfax, Tunisie</p>')
  await server.close()
  server = undefined
}, 180_000)

interface NextServer {
  port: number
  close(): Promise<void>
}

/** `next start` or `next dev` on a free port, with the mock on; resolves once it answers. */
async function startNext(dir: string, command: 'start' | 'dev'): Promise<NextServer> {
  const port = await freePort()
  const child: ChildProcess = spawn(join(dir, 'node_modules/.bin/next'), [command, '--port', String(port)], {
    cwd: dir,
    env: mockEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null) throw new Error(`next ${command} exited with ${child.exitCode}:\n${output}`)
    if (/Ready in/.test(output)) return { port, close }
    if (waited > 60_000) {
      await close()
      throw new Error(`next ${command} was not ready within 60 s:\n${output}`)
    }
    await sleep(200)
  }
}
