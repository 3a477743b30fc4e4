import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, filesOf, root } from '../support/packed.ts'

/**
 * Consumer: a fresh `@playwright/test` project that routes the TMaps hosts of its pages through
 * `tmaps-mock/playwright` (`routeTmaps` on a page, and the `tmapsFixtures` fixture on the whole
 * context), installed from the packed tarball, run in Debian's Chromium. Its files are
 * `test/consumer/playwright-project/`, quoted verbatim by the README's Playwright recipes.
 */
let project: ConsumerProject
beforeAll(async () => {
  project = await consumerProject('playwright-project', {
    files: filesOf(join(import.meta.dirname, 'playwright-project')),
  })
}, 400_000)
afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

it('type-checks and runs the Playwright suite green: the real Origin decides, 200 then 403; the fixture routes popups beside your routes and resets per test', () => {
  project.run(join(root, 'node_modules/.bin/tsc'), ['-p', '.'])
  project.run('npx', ['playwright', 'test', '--reporter=json'], {
    timeout: 120_000,
    env: { CHROMIUM_PATH: CHROMIUM, PLAYWRIGHT_JSON_OUTPUT_NAME: 'report.json' },
  })
  const report = JSON.parse(readFileSync(join(project.dir, 'report.json'), 'utf8'))
  const specs = report.suites.flatMap((file: { specs: { title: string; ok: boolean }[] }) =>
    file.specs.map((spec) => [spec.title, spec.ok]),
  )
  expect(specs).toEqual([
    ['answers the page and its popup, beside your own routes', true],
    ['starts every test from the same state', true],
    ['geocodes from the app, with the Origin the browser really sent', true],
    ['is refused when the key is not linked to the app', true],
  ])
}, 150_000)
