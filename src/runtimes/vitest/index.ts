import type { AnswerSource } from '../../upstream/answer-source.ts'
import { fromWireAnswer, toWireRequest, type WireAnswer, type WireRequest } from '../../upstream/wire.ts'
import type { TmapsWorker, TmapsWorkerOptions } from '../browser/index.ts'
import { createTmapsWorker } from '../browser/worker.ts'

/**
 * The options of `tmapsFixtures()` from `tmaps-mock/vitest`: those of `setupTmapsWorker`, plus `workerUrl`.
 * @example
 * ```ts
 * import type { TmapsVitestOptions } from 'tmaps-mock/vitest'
 *
 * const options: TmapsVitestOptions = { state: 'empty', workerUrl: '/mockServiceWorker.js' }
 * console.assert(options.workerUrl === '/mockServiceWorker.js')
 * ```
 */
export interface TmapsVitestOptions extends TmapsWorkerOptions {
  /**
   * Where msw's worker script is served: `tmapsMock()` from `tmaps-mock/vite` (or `msw({ mode:
   * 'worker-only' })` from `msw/vite`) in the Vitest config serves it there. Default
   * `'/mockServiceWorker.js'`.
   */
  workerUrl?: string
  /**
   * Vitest's browser `commands` (`import { commands } from 'vitest/browser'`): each request the
   * contract accepts is then answered by `tmapsRecorder()` of the Vitest config (from
   * `tmaps-mock/vite`), in Node, which holds the real key and the HAR files: replayed from the
   * test file's recording, or forwarded to TMaps and recorded (docs/upstream.md). Default: none.
   */
  recorder?: object
}

type Use<T> = (value: T) => Promise<void>

/**
 * What `tmapsFixtures` gives Vitest's `test.extend`: fixture tuples (the function, its options).
 *
 * `tmapsMock` is the mock of the test file (started once per file), `tmaps` the same mock for a
 * test, reset after it.
 * @example
 * ```ts
 * import { type TmapsVitestFixtureDefinitions, tmapsFixtures } from 'tmaps-mock/vitest'
 *
 * const definitions: TmapsVitestFixtureDefinitions = tmapsFixtures({ state: 'empty' })
 * console.assert(definitions.tmapsMock[1].scope === 'file' && definitions.tmaps[1].auto)
 * ```
 */
export interface TmapsVitestFixtureDefinitions {
  tmapsMock: [(fixtures: object, use: Use<TmapsWorker>) => Promise<void>, { scope: 'file' }]
  tmaps: [(fixtures: { tmapsMock: TmapsWorker }, use: Use<TmapsWorker>) => Promise<void>, { auto: true }]
}

/**
 * The fixtures `tmapsFixtures` adds to a Vitest test's context: `tmaps`, the mock answering the page.
 * @example
 * ```ts
 * import type { TmapsVitestFixtures } from 'tmaps-mock/vitest'
 *
 * // test('...', async ({ tmaps }) => ...)
 * const names: (keyof TmapsVitestFixtures)[] = ['tmaps', 'tmapsMock']
 * console.assert(names.length === 2)
 * ```
 */
export interface TmapsVitestFixtures {
  /**
   * The mock answering the test's page: its console, log, usage, faults and overrides. Reset after each test.
   */
  tmaps: TmapsWorker
  /** The test file's mock, started before its first test and stopped after its last. */
  tmapsMock: TmapsWorker
}

/**
 * Fixtures for Vitest's browser mode: `test.extend(tmapsFixtures(options))` answers TMaps in every test.
 *
 * The page's requests to TMaps go through msw's service worker to one mock per test file
 * (`setupTmapsWorker(options)`, started before the file's first test, stopped after its last),
 * with the page's real `Origin` (the test page's, e.g. `http://localhost:63315`: authorize
 * `location.hostname`). After each test the mock is reset to `options.state`, so each test
 * creates its own keys. The fixture is automatic: tests that never name `tmaps` are answered
 * too. The Vitest config serves msw's worker script: `plugins: [tmapsMock()]` from
 * `tmaps-mock/vite` (or `msw({ mode: 'worker-only' })` from `msw/vite`); when nothing serves it,
 * the file's first test fails saying so, not with a bare `Failed to fetch`.
 * In a test file: `const test = base.extend(tmapsFixtures({ state: 'empty' }))`, then
 * `test('...', async ({ tmaps }) => ...)` (the README's recipe is a whole project). The example
 * plays the runner's part by hand.
 * @example
 * ```ts
 * import { tmapsFixtures } from 'tmaps-mock/vitest'
 *
 * const { tmapsMock: [perFile], tmaps: [perTest] } = tmapsFixtures({ state: 'empty' })
 * await perFile({}, async (mock) => {
 *   await perTest({ tmapsMock: mock }, async (tmaps) => {
 *     const key = await tmaps.console.createKey({ name: 'Web', domains: ['elsewhere.tn'] })
 *     const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`)
 *     console.assert(response.status === 403, `expected 403, got ${response.status}`)
 *   })
 *   console.assert(mock.console.listKeys().length === 0) // reset after the test
 * })
 * ```
 */
export function tmapsFixtures(options: TmapsVitestOptions = {}): TmapsVitestFixtureDefinitions {
  const { workerUrl = '/mockServiceWorker.js', recorder, ...workerOptions } = options
  if (typeof workerUrl !== 'string' || workerUrl === '') {
    throw new TypeError(
      `Failed to define the TMaps fixtures: workerUrl must be the path msw's worker script is served at (default '/mockServiceWorker.js'), got ${JSON.stringify(workerUrl)}.`,
    )
  }
  return {
    tmapsMock: [
      // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern
      async ({}, use) => {
        await expectWorkerScript(workerUrl)
        const start = { quiet: true, onUnhandledFrame: 'bypass' as const, ...workerOptions.start }
        let mock: TmapsWorker | undefined
        const source =
          recorder === undefined
            ? undefined
            : await recorderSource(recorder, (id) => mock?.console.getKey({ id })?.name ?? null)
        mock = createTmapsWorker(
          {
            ...workerOptions,
            start: { ...start, serviceWorker: { url: workerUrl, ...start.serviceWorker } },
          },
          source,
        )
        await mock.start()
        try {
          await use(mock)
        } finally {
          mock.stop()
        }
      },
      { scope: 'file' },
    ],
    tmaps: [
      async ({ tmapsMock }, use) => {
        try {
          await use(tmapsMock)
        } finally {
          await tmapsMock.reset()
        }
      },
      { auto: true },
    ],
  }
}

/** The commands `tmapsRecorder()` adds to Vitest's browser mode (`vitest/browser`'s `commands`). */
interface RecorderCommands {
  tmapsRecorded?: (request: WireRequest) => Promise<WireAnswer>
  tmapsRecordedReset?: (options?: { fresh?: boolean }) => Promise<void>
}

/**
 * A source that asks the Vitest process (`tmapsRecorder()`, through a browser command) for each
 * accepted request's answer; throws, saying what to add, when there is no such command.
 */
async function recorderSource(
  commands: RecorderCommands,
  keyName: (id: string) => string | null,
): Promise<AnswerSource> {
  const { tmapsRecorded: recorded, tmapsRecordedReset: reset } = commands
  const missing = (why: string) =>
    new Error(
      `tmaps-mock/vitest: the recorder cannot be reached (${why}). Pass Vitest's commands (import { commands } from 'vitest/browser') as recorder, and add tmapsRecorder({ upstream, record }) from 'tmaps-mock/vite' to the plugins of your Vitest config.`,
    )
  if (typeof recorded !== 'function' || typeof reset !== 'function') throw missing('no tmapsRecorded command')
  try {
    await reset({ fresh: true }) // a new run of this file: its recording read afresh, from its first answers
  } catch (error) {
    throw missing((error as Error).message)
  }
  return {
    async answer(request) {
      const keyOf = request.keyId === null ? null : keyName(request.keyId)
      try {
        return fromWireAnswer(await recorded(toWireRequest(request, keyOf)))
      } catch (error) {
        // The recorder could not answer (a file that is not a HAR, a folder it cannot write): say why.
        const why = `the recorder could not answer: ${(error as Error).message}`
        return {
          status: 500,
          body: new TextEncoder().encode(JSON.stringify({ error: `tmaps-mock: ${why}` })),
          contentType: 'application/json',
          headers: {},
          source: 'replay-miss',
          reason: `Authorized; ${why}.`,
          repeatable: false,
        }
      }
    },
    reset: () => void reset(),
  }
}

/** Fails with what to do when msw's worker script is not served where the fixture registers it. */
async function expectWorkerScript(url: string): Promise<void> {
  const response = await fetch(url, { cache: 'no-store' }).catch(() => undefined)
  const type = response?.headers.get('content-type') ?? ''
  if (response?.ok && /javascript/.test(type)) return
  throw new Error(
    `tmaps-mock/vitest: msw's worker script is not served at ${url} (${response ? `${response.status}, ${type || 'no content type'}` : 'the request failed'}). ` +
      "Add tmapsMock() from 'tmaps-mock/vite' (or msw({ mode: 'worker-only' }) from 'msw/vite') to the plugins of your Vitest config, or pass workerUrl.",
  )
}
