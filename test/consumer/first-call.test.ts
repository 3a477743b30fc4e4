import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { cleanUp, removeDir } from '../support/cleanup.ts'
import { consumerEnv, devDependencies, packedTarball } from '../support/packed.ts'

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
  const install = 'npm i -D tmaps-mock msw'
  expect(before).toContain(install)
  sh(
    before!.replace(
      install,
      `${install.replace('tmaps-mock msw', `${tarball} msw@${devDependencies.msw}`)} --no-audit --no-fund --prefer-offline`,
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
