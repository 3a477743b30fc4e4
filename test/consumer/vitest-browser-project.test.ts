import { execFile } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerEnv, consumerProject, filesOf, root } from '../support/packed.ts'
import { REAL_KEY, startStandIn } from '../support/stand-in-tmaps.ts'

/**
 * Consumer: a fresh project whose component test runs in Vitest's browser mode
 * (Chromium through `@vitest/browser-playwright`, the machine's own browser) and gets the mock
 * from `tmaps-mock/vitest`'s fixtures, the worker script served by `tmapsMock()` in its Vitest
 * config; installed from the packed tarball. Its files are `test/consumer/vitest-browser-project/`,
 * which the README's recipe quotes verbatim.
 */
const fixture = join(import.meta.dirname, 'vitest-browser-project')
const env = { CHROMIUM_PATH: CHROMIUM }

let project: ConsumerProject
beforeAll(async () => {
  project = await consumerProject('vitest-browser-project', {
    files: filesOf(fixture),
  })
}, 400_000)
afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

/** The tests of a run's JSON report, as `[title, status, first failure message]`. */
function results(file: string): [string, string, string?][] {
  const report = JSON.parse(readFileSync(join(project.dir, file), 'utf8'))
  return report.testResults.flatMap(
    (f: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }) =>
      f.assertionResults.map((t) => [t.title, t.status, ...t.failureMessages.slice(0, 1)]),
  )
}

it('type-checks and runs the component test green in Chromium: the tile, the 403 and 401 banners, a reset per test', () => {
  project.run(join(root, 'node_modules/.bin/tsc'), ['-p', '.'])
  project.run('npx', ['vitest', 'run', '--reporter=json', '--outputFile=report.json'], {
    timeout: 180_000,
    env,
  })
  expect(results('report.json')).toEqual([
    ['shows the place and its map tile', 'passed'],
    ['shows a banner for a key of another site (403)', 'passed'],
    ['shows a banner for a disabled key (401)', 'passed'],
    ['starts each test from the same state', 'passed'],
  ])
}, 240_000)

it('records from the browser tests through tmapsRecorder(): one HAR per test file, the key never in it, then replays it without a key', async () => {
  const standIn = await startStandIn()
  try {
    const target = { TMAPS_API: standIn.url, TMAPS_TILES: standIn.url, TMAPS_CA: standIn.caPath }
    // Not project.run: the stand-in answers in this process, which a synchronous child would block.
    const run = (report: string, key: Record<string, string>) =>
      promisify(execFile)(
        'npx',
        ['vitest', 'run', '-c', 'vitest.record.config.ts', '--reporter=json', `--outputFile=${report}`],
        { cwd: project.dir, timeout: 180_000, env: { ...consumerEnv, ...env, ...target, ...key } },
      )
    const passed = [
      ['finds Sfax as TMaps answers it', 'passed'],
      ['is refused by the local contract first: TMaps is not asked', 'passed'],
    ]
    await run('recording.json', { TMAPS_KEY: REAL_KEY })
    expect(results('recording.json')).toEqual(passed)
    // TMaps (the stand-in) was asked once, with the real key and the test page's Origin.
    expect(standIn.seen.map((r) => r.path.replace(/\?.*/, ''))).toEqual(['/geocoding/forward'])
    expect(standIn.seen[0]!.path).toContain(`api_key=${REAL_KEY}`)
    expect(String(standIn.seen[0]!.headers.origin)).toMatch(/^http:\/\/localhost:\d+$/)
    const har = join(project.dir, 'recordings/search.recorded.ts.har')
    const text = readFileSync(har, 'utf8')
    expect(statSync(har).mode & 0o777).toBe(0o600)
    expect(text).not.toMatch(/ak_[0-9a-f]{32}/)
    expect(
      JSON.parse(text).log.entries.map((e: { _tmaps: { keyName: string } }) => e._tmaps.keyName),
    ).toEqual(['Web'])
    // CI without the secret: the same tests pass from the file; TMaps is not asked again.
    await run('replay.json', { TMAPS_KEY: '' })
    expect(results('replay.json')).toEqual(passed)
    expect(standIn.seen).toHaveLength(1)
  } finally {
    await standIn.close()
  }
}, 400_000)

it('says what to add when nothing serves the worker script, instead of a bare "Failed to fetch"', () => {
  const config = readFileSync(join(project.dir, 'vitest.config.ts'), 'utf8')
  expect(config).toContain('plugins: [tmapsMock()],')
  project.run('node', [
    '-e',
    `require('fs').writeFileSync('vitest.config.bare.ts', ${JSON.stringify(config.replace('plugins: [tmapsMock()],', 'plugins: [],'))})`,
  ])
  try {
    project.run(
      'npx',
      ['vitest', 'run', '-c', 'vitest.config.bare.ts', '--reporter=json', '--outputFile=bare.json'],
      {
        timeout: 180_000,
        env,
      },
    )
  } catch {
    // Vitest exits 1: the tests failed, as they should.
  }
  const failed = results('bare.json')
  expect(failed.map(([title, status]) => [title, status])).toEqual(
    expect.arrayContaining([['shows the place and its map tile', 'failed']]),
  )
  expect(failed[0]![2]).toContain(
    "tmaps-mock/vitest: msw's worker script is not served at /mockServiceWorker.js (404, no content type). Add tmapsMock() from 'tmaps-mock/vite'",
  )
}, 240_000)

it('runs the same project on Vitest 4.1 too, where Vitest serves a worker script of its own msw', async () => {
  const older = await consumerProject('vitest4-browser-project', {
    files: filesOf(fixture),
  })
  try {
    older.run('npx', ['vitest', 'run', '--reporter=json', '--outputFile=report.json'], {
      timeout: 180_000,
      env,
    })
    const report = JSON.parse(readFileSync(join(older.dir, 'report.json'), 'utf8'))
    expect(report.numPassedTests).toBe(4)
    expect(report.numFailedTests).toBe(0)
  } finally {
    older.remove()
  }
}, 500_000)
