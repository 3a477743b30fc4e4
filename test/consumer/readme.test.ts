import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { recipePaths, withRecipes } from '../../scripts/readme-recipes.ts'
import { root } from '../support/packed.ts'

const readme = readFileSync(join(root, 'README.md'), 'utf8')

it('quotes a consumer test file for every runtime recipe', () => {
  expect(recipePaths(readme)).toEqual([
    'test/consumer/first-call/steps.sh',
    'test/consumer/first-call/first-call.mts',
    'test/consumer/vitest-project/src/geocode.test.ts',
    'test/consumer/vitest-project/src/geocode.ts',
    'test/consumer/jest-project/jest.config.js',
    'test/consumer/jest-project/geocode.test.js',
    'test/consumer/vite-app/vite.config.ts',
    'test/consumer/vitest-browser-project/vitest.config.ts',
    'test/consumer/vitest-browser-project/src/place-card.test.ts',
    'test/consumer/next-app/instrumentation.ts',
    'test/consumer/next-app/next.config.ts',
    'test/consumer/next-app/app/tmaps-mock-provider.tsx',
    'test/consumer/storybook-project/.storybook/preview.ts',
    'test/consumer/storybook-project/.storybook/main.ts',
    'test/consumer/storybook-project/src/PlaceSearch.stories.tsx',
    'test/consumer/playwright-project/tests/geocode.spec.ts',
    'test/consumer/playwright-project/tests/fixture.spec.ts',
    'test/consumer/server-recipe/backend.ts',
    'test/consumer/vitest-project/src/scenarios.test.ts',
    'test/consumer/vite-app/src/tmaps-overrides.ts',
    'test/consumer/openapi-client/client.ts',
  ])
  for (const path of recipePaths(readme)) expect(existsSync(join(root, path)), path).toBe(true)
})

it('quotes them verbatim (node scripts/readme-recipes.ts copies them in)', () => {
  expect(readme).toBe(withRecipes(readme))
})

it('keeps the quick start to two commands: the playground and the tests', () => {
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Recipes'))
  const commands = quickStart
    .match(/```sh\n([\s\S]*?)```/)![1]!
    .trim()
    .split('\n')
  expect(commands.map((line) => line.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test'])
})

it('fills an empty recipe block without swallowing the text and the recipes after it', () => {
  const fence = '```'
  const text = `<!-- recipe: a.sh -->\n${fence}sh\n${fence}\n\nBetween.\n\n<!-- recipe: b.ts -->\n${fence}ts\nold\n${fence}\n`
  expect(withRecipes(text, (path) => `text of ${path}\n`)).toBe(
    `<!-- recipe: a.sh -->\n${fence}sh\ntext of a.sh\n${fence}\n\nBetween.\n\n<!-- recipe: b.ts -->\n${fence}ts\ntext of b.ts\n${fence}\n`,
  )
})
