import type { TmapsAnswer } from '../../core/answers.ts'
import { createCore, type TmapsMockCore } from '../../core/create-core.ts'
import type { TmapsMockOptions } from '../../core/options.ts'
import { createTestSource, type TmapsRecordOptions } from '../../upstream/test-recording.ts'
import type { TmapsUpstream } from '../../upstream/upstream-options.ts'

export type { TmapsRecordOptions } from '../../upstream/test-recording.ts'
export type { TmapsUpstream } from '../../upstream/upstream-options.ts'

/**
 * The parts of a Playwright `Route` the adapter uses (so any Playwright package fits). `F` is
 * the package's own `fulfill` options type, inferred from the page or context you pass.
 */
interface RouteLike<F> {
  request(): {
    url(): string
    method(): string
    allHeaders(): Promise<Record<string, string>>
    postDataBuffer(): Uint8Array | null
  }
  fulfill(options: F): Promise<void>
  /** Fails the request as a network error (an injected `network: 'reset'` fault). */
  abort(errorCode?: string): Promise<void>
}

/**
 * A Playwright `Page` or `BrowserContext`, from any Playwright package.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { chromium } from 'playwright-core'
 * import { createTmapsMock } from 'tmaps-mock'
 * import { type RoutableTarget, routeTmaps } from 'tmaps-mock/playwright'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH })
 * try {
 *   const context = await browser.newContext()
 *   const target: RoutableTarget = context // a BrowserContext: every page it opens is routed
 *   await routeTmaps(target, mock)
 *   const page = await context.newPage()
 *   const response = await page.goto('https://tiles.tmaps.tn/r-tile/6/33/25') // no api_key
 *   assert.equal(response?.status(), 401)
 * } finally {
 *   await browser.close()
 * }
 * ```
 */
export interface RoutableTarget<F = unknown> {
  route(url: string, handler: (route: RouteLike<F>) => Promise<void>): Promise<unknown>
  unroute(url: string, handler?: (route: RouteLike<F>) => Promise<void>): Promise<unknown>
}

/**
 * Routes the TMaps hosts of a Playwright page or context through the mock, with the browser's real headers.
 *
 * Both hosts (API and tiles), on https and http, are answered by `mock`, decided on the real
 * `Origin` and `Referer` the browser sent. Resolves to the function that removes the routes.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { chromium } from 'playwright-core'
 * import { createTmapsMock } from 'tmaps-mock'
 * import { routeTmaps } from 'tmaps-mock/playwright'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * // In @playwright/test, use the `page` fixture instead.
 * const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH })
 * try {
 *   const page = await browser.newPage()
 *   const unroute = await routeTmaps(page, mock)
 *   // Your app; here a stand-in page on http://localhost:5173.
 *   await page.route('http://localhost:5173/', (route) =>
 *     route.fulfill({ contentType: 'text/html', body: '<h1>App</h1>' }),
 *   )
 *   await page.goto('http://localhost:5173/')
 *   const status = await page.evaluate(
 *     async (value) =>
 *       (await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${value}`)).status,
 *     key.value,
 *   )
 *   assert.equal(status, 200) // decided on the real Origin the browser sent
 *   assert.equal(mock.log.entries()[0]?.facts.header, 'http://localhost:5173')
 *   await unroute()
 * } finally {
 *   await browser.close()
 * }
 * ```
 */
export async function routeTmaps<F>(
  target: RoutableTarget<F>,
  mock: TmapsMockCore,
): Promise<() => Promise<void>> {
  const handler = async (route: RouteLike<F>) => {
    const request = route.request()
    const method = request.method()
    const body = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer()
    const answer = await mock.answer(
      new Request(request.url(), {
        method,
        // HTTP/2 pseudo-headers (:authority, ...) are not headers a Request can carry.
        headers: Object.entries(await request.allHeaders()).filter(([name]) => !name.startsWith(':')),
        ...(body && { body: new Uint8Array(body) }),
      }),
    )
    await fulfill(route, answer)
  }
  const patterns = [mock.options.baseUrl, mock.options.tilesUrl].flatMap((base) => {
    const { host } = new URL(base)
    return [`https://${host}/**`, `http://${host}/**`]
  })
  const unique = [...new Set(patterns)]
  for (const pattern of unique) await target.route(pattern, handler)
  return async () => {
    for (const pattern of unique) await target.unroute(pattern, handler)
  }
}

/** Playwright's write-back: the answer fulfilled on the route, a reset connection as an abort. */
function fulfill<F>(route: RouteLike<F>, answer: TmapsAnswer): Promise<void> {
  if (answer.network === 'reset') return route.abort('connectionreset')
  // A Buffer: Playwright would re-encode a string as UTF-8, which breaks a PNG.
  return route.fulfill({
    status: answer.status,
    headers: answer.headers,
    body: answer.body ? Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength) : '',
  } as F)
}

/**
 * The test fixture of `tmapsFixtures`: the mock that answers every page of the test's context.
 *
 * Its console, log, usage, faults and overrides, as any mock's.
 * @example
 * ```ts
 * import type { TmapsTestFixtures } from 'tmaps-mock/playwright'
 *
 * const seen: (keyof TmapsTestFixtures)[] = ['tmaps'] // test('...', async ({ page, tmaps }) => ...)
 * console.assert(seen.length === 1)
 * ```
 */
export interface TmapsTestFixtures {
  tmaps: TmapsMockCore
}

/**
 * The worker fixture of `tmapsFixtures`: one mock per Playwright worker, reset after every test.
 *
 * Its world of Tunisia is built once per worker, not once per test.
 * @example
 * ```ts
 * import type { TmapsWorkerFixtures } from 'tmaps-mock/playwright'
 *
 * const names: (keyof TmapsWorkerFixtures)[] = ['tmapsMock']
 * console.assert(names[0] === 'tmapsMock')
 * ```
 */
export interface TmapsWorkerFixtures {
  tmapsMock: TmapsMockCore
}

type Use<T> = (value: T) => Promise<void>

/**
 * What `tmapsFixtures` gives `test.extend`: Playwright's fixture tuples (the function, its options).
 * @example
 * ```ts
 * import { type TmapsFixtureDefinitions, tmapsFixtures } from 'tmaps-mock/playwright'
 *
 * const definitions: TmapsFixtureDefinitions = tmapsFixtures({ state: 'empty' })
 * console.assert(definitions.tmapsMock[1].scope === 'worker' && definitions.tmaps[1].auto)
 * ```
 */
export interface TmapsFixtureDefinitions {
  tmapsMock: [(fixtures: object, use: Use<TmapsMockCore>) => Promise<void>, { scope: 'worker' }]
  tmaps: [
    (
      fixtures: { context: RoutableTarget<never>; tmapsMock: TmapsMockCore },
      use: Use<TmapsMockCore>,
      /** Playwright's `TestInfo`: its `file` names the recording of `record.har` as a function. */
      testInfo?: { file: string },
    ) => Promise<void>,
    { auto: boolean },
  ]
}

/**
 * The options of `tmapsFixtures`: those of `createTmapsMock`, plus `upstream` and `record`.
 *
 * `upstream` is the real TMaps to forward to, `record` the HAR to replay from and record to: one
 * for the whole run, or one per test file (docs/upstream.md).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { basename } from 'node:path'
 * import type { TmapsPlaywrightOptions } from 'tmaps-mock/playwright'
 *
 * const options: TmapsPlaywrightOptions = {
 *   state: 'empty',
 *   upstream: { key: process.env.TMAPS_KEY }, // no key (CI): the recordings are replayed
 *   record: { har: (testFile) => `e2e/recordings/${basename(testFile)}.har` }, // one per test file
 * }
 * assert.equal(typeof options.record?.har, 'function')
 * ```
 */
export interface TmapsPlaywrightOptions extends TmapsMockOptions {
  /** The real TMaps, with the real key (see `setupTmapsNode`'s `upstream`). */
  upstream?: TmapsUpstream
  /** A HAR to replay from and record to: a path, or a path for each test file (its absolute path given). */
  record?: Omit<TmapsRecordOptions, 'har'> & { har: string | ((testFile: string) => string) }
}

/**
 * Fixtures for `@playwright/test`: `test.extend(tmapsFixtures(options))` answers TMaps for every page.
 *
 * `tmaps` routes the test's whole browser context (its pages, popups and pages it opens later)
 * through one mock per worker (`tmapsMock`, made with `options`), and resets it after the test:
 * each test starts from the same state (create its keys in the test). Your own `page.route`
 * handlers keep working: a page's routes come before its context's, and ours only match the
 * TMaps hosts (a page route that matches them too decides first; `route.fallback()` hands a
 * request on to the mock). The fixture is automatic: tests that never name `tmaps` are
 * answered too.
 * In a Playwright config's tests: `export const test = base.extend<TmapsTestFixtures,
 * TmapsWorkerFixtures>(tmapsFixtures({ state: 'empty' }))`, then `test('...', async ({ page,
 * tmaps }) => ...)` (the README's recipe is a whole project). The example plays the runner's part
 * by hand with `playwright-core`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { chromium } from 'playwright-core'
 * import { tmapsFixtures } from 'tmaps-mock/playwright'
 *
 * const { tmapsMock: [perWorker], tmaps: [perTest] } = tmapsFixtures({ state: 'empty' })
 * const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH })
 * try {
 *   await perWorker({}, async (mock) => {
 *     const context = await browser.newContext()
 *     await perTest({ context, tmapsMock: mock }, async (tmaps) => {
 *       const page = await context.newPage() // any page of the context, popups too
 *       const tile = await page.goto('https://tiles.tmaps.tn/r-tile/6/33/25') // no api_key
 *       assert.equal(tile?.status(), 401)
 *       assert.equal(tmaps.log.entries().length, 1)
 *     })
 *     assert.equal(mock.log.entries().length, 0) // reset after the test
 *   })
 * } finally {
 *   await browser.close()
 * }
 * ```
 */
export function tmapsFixtures(options: TmapsPlaywrightOptions = {}): TmapsFixtureDefinitions {
  const { upstream, record, ...mockOptions } = options
  const harOf = typeof record?.har === 'function' ? record.har : undefined
  let source: ReturnType<typeof createTestSource>
  return {
    tmapsMock: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
      async ({}, use) => {
        let mock: TmapsMockCore | undefined
        source = createTestSource(
          {
            ...(upstream && { upstream }),
            ...(record && { record: { ...record, har: harOf ? undefined : (record.har as string) } }),
          },
          {
            who: 'start the tmapsMock fixture',
            throughMsw: false,
            keyName: (id) => (id === null ? null : (mock?.console.getKey({ id })?.name ?? null)),
          },
        )
        mock = createCore(mockOptions, source && { source })
        await mock.ready
        try {
          await use(mock)
        } finally {
          source?.close()
        }
      },
      { scope: 'worker' },
    ],
    tmaps: [
      async ({ context, tmapsMock }, use, testInfo) => {
        if (harOf && testInfo) source?.use(harOf(testInfo.file))
        const unroute = await routeTmaps(context, tmapsMock)
        try {
          await use(tmapsMock)
        } finally {
          await unroute()
          await tmapsMock.reset()
        }
      },
      { auto: true },
    ],
  }
}
