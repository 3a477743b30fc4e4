import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, filesOf } from '../support/packed.ts'

/**
 * Consumer: a fresh Jest 30 project in ESM mode (`node --experimental-vm-modules`, no transform),
 * `tmaps-mock/node` from the packed tarball. Jest runs each test file in a `vm` context, where
 * objects cloned by `structuredClone` come from another realm: every console action must work
 * there all the same. Its files are `test/consumer/jest-project/`, quoted by the README.
 */
const fixture = join(import.meta.dirname, 'jest-project')

let project: ConsumerProject
beforeAll(async () => {
  project = await consumerProject('jest-project', {
    files: filesOf(fixture),
  })
}, 400_000)
afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

it('runs the Jest suite green: 200, 401 after disableKey, 403 after unlinkDomain, every console action, a 429', () => {
  try {
    project.run('npm', ['test', '--', '--json', '--outputFile=report.json'], { timeout: 120_000 })
  } catch {
    // A failing suite exits 1: the report below says which test failed and why.
  }
  const report = JSON.parse(readFileSync(join(project.dir, 'report.json'), 'utf8'))
  const tests = report.testResults.flatMap(
    (file: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }) =>
      file.assertionResults.map((t) => [
        t.title,
        t.status,
        t.failureMessages.join('\n').split('\n')[0] ?? '',
      ]),
  )
  expect(tests).toEqual([
    ['finds Sfax (200)', 'passed', ''],
    ['401 once the key is disabled, 200 once enabled again', 'passed', ''],
    ['403 once localhost is unlinked, 200 once linked again', 'passed', ''],
    ['setKeyDomains and removeDomain change what a browser may do', 'passed', ''],
    ['a revoked key stays refused (401)', 'passed', ''],
    ['an injected 429 carries Retry-After, then the real answer', 'passed', ''],
  ])
}, 150_000)
