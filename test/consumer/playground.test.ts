import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, resolve, sep } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTmapsMock } from '../../src/runtimes/msw/create-tmaps-mock.ts'
import { launchChromium, openPage, watchErrors } from '../support/browser.ts'
import { cleanUp, endProcessGroup, removeDir } from '../support/cleanup.ts'
import { type ConsumerProject, consumerEnv, consumerProject } from '../support/packed.ts'
import { keyCard, send } from '../support/playground-page.ts'

/**
 * Consumer: `npx tmaps-mock playground` from the packed tarball, in a project that installed
 * nothing else, started on the machine's own Node (20 here): the page an installed user opens,
 * driven in Chromium as a person would. And `--out`: a static copy served at a path prefix by a
 * plain static file server.
 */
const systemNode = '/usr/bin'

let project: ConsumerProject
let browser: Browser
const children: ChildProcess[] = []
const servers: Server[] = []
const folders: string[] = []
beforeAll(async () => {
  ;[project, browser] = await Promise.all([consumerProject('playground', {}), launchChromium()])
}, 400_000)
afterAll(() =>
  cleanUp({
    'close the browser': () => browser?.close(),
    'stop the playgrounds': () => Promise.all(children.map((child) => endProcessGroup(child))),
    'stop the static servers': () => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))),
    'remove the project and copies': () => {
      project?.remove()
      for (const dir of folders) removeDir(dir)
    },
  }),
)

/**
 * Runs `npx tmaps-mock playground <args>` on the machine's Node; resolves with what it printed once it is
 * done or listening.
 */
function playground(args: string[]): Promise<{ out: string; url: string | undefined }> {
  const child = spawn('npx', ['--no-install', 'tmaps-mock', 'playground', ...args], {
    cwd: project.dir,
    env: { ...consumerEnv, PATH: `${systemNode}:${consumerEnv.PATH}` },
    detached: true,
  })
  children.push(child)
  let out = ''
  return new Promise((done) => {
    const read = (chunk: Buffer) => {
      out += chunk
      if (out.includes('Ctrl-C to stop')) done({ out, url: out.match(/playground at (http:\/\/\S+)/)?.[1] })
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', () => done({ out, url: undefined }))
  })
}

/** Every visible tile of the page's map is drawn (with the local-dev key, the map's own). */
async function mapDrawn(page: Page) {
  await expect.poll(() => page.locator('.map').getAttribute('data-tiles'), { timeout: 30_000 }).toBe('loaded')
}

/** Disables a key from its card: the next request with it is refused 401, and the log row says why. */
async function disableAndSee401(page: Page, name: string) {
  expect((await send(page, name)).status).toBe(200)
  await keyCard(page, name)
    .getByRole('switch', { name: `Enabled: ${name}` })
    .click()
  const refused = await send(page, name)
  expect(refused.status).toBe(401)
  expect(refused.reason).toMatch(/^Key ak_[0-9a-f]{4}… is disabled: enable it in the console/)
  const row = page.getByTestId('log-entry').first()
  expect(await row.textContent()).toMatch(/^401GET.*key-disabled/)
  expect(await row.getAttribute('title')).toContain('is disabled: enable it in the console')
}

/** Links this page's host to a key that lacks it: its 403 becomes a 200. */
async function linkAndSee200(page: Page, name: string) {
  const refused = await send(page, name)
  expect(refused.status).toBe(403)
  expect(refused.reason).toContain('-> host localhost is not linked to key')
  const card = keyCard(page, name)
  await card.getByLabel('Link a domain').selectOption('localhost')
  await card.getByRole('button', { name: 'Link', exact: true }).click()
  const accepted = await send(page, name)
  expect(accepted.status).toBe(200)
  expect(accepted.reason).toContain('-> host localhost is linked to key')
}

describe('npx tmaps-mock playground', () => {
  it("serves the page on the machine's Node: disable a key, 401 and why; link a domain, 403 becomes 200", async () => {
    const { out, url } = await playground(['--port', '0'])
    expect(url, out).toMatch(/^http:\/\/localhost:\d+\/$/)
    const context = await browser.newContext()
    const { page, errors } = await openPage(context, url!)
    await mapDrawn(page)
    await disableAndSee401(page, 'Web app (local dev)')
    await linkAndSee200(page, 'Production frontend')
    // Kept per origin, across a reload.
    await page.reload()
    await page.getByRole('heading', { name: 'API keys' }).waitFor()
    expect(await send(page, 'Web app (local dev)')).toMatchObject({ status: 401 })
    expect(errors()).toEqual([])
    await context.close()
  }, 120_000)

  it("starts from --state and --seed: that snapshot, with that seed's data", async () => {
    const seeded = createTmapsMock({ seed: 'consumer-seed' })
    const { createdKeys } = await seeded.ready
    const snapshot = seeded.snapshot()
    snapshot.keys = snapshot.keys.filter((k) => k.name === 'Web app (local dev)')
    snapshot.links = snapshot.links.filter((l) => snapshot.keys.some((k) => k.id === l.keyId))
    const file = join(project.dir, 'state.json')
    writeFileSync(file, JSON.stringify(snapshot))
    const { out, url } = await playground(['--port', '0', '--state', file, '--seed', 'consumer-seed'])
    expect(url, out).toBeDefined()
    const context = await browser.newContext()
    const { page, errors } = await openPage(context, url!)
    const cards = page.locator('[data-testid="key"]')
    await expect.poll(() => cards.count()).toBe(1)
    const value = createdKeys.find((k) => k.name === 'Web app (local dev)')!.value
    expect(await keyCard(page, 'Web app (local dev)').textContent()).toContain(`${value.slice(0, 7)}…`)
    // Reset goes back to that state, and says so.
    expect(await page.getByRole('button', { name: 'Reset to start' }).count()).toBe(1)
    expect(errors()).toEqual([])
    await context.close()
  }, 120_000)

  it('refuses a state file that is not a snapshot, saying what is wrong (exit 2)', async () => {
    const file = join(project.dir, 'not-a-state.json')
    writeFileSync(file, '{"keys": 3}')
    const { out, url } = await playground(['--state', file])
    expect(url).toBeUndefined()
    expect(out).toContain(`the state file ${file} is not a tmaps-mock snapshot`)
    expect(children.at(-1)!.exitCode).toBe(2)
  })
})

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
}

/** A plain static file server for `dir` under `prefix` (as a docs site or a talk's host would be). */
async function serveStatic(dir: string, prefix: string): Promise<string> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    const file = resolve(dir, `.${path.slice(prefix.length - 1)}`)
    const named = path.endsWith('/') ? join(file, 'index.html') : file
    if (!path.startsWith(prefix) || !(named === dir || named.startsWith(dir + sep)))
      return void res.writeHead(404).end()
    try {
      const bytes = readFileSync(named)
      res.writeHead(200, { 'Content-Type': TYPES[extname(named)] ?? 'application/octet-stream' }).end(bytes)
    } catch {
      res.writeHead(404).end()
    }
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://localhost:${(server.address() as AddressInfo).port}${prefix}`
}

describe('npx tmaps-mock playground --out', () => {
  it('writes a static copy that works from a plain static server at a path prefix', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tmaps-playground-copy-')), 'demo')
    folders.push(resolve(out, '..'))
    const written = await playground(['--out', out])
    expect(written.out).toContain(`a static copy written to ${out}`)
    const url = await serveStatic(out, '/talks/tmaps/demo/')
    const context = await browser.newContext()
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.goto(url)
    await page.getByRole('heading', { name: 'API keys' }).waitFor()
    // The service worker is the copy's own, scoped to its folder.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    expect(scope).toBe(url)
    await mapDrawn(page) // in the copy's render worker
    await disableAndSee401(page, 'Web app (local dev)')
    await linkAndSee200(page, 'Production frontend')
    expect(errors).toEqual([])
    await context.close()
  }, 120_000)

  it('refuses to write into a folder that is not empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tmaps-playground-full-'))
    folders.push(dir)
    writeFileSync(join(dir, 'keep.txt'), 'mine')
    const { out } = await playground(['--out', dir])
    expect(out).toContain(`${dir} is not empty: give a new or empty folder for the static copy.`)
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('mine')
  })
})

/** Starts `npx tmaps-mock serve` (its CA in the project); resolves with its origin and CA once it listens. */
function serve(): Promise<{ origin: string; ca: string; banner: string }> {
  const child = spawn('npx', ['--no-install', 'tmaps-mock', 'serve', '--port', '0', '--seed', 'consumer'], {
    cwd: project.dir,
    env: {
      ...consumerEnv,
      PATH: `${systemNode}:${consumerEnv.PATH}`,
      XDG_CACHE_HOME: join(project.dir, '.cache'),
    },
    detached: true,
  })
  children.push(child)
  let out = ''
  return new Promise((done, fail) => {
    const read = (chunk: Buffer) => {
      out += chunk
      if (!out.includes('Ctrl-C to stop')) return
      const origin = out.match(/serving the TMaps API at (https:\/\/localhost:\d+)/)?.[1]
      const ca = out.match(/curl: --cacert (\S+)/)?.[1]
      if (origin && ca) done({ origin, ca, banner: out })
      else fail(new Error(`serve printed no origin or CA:\n${out}`))
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', () => fail(new Error(`serve exited:\n${out}`)))
  })
}

describe("npx tmaps-mock serve's console: the playground, driving the server", () => {
  it('disable a key: 401 and why; link a domain: 403 becomes 200; a change made with curl shows within a second', async () => {
    const { origin, ca } = await serve()
    const curl = async (...args: string[]) =>
      (await promisify(execFile)('curl', ['-sS', '--cacert', ca, ...args])).stdout
    const context = await browser.newContext({ ignoreHTTPSErrors: true })
    const { page, errors } = await openPage(context, `${origin}/`)
    expect(page.url()).toBe(`${origin}/__console/`)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('tmaps-mock serve')
    await expect.poll(() => page.getByTestId('server-live').textContent()).toBe('live')
    await mapDrawn(page) // drawn by the server
    await disableAndSee401(page, 'Web app (local dev)')
    await linkAndSee200(page, 'Production frontend')
    // The composer's caller a browser cannot be, sent for the page by the server: another site.
    const foreign = await send(page, 'Production frontend', 'Another site')
    expect(foreign.status).toBe(403)
    expect(foreign.reason).toContain('https://evil.example -> host evil.example is not linked')

    // curl enables the key again: the open page shows it within a second, without a reload.
    const keys = JSON.parse(await curl(`${origin}/__console/keys`)) as { id: string; name: string }[]
    const web = keys.find((k) => k.name === 'Web app (local dev)')!
    const enabled = keyCard(page, 'Web app (local dev)').getByRole('switch', {
      name: 'Enabled: Web app (local dev)',
    })
    expect(await enabled.isChecked()).toBe(false)
    await curl('-X', 'POST', `${origin}/__console/keys/${web.id}/enable`)
    await expect.poll(() => enabled.isChecked(), { timeout: 1000, interval: 50 }).toBe(true)
    await curl('-X', 'DELETE', `${origin}/__console/keys/${web.id}/domains/localhost`)
    const chips = keyCard(page, 'Web app (local dev)').locator('.chip-name')
    await expect.poll(() => chips.allTextContents(), { timeout: 1000, interval: 50 }).toEqual([])

    // Another tab of the console: what it changes shows here too.
    const other = await context.newPage()
    await other.goto(`${origin}/__console/`)
    const backend = (tab: Page) =>
      keyCard(tab, 'Backend (server-side)').getByRole('switch', { name: 'Enabled: Backend (server-side)' })
    await backend(other).click()
    await expect.poll(() => backend(other).isChecked()).toBe(false)
    await expect.poll(() => backend(page).isChecked(), { timeout: 1000, interval: 50 }).toBe(false)
    await other.close()

    // A request curl makes is in the page's log: the URL as it was asked, the header the decision used, the
    // step that failed and its fix.
    const key = JSON.parse(await curl(`${origin}/__console/snapshot`)).keys.find(
      (k: { id: string }) => k.id === web.id,
    ).value as string
    await curl('-H', 'Origin: https://shop.example', `${origin}/geocoding/forward?q=Sfax&api_key=${key}`)
    const row = page.getByTestId('log-entry').first()
    await expect.poll(() => row.textContent(), { timeout: 1000, interval: 50 }).toMatch(/^403GET/)
    expect(await row.textContent()).toContain(
      `${new URL(origin).host}/geocoding/forward?q=Sfax&api_key=${key.slice(0, 7)}…`,
    )
    await row.getByTestId('log-url').click()
    const detail = page.getByTestId('log-detail').first()
    expect(await detail.getByTestId('log-header').textContent()).toBe(
      'Origin: https://shop.example (observed)',
    )
    expect(await detail.getByTestId('log-step').textContent()).toMatch(/^failed at .*shop\.example/)
    expect(await detail.getByTestId('log-fix').textContent()).toContain('link shop.example to the key')
    // Masked wherever the page shows it (the map's tile URLs carry it, as a real map's do).
    expect(await page.locator('body').innerText()).not.toContain(key)
    expect(errors()).toEqual([])
    await context.close()
  }, 120_000)
})
