import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cleanUp, endProcessGroup } from '../support/cleanup.ts'
import { type ConsumerProject, consumerEnv, consumerProject, filesOf } from '../support/packed.ts'
import { APP_ORIGIN, REAL_KEY, type StandIn, startStandIn } from '../support/stand-in-tmaps.ts'

/**
 * Consumer 9: meeting the real TMaps from the packed tarball, as docs/upstream.md shows it, with a
 * stand-in TMaps (its own CA, on this machine) in place of api.tmaps.tn: `npx tmaps-mock verify`,
 * `npx tmaps-mock serve --upstream --record`, then the recording replayed in a Vitest suite.
 */
const exec = promisify(execFile)
let project: ConsumerProject
let standIn: StandIn
const children: ChildProcess[] = []
beforeAll(async () => {
  standIn = await startStandIn()
  project = await consumerProject('replay', {
    files: filesOf(join(import.meta.dirname, 'replay-project')),
  })
}, 400_000)
afterAll(() =>
  cleanUp({
    'stop the servers': () => Promise.all(children.map((child) => endProcessGroup(child))),
    'stop the stand-in': () => standIn?.close(),
    'remove the project': () => project?.remove(),
  }),
)

const env = () => ({ ...consumerEnv, TMAPS_KEY: REAL_KEY, XDG_CACHE_HOME: join(project.dir, '.cache') })

it('npx tmaps-mock verify: every probe the same as the mock against a faithful TMaps, exit 0, the key never shown', async () => {
  const { stdout, stderr } = await exec(
    'npx',
    [
      '--no-install',
      'tmaps-mock',
      'verify',
      '--key-env',
      'TMAPS_KEY',
      '--origin',
      APP_ORIGIN,
      '--api',
      standIn.url,
      '--tiles',
      standIn.url,
      '--ca',
      standIn.caPath,
      '--report',
      'verify.json',
      '--rate',
      '20',
    ],
    { cwd: project.dir, env: env() },
  )
  expect(stdout).toMatch(/probes: 0 errors, 0 warnings/)
  const report = JSON.parse(readFileSync(join(project.dir, 'verify.json'), 'utf8'))
  expect(report.summary).toMatchObject({ errors: 0, warnings: 0 })
  expect(`${stdout}${stderr}${JSON.stringify(report)}`).not.toContain(REAL_KEY)
}, 120_000)

it('npx tmaps-mock serve --upstream --record, then the recording replayed in Vitest: the bytes TMaps sent, the contract kept', async () => {
  const child = spawn(
    'npx',
    [
      '--no-install',
      'tmaps-mock',
      'serve',
      '--port',
      '0',
      '--seed',
      'consumer',
      '--upstream',
      standIn.url,
      '--upstream-tiles',
      standIn.url,
      '--upstream-key-env',
      'TMAPS_KEY',
      '--upstream-ca',
      standIn.caPath,
      '--record',
      'tmaps.har',
    ],
    { cwd: project.dir, env: env(), detached: true },
  )
  children.push(child)
  let out = ''
  const banner = await new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (out.includes('Ctrl-C to stop')) resolve(out)
    })
    child.stderr.on('data', (chunk) => {
      out += chunk
    })
    child.on('exit', () => resolve(out))
  })
  expect(banner).toMatch(/upstream: requests your local keys pass go to https:\/\/localhost:\d+/)
  expect(banner).not.toContain(REAL_KEY)
  const origin = banner.match(/serving the TMaps API at (https:\/\/localhost:\d+)/)![1]!
  const ca = banner.match(/curl: --cacert (\S+)/)![1]!
  const key = banner.match(/Web app \(local dev\)\s+enabled\s+(ak_[0-9a-f]{32})/)![1]!
  const curl = (path: string) =>
    exec('curl', ['-sS', '--cacert', ca, '-H', 'Origin: http://localhost:5173', `${origin}${path}`], {
      encoding: 'buffer',
    })
  await curl(`/geocoding/forward?q=Sfax&limit=1&api_key=${key}`)
  await curl(`/r-tile/7/68/51?api_key=${key}`)
  // Ended as users end it: the recording is whole and the process says nothing of the key.
  process.kill(-child.pid!, 'SIGTERM')
  await new Promise((resolve) => child.on('exit', resolve))
  expect(out).toMatch(/SIGTERM: finishing requests in flight/)
  expect(out).toMatch(/GET \/geocoding\/forward\?q=Sfax&limit=1&api_key=ak_\w{4}… 200 upstream/)
  const har = readFileSync(join(project.dir, 'tmaps.har'), 'utf8')
  expect(statSync(join(project.dir, 'tmaps.har')).mode & 0o777).toBe(0o600)
  expect(JSON.parse(har).log.entries).toHaveLength(2)
  // The banner shows the demo keys' values once, as the console shows a new key; the real key never.
  for (const secret of [REAL_KEY, key]) expect(har).not.toContain(secret)
  expect(out).not.toContain(REAL_KEY)

  project.run('npx', ['vitest', 'run', '--reporter=json', '--outputFile=report.json'], { timeout: 120_000 })
  const report = JSON.parse(readFileSync(join(project.dir, 'report.json'), 'utf8'))
  const tests = report.testResults.flatMap(
    (file: { assertionResults: { title: string; status: string }[] }) =>
      file.assertionResults.map((t) => [t.title, t.status]),
  )
  expect(tests).toEqual([
    ['answers what TMaps answered, byte for byte', 'passed'],
    ['serves a recorded tile as the PNG TMaps sent', 'passed'],
    ['keeps the contract: a foreign Origin still gets 403', 'passed'],
    ["says what was not recorded (onMissing: 'error')", 'passed'],
  ])
}, 300_000)
