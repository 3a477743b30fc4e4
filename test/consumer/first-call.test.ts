import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { cleanUp, removeDir } from '../support/cleanup.ts'
import { consumerEnv, devDependencies, nodeBin, packedTarball } from '../support/packed.ts'

/**
 * The README's "A first call", done as written: its shell steps (`first-call/steps.sh`, quoted by
 * the README) from an empty folder, `npm init -y` included, with the packed tarball standing in
 * for `tmaps-mock` of the registry, then the file it says to save. Nothing else is set up: no
 * `"type": "module"`, no tsconfig.
 */
const steps = readFileSync(join(import.meta.dirname, 'first-call/steps.sh'), 'utf8')
const program = readFileSync(join(import.meta.dirname, 'first-call/first-call.mts'), 'utf8')
const work = mkdtempSync(join(tmpdir(), 'tmaps-first-call-'))

afterAll(() => cleanUp({ 'remove the folder': () => removeDir(work) }))

it("runs the README's first call from npm init -y: 200 from the app's origin, 403 from another", async () => {
  const tarball = await packedTarball()
  const [before, after] = steps.split(/^# save the file below as first-call\.mts, then:\n/m)
  expect(after, 'steps.sh says where to save the file').toBeDefined()
  const sh = (script: string, cwd: string) =>
    execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      encoding: 'utf8',
      env: consumerEnv,
      timeout: 300_000,
    })
  // The registry's tmaps-mock is this build's tarball; msw as this repository pins it.
  const install = 'npm i -D tmaps-mock msw@3'
  expect(before).toContain(install)
  sh(
    before!.replace(
      install,
      `${install.replace('tmaps-mock msw@3', `${tarball} msw@${devDependencies.msw}`)} --no-audit --no-fund --prefer-offline`,
    ),
    work,
  )
  const project = join(work, 'first-call')
  // What npm init -y wrote is what a new user has: a CommonJS package.
  expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type).toBe('commonjs')
  writeFileSync(join(project, 'first-call.mts'), program)
  const out = sh(after!, project)
  expect(out.trim().split('\n')).toEqual([
    expect.stringMatching(/^200 \d{4} Sousse/),
    "403 { error: 'domain not authorized' }",
  ])
}, 400_000)

/** The machine's own Node when it is older than msw 3 needs (Node 20 on these machines), else none. */
const oldNode = (() => {
  try {
    const path = execFileSync('bash', ['-c', 'command -v node'], {
      encoding: 'utf8',
      env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    }).trim()
    const [major = 0, minor = 0] = execFileSync(path, ['--version'], { encoding: 'utf8' })
      .slice(1)
      .split('.')
      .map(Number)
    return major < 22 || (major === 22 && minor < 12) ? path : undefined
  } catch {
    return undefined
  }
})()

it.skipIf(!oldNode)(
  "runs the first call with the steps' command for Node 20, on the machine's Node 20",
  () => {
    const command = /^# Node 20:\s+(.+?)\s{2,}\(/m.exec(steps)?.[1]
    expect(command).toBe('npx -y node@24 first-call.mts')
    // A PATH without this repository's Node 24: `node` and `npx` are the machine's.
    const PATH = consumerEnv
      .PATH!.split(':')
      .filter((dir) => dir !== nodeBin)
      .join(':')
    expect(execFileSync('node', ['--version'], { encoding: 'utf8', env: { ...consumerEnv, PATH } })).toMatch(
      /^v(1\d|20|21|22\.(\d|1[01]))\./,
    )
    const out = execFileSync('bash', ['-euo', 'pipefail', '-c', command!], {
      cwd: join(work, 'first-call'),
      encoding: 'utf8',
      env: { ...consumerEnv, PATH },
      timeout: 300_000,
    })
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(/^200 \d{4} Sousse/),
      "403 { error: 'domain not authorized' }",
    ])
  },
  400_000,
)
