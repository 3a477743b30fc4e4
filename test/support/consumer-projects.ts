import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  peerDependencies?: Record<string, string>
  devDependencies: Record<string, string>
}

/** The versions this repository pins (package.json's devDependencies): consumer projects install the same. */
export const devDependencies: Readonly<Record<string, string>> = pkg.devDependencies

/** A devDependency's pinned version, or a thrown error naming it (a project must not install "undefined"). */
function pinned(name: string): string {
  const version = devDependencies[name]
  if (version === undefined)
    throw new Error(`${name} is not a devDependency of package.json: pin it there first.`)
  return version
}

const pin = (...names: string[]) => Object.fromEntries(names.map((name) => [name, pinned(name)]))

/**
 * The packages a consumer of every entry needs besides tmaps-mock: its peers (optional ones
 * included, for `./vite` and `./storybook`) at the versions this repository tests with.
 */
export function consumerDependencies(extra: string[] = []): Record<string, string> {
  const names = [...Object.keys(pkg.peerDependencies ?? {}), '@types/node', ...extra]
  return Object.fromEntries(
    names.map((name) => [name, devDependencies[name] ?? pkg.peerDependencies?.[name] ?? 'latest']),
  )
}

/** The Next.js release the Next.js consumer builds with. */
export const NEXT = '16.4.6'
/** The older Vitest the browser-mode consumer runs too (Vitest 4 serves a worker script of its own msw). */
export const VITEST_4 = '4.1.10'

/** What one consumer project installs beside the packed tarball, and the test file that uses it. */
export interface ConsumerInstall {
  /** Its test file in test/consumer/. */
  file: string
  dependencies: Record<string, string>
  scripts?: Record<string, string>
}

/**
 * Every consumer project by name: what `npm install` puts in it beside the tarball. One list, so
 * that the consumer tests' global setup can install them all in the background while the unit and
 * e2e tests run (test/support/consumer-setup.ts), and each test file takes its own ready.
 */
export const CONSUMER_PROJECTS = {
  cli: { file: 'cli.test.ts', dependencies: pin('msw') },
  consumer: { file: 'package.test.ts', dependencies: pin('msw') },
  examples: { file: 'examples.test.ts', dependencies: consumerDependencies(['playwright-core']) },
  exports: { file: 'exports.test.ts', dependencies: consumerDependencies() },
  'jest-project': {
    file: 'jest-project.test.ts',
    dependencies: { jest: '^30.0.0', ...pin('msw') },
    scripts: { test: 'node --experimental-vm-modules node_modules/jest/bin/jest.js' },
  },
  'next-app': {
    file: 'next-app.test.ts',
    dependencies: {
      next: NEXT,
      react: '^19.2.0',
      'react-dom': '^19.2.0',
      '@types/react': '^19.2.0',
      ...pin('@types/node', 'msw'),
      // next build type-checks with TypeScript's JavaScript API (TypeScript 7, this repository's, has none).
      typescript: '^5.9.0',
    },
    scripts: { build: 'next build', start: 'next start' },
  },
  openapi: {
    file: 'openapi.test.ts',
    dependencies: pin('msw', 'openapi-fetch', '@seriousme/openapi-schema-validator', '@types/node'),
  },
  playground: { file: 'playground.test.ts', dependencies: {} },
  'playwright-project': {
    file: 'playwright-project.test.ts',
    dependencies: { ...pin('@types/node', 'msw'), '@playwright/test': pinned('playwright-core') },
  },
  replay: { file: 'upstream.test.ts', dependencies: pin('msw', 'vitest') },
  'storybook-project': {
    file: 'storybook.test.ts',
    dependencies: {
      storybook: '^10.6.7',
      '@storybook/preact-vite': '^10.6.5',
      '@storybook/addon-vitest': '^10.6.7',
      preact: '^10.29.8',
      ...pin('vite', 'msw'),
      'msw-storybook-addon': '^3.0.3',
      ...pin('leaflet'),
      '@types/leaflet': '^1.9.22',
      ...pin('@types/node', 'vitest'),
      '@vitest/browser-playwright': pinned('vitest'),
      playwright: pinned('playwright-core'),
    },
  },
  'vite-app': {
    file: 'vite-app.test.ts',
    dependencies: { ...pin('vite', 'msw', 'leaflet'), '@types/leaflet': '^1.9.22', ...pin('@types/node') },
  },
  'vitest-browser-project': {
    file: 'vitest-browser-project.test.ts',
    dependencies: {
      ...pin('@types/node'),
      '@vitest/browser-playwright': pinned('vitest'),
      ...pin('msw'),
      // The library only: its browsers are never downloaded (it has no install script); Chromium is Debian's.
      playwright: pinned('playwright-core'),
      ...pin('vite', 'vitest'),
    },
  },
  'vitest4-browser-project': {
    file: 'vitest-browser-project.test.ts',
    dependencies: {
      ...pin('@types/node'),
      '@vitest/browser-playwright': VITEST_4,
      ...pin('msw'),
      playwright: pinned('playwright-core'),
      ...pin('vite'),
      vitest: VITEST_4,
    },
  },
  'vitest-project': { file: 'vitest-project.test.ts', dependencies: pin('@types/node', 'msw', 'vitest') },
} as const satisfies Record<string, ConsumerInstall>

export type ConsumerProjectName = keyof typeof CONSUMER_PROJECTS

/** The package.json of a consumer project: the tarball and its dependencies, ESM. */
export function consumerPackageJson(name: ConsumerProjectName, tarball: string): string {
  const { dependencies, ...rest } = CONSUMER_PROJECTS[name] as ConsumerInstall
  const scripts = rest.scripts ?? {}
  return `${JSON.stringify({ name, private: true, type: 'module', scripts, dependencies: { 'tmaps-mock': `file:${tarball}`, ...dependencies } }, null, 2)}\n`
}
