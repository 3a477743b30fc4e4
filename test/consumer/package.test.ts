import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, node, packedTarball, root } from '../support/packed.ts'

/** A consumer's own code, using only the published entry points. */
const CONSUMER = `
import { createTmapsMock, TmapsConsoleError, DATA_ATTRIBUTION } from 'tmaps-mock'
import { setupTmapsNode } from 'tmaps-mock/node'
import { routeTmaps } from 'tmaps-mock/playwright'
import { startTmapsHttpsServer } from 'tmaps-mock/server'

const { server, mock } = setupTmapsNode({ state: 'empty', seed: 'consumer' })
server.listen({ onUnhandledFrame: 'error' })
await mock.ready
const key = await mock.console.createKey({ name: 'Consumer', domains: ['localhost'] })
const ok = await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=' + key.value, { headers: { Origin: 'http://localhost:3000' } })
const denied = await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=' + key.value, { headers: { Origin: 'https://evil.tn' } })
const tile = await fetch('https://tiles.tmaps.tn/r-tile/6/33/25?api_key=' + key.value)
const tileBytes = new Uint8Array(await tile.arrayBuffer())
let consoleError = ''
try { await mock.console.revokeKey(key.id) } catch (e) { if (e instanceof TmapsConsoleError) consoleError = e.code }
server.close()
const other = createTmapsMock()
const { createdKeys } = await other.ready
const body: { results: Array<{ components: { governorate: string } }> } = await ok.json()
console.log(JSON.stringify({
  ok: ok.status,
  governorate: body.results[0]?.components.governorate,
  denied: denied.status,
  deniedBody: await denied.json(),
  consoleError,
  demoKeys: createdKeys.length,
  attribution: DATA_ATTRIBUTION.startsWith('Place data'),
  adapters: typeof routeTmaps === 'function' && typeof startTmapsHttpsServer === 'function',
  tile: [tile.status, tile.headers.get('content-type'), [...tileBytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')],
}))
`

/** A consumer's browser code: type-checked here, bundled by Vite below (it runs in the e2e page). */
const BROWSER_CONSUMER = `
import { CALLER_HEADER, type CallerPreset, setupTmapsWorker } from 'tmaps-mock/browser'

const tmaps = setupTmapsWorker({ state: 'empty', persist: 'consumer' })
const caller: CallerPreset = { kind: 'site', origin: 'https://shop.example.tn' }
export async function boot(): Promise<string> {
  await tmaps.start()
  tmaps.simulateCaller(caller)
  const key = await tmaps.console.createKey({ name: 'Browser' })
  return CALLER_HEADER + key.prefix
}
void boot()
`

let project: ConsumerProject
let dir = ''
beforeAll(async () => {
  project = await consumerProject('consumer', {
    files: {
      'consumer.ts': CONSUMER,
      'first-call.mts': readFileSync(join(import.meta.dirname, 'first-call/first-call.mts'), 'utf8'),
      'browser.ts': BROWSER_CONSUMER,
      'index.html': '<!doctype html><script type="module" src="./browser.ts"></script>',
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2023',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ['es2023', 'dom'],
        },
        files: ['consumer.ts', 'browser.ts', 'first-call.mts'],
      }),
    },
  })
  dir = project.dir
}, 400_000)

afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

describe('the packed npm tarball, installed as a consumer would', () => {
  it('type-checks a consumer against the published types', () => {
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', dir], {
        cwd: dir,
        stdio: 'pipe',
        encoding: 'utf8',
      })
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
      throw new Error(`tsc finds errors in the published types:\n${stdout}${stderr}`)
    }
  })

  it('runs tmaps-mock and tmaps-mock/node with real fetch', () => {
    const out = execFileSync(node, ['consumer.ts'], { cwd: dir, encoding: 'utf8' })
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      ok: 200,
      governorate: 'Sfax',
      denied: 403,
      deniedBody: { error: 'domain not authorized' },
      consoleError: 'forbidden-transition',
      demoKeys: 5,
      attribution: true,
      adapters: true,
      tile: [200, 'image/png', 'PNG'],
    })
  })

  it('keeps tmaps-mock/browser out of Node (its export has node: null)', () => {
    expect(() =>
      execFileSync(node, ['-e', "await import('tmaps-mock/browser')"], {
        cwd: dir,
        stdio: 'pipe',
        input: '',
      }),
    ).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED|not defined by "exports"/)
  })

  it('bundles tmaps-mock/browser for the browser with Vite', () => {
    execFileSync(node, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
      cwd: dir,
      stdio: 'pipe',
    })
    const assets = readdirSync(join(dir, 'dist/assets')).filter((f) => f.endsWith('.js'))
    expect(assets.length).toBeGreaterThan(0)
  }, 60_000)

  it('installs the tmaps-mock command', () => {
    const help = execFileSync(
      node,
      [join(dir, 'node_modules/tmaps-mock/dist/cli/tmaps-mock.js'), 'serve', '--help'],
      {
        encoding: 'utf8',
      },
    )
    expect(help).toContain('Usage: tmaps-mock serve [options]')
    expect(readdirSync(join(dir, 'node_modules/.bin'))).toContain('tmaps-mock')
  })

  it('loads @msw/data from its bundle: no es-toolkit module at all, the licences carried', () => {
    // Every module a fresh process loads for a first answer, as Node's module hooks see them.
    const hooks = `import { registerHooks } from 'node:module'
const seen = []
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context) } })
process.on('exit', () => console.log(JSON.stringify(seen)))`
    const script = `const { setupTmapsNode } = await import('tmaps-mock/node')
const { server } = setupTmapsNode({ state: 'empty' })
server.listen()
const status = (await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax')).status
server.close()
if (status !== 401) throw new Error('expected 401, got ' + status)`
    const out = execFileSync(
      node,
      ['--import', `data:text/javascript,${encodeURIComponent(hooks)}`, '--input-type=module', '-e', script],
      { cwd: dir, encoding: 'utf8' },
    )
    const loaded: string[] = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(loaded.some((url) => url.endsWith('/dist/vendor/msw-data.js'))).toBe(true)
    expect(loaded.filter((url) => url.includes('/node_modules/es-toolkit/'))).toEqual([])
    expect(loaded.filter((url) => url.includes('/node_modules/@msw/data/'))).toEqual([])
    const bundle = readFileSync(join(dir, 'node_modules/tmaps-mock/dist/vendor/msw-data.js'), 'utf8')
    for (const name of ['@msw/data', 'es-toolkit', 'mutative', 'outvariant', 'rettime'])
      expect(bundle.slice(0, bundle.indexOf('*/'))).toMatch(
        new RegExp(`${name}@[0-9.]+ \\(MIT\\)[\\s\\S]*?Permission is hereby granted`),
      )
  })

  it('answers the default seed’s geocodes from the geocoder made at build time, as the sources answer', async () => {
    // Which files the process reads (the pack is read with node:fs, not imported).
    const hooks = `import fs from 'node:fs'
const read = fs.readFileSync
globalThis.__read = []
fs.readFileSync = (file, ...rest) => { globalThis.__read.push(String(file)); return read(file, ...rest) }`
    const questions = [
      'Sfax',
      'Avenue Habib Bourguiba, Tunis',
      '12 Rue de Marseille Tunis',
      'جربة',
      'aeroprt',
    ]
    const script = `const { setupTmapsNode } = await import('tmaps-mock/node')
const { server, mock } = setupTmapsNode({ state: 'empty' })
server.listen()
const key = await mock.console.createKey({ name: 'pack' })
const answers = []
for (const q of ${JSON.stringify(questions)})
  answers.push(await (await fetch('https://api.tmaps.tn/geocoding/forward?limit=10&q=' + encodeURIComponent(q) + '&api_key=' + key.value)).json())
server.close()
console.log(JSON.stringify({ answers, read: globalThis.__read.filter((f) => f.includes('geocoder-pack')) }))`
    const out = execFileSync(
      node,
      ['--import', `data:text/javascript,${encodeURIComponent(hooks)}`, '--input-type=module', '-e', script],
      { cwd: dir, encoding: 'utf8' },
    )
    const { answers, read } = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(read).toEqual([
      expect.stringMatching(/node_modules\/tmaps-mock\/dist\/endpoints\/geocoding\/geocoder-pack\.json$/),
    ])
    const { createTmapsCore } = await import('../../src/core/create-core.ts')
    const core = createTmapsCore({ state: 'empty' })
    await core.ready
    const key = await core.console.createKey({ name: 'sources' })
    const expected = []
    for (const q of questions) {
      const url = `https://api.tmaps.tn/geocoding/forward?limit=10&q=${encodeURIComponent(q)}&api_key=${key.value}`
      expected.push(await (await core.fetch(new Request(url))).json())
    }
    expect(answers).toEqual(expected)
    expect(answers[0].results[0].formatted).toMatch(/Sfax/)
    expect(answers[2].results[0].type).toBe('address')
  }, 60_000)

  it('ships no tests, no sources outside dist, the data it needs and the docs (text, and the README’s picture)', async () => {
    const files = execFileSync('tar', ['-tzf', await packedTarball()], { encoding: 'utf8' }).split('\n')
    expect(files).toContain('package/dist/data/tunisia.json')
    expect(files).toContain('package/dist/endpoints/geocoding/geocoder-pack.json')
    expect(files.filter((f) => f.includes('.test.'))).toEqual([])
    expect(
      files.filter(
        (f) =>
          f &&
          !f.startsWith('package/dist/') &&
          !/^package\/docs\/(recipes\/)?[a-z-]+\.md$/.test(f) &&
          ![
            'package/docs/screenshots/playground.png',
            'package/package.json',
            'package/README.md',
            'package/CHANGELOG.md',
            'package/LICENSE',
            'package/openapi/tmaps.openapi.json',
          ].includes(f),
      ),
    ).toEqual([])
  })

  it("ships the built playground (its page, msw's worker beside it) and stays within 5 MB packed", async () => {
    const tarball = await packedTarball()
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n')
    expect(files).toContain('package/dist/playground/index.html')
    expect(files).toContain('package/dist/playground/mockServiceWorker.js')
    expect(files.some((f) => /^package\/dist\/playground\/assets\/render-worker-[\w-]+\.js$/.test(f))).toBe(
      true,
    )
    expect(statSync(tarball).size).toBeLessThanOrEqual(5 * 1024 * 1024)
  })
})
