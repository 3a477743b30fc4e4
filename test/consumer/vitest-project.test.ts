import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, filesOf, root } from '../support/packed.ts'

/**
 * Consumer 1: a fresh Vitest project (Node 24) that tests a tiny geocoding client with
 * `tmaps-mock/node`, installed from the packed tarball. Its files are `test/consumer/vitest-project/`,
 * which the README's Vitest recipe quotes verbatim (test/consumer/readme.test.ts checks).
 */
const fixture = join(import.meta.dirname, 'vitest-project')

let project: ConsumerProject
beforeAll(async () => {
  project = await consumerProject('vitest-project', {
    files: filesOf(fixture),
  })
}, 400_000)
afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

it('type-checks and runs the consumer suite green: happy path, 401, 403, the 429 retry, a tile as bytes, scenarios', () => {
  project.run(join(root, 'node_modules/.bin/tsc'), ['-p', '.'])
  project.run('npx', ['vitest', 'run', '--reporter=json', '--outputFile=report.json'], { timeout: 120_000 })
  const report = JSON.parse(readFileSync(join(project.dir, 'report.json'), 'utf8'))
  const tests = report.testResults.flatMap(
    (file: { assertionResults: { title: string; status: string }[] }) =>
      file.assertionResults.map((t) => [t.title, t.status]),
  )
  // Two test files, run in parallel: in any order.
  const byTitle = (a: string[], b: string[]) => a[0]!.localeCompare(b[0]!)
  expect(tests.sort(byTitle)).toEqual(
    [
      ['finds Sfax', 'passed'],
      ['tells a disabled key (401)', 'passed'],
      ['tells a foreign origin (403)', 'passed'],
      ['retries a 429 as the docs say: after 1 s, then 2 s', 'passed'],
      ['fetches a raster tile as PNG bytes', 'passed'],
      ['shows nothing found', 'passed'],
      ['gets a low-confidence match', 'passed'],
      ['gets 400 for directions to a point at sea', 'passed'],
      ['still gets 401 for a disabled key, whatever the override', 'passed'],
    ].sort(byTitle),
  )
}, 150_000)
