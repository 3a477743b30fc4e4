import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { documentPaths, recipePaths, withRecipes } from '../../scripts/readme-recipes.ts'
import { anchorsOf, relativeLinks } from '../support/links.ts'
import { packedTarball, root } from '../support/packed.ts'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const pages = documentPaths()
const textOf = (page: string) => readFileSync(join(root, page), 'utf8')

it('quotes a consumer test file for every runtime recipe', () => {
  const quoted = Object.fromEntries(
    pages.map((page) => [page, recipePaths(textOf(page))]).filter(([, paths]) => paths.length),
  )
  expect(quoted).toEqual({
    'README.md': ['test/consumer/first-call/steps.sh', 'test/consumer/first-call/first-call.mts'],
    'docs/recipes/jest.md': [
      'test/consumer/jest-project/jest.config.js',
      'test/consumer/jest-project/geocode.test.js',
    ],
    'docs/recipes/nextjs.md': [
      'test/consumer/next-app/instrumentation.ts',
      'test/consumer/next-app/next.config.ts',
      'test/consumer/next-app/app/layout.tsx',
      'test/consumer/next-app/app/tmaps-mock-provider.tsx',
    ],
    'docs/recipes/playwright.md': [
      'test/consumer/playwright-project/playwright.config.ts',
      'test/consumer/playwright-project/tests/geocode.spec.ts',
      'test/consumer/playwright-project/tests/fixture.spec.ts',
    ],
    'docs/recipes/server.md': ['test/consumer/server-recipe/backend.ts'],
    'docs/recipes/storybook.md': [
      'test/consumer/storybook-project/.storybook/preview.ts',
      'test/consumer/storybook-project/.storybook/main.ts',
      'test/consumer/storybook-project/src/PlaceSearch.stories.tsx',
    ],
    'docs/recipes/vite.md': ['test/consumer/vite-app/vite.config.ts', 'test/consumer/vite-app/src/main.ts'],
    'docs/recipes/vitest-browser.md': [
      'test/consumer/vitest-browser-project/vitest.config.ts',
      'test/consumer/vitest-browser-project/src/place-card.ts',
      'test/consumer/vitest-browser-project/src/place-card.test.ts',
      'test/consumer/vitest-browser-project/vitest.record.config.ts',
      'test/consumer/vitest-browser-project/src/search.recorded.ts',
    ],
    'docs/recipes/vitest.md': [
      'test/consumer/vitest-project/src/geocode.test.ts',
      'test/consumer/vitest-project/src/geocode.ts',
    ],
    'docs/types-and-overrides.md': [
      'test/consumer/vitest-project/src/scenarios.test.ts',
      'test/consumer/vite-app/src/tmaps-overrides.ts',
      'test/consumer/openapi-client/client.ts',
    ],
  })
  for (const path of Object.values(quoted).flat()) expect(existsSync(join(root, path)), path).toBe(true)
})

it('quotes them verbatim (node scripts/readme-recipes.ts copies them in)', () => {
  for (const page of pages) expect(textOf(page), page).toBe(withRecipes(textOf(page)))
})

it('keeps the README short enough to read to the end, with a recipe table', () => {
  expect(readme.split('\n').length).toBeLessThan(250)
  for (const runtime of [
    'vitest',
    'jest',
    'vite',
    'vitest-browser',
    'nextjs',
    'storybook',
    'playwright',
    'server',
  ])
    expect(readme).toContain(`](docs/recipes/${runtime}.md)`)
})

it('keeps the quick start to two commands: the playground and the tests', () => {
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Recipes'))
  const commands = quickStart
    .match(/```sh\n([\s\S]*?)```/)![1]!
    .trim()
    .split('\n')
  expect(commands.map((line) => line.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test'])
})

it('has every relative link of the README and docs/ lead to a file and a heading of this repository', () => {
  const broken = pages.flatMap((page) =>
    relativeLinks(page, textOf(page)).filter(
      (link) =>
        !existsSync(join(root, link.file)) ||
        (link.anchor !== '' && link.file.endsWith('.md') && !anchorsOf(textOf(link.file)).has(link.anchor)),
    ),
  )
  expect(broken.map((link) => `${link.page}: ${link.target}`)).toEqual([])
})

it('has every link to a page lead somewhere in the installed package too (pictures but the README’s stay in the repository)', async () => {
  const packed = new Set(
    execFileSync('tar', ['-tzf', await packedTarball()], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.replace(/^package\//, '')),
  )
  const shipped = pages.filter((page) => packed.has(page))
  expect(shipped).toEqual(pages) // the README and every docs page are in the tarball
  const missing = shipped.flatMap((page) =>
    relativeLinks(page, textOf(page)).filter(
      (link) =>
        !packed.has(link.file) && !(link.file.startsWith('docs/screenshots/') && page !== 'README.md'),
    ),
  )
  expect(missing.map((link) => `${link.page}: ${link.target}`)).toEqual([])
})

it('fills an empty recipe block without swallowing the text and the recipes after it', () => {
  const fence = '```'
  const text = `<!-- recipe: a.sh -->\n${fence}sh\n${fence}\n\nBetween.\n\n<!-- recipe: b.ts -->\n${fence}ts\nold\n${fence}\n`
  expect(withRecipes(text, (path) => `text of ${path}\n`)).toBe(
    `<!-- recipe: a.sh -->\n${fence}sh\ntext of a.sh\n${fence}\n\nBetween.\n\n<!-- recipe: b.ts -->\n${fence}ts\ntext of b.ts\n${fence}\n`,
  )
})

it('reads GitHub’s anchors and a page’s relative links as GitHub does', () => {
  expect([
    ...anchorsOf('# A local HTTPS server (mobile apps, backends, curl)\n## `GET /x`\n## Hi\n## Hi\n'),
  ]).toEqual(['a-local-https-server-mobile-apps-backends-curl', 'get-x', 'hi', 'hi-1'])
  expect(
    relativeLinks(
      'docs/recipes/vite.md',
      '[a](../browser.md#x) [b](https://e.tn) `[c](d.md)` [e](#f)\n```\n[g](h.md)\n```\n',
    ),
  ).toEqual([
    { page: 'docs/recipes/vite.md', file: 'docs/browser.md', anchor: 'x', target: '../browser.md#x' },
    { page: 'docs/recipes/vite.md', file: 'docs/recipes/vite.md', anchor: 'f', target: '#f' },
  ])
})
