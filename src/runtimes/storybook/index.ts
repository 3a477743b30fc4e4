import { type SetupWorker, type StartOptions, setupWorker } from 'msw/browser'
import { mswLoader } from 'msw-storybook-addon/csf3'
import type { KeyStatus } from '../../contract/key-status.ts'
import { createTmapsCore } from '../../core/create-core.ts'
import type { FaultInput } from '../../core/faults.ts'
import { validateOptions } from '../../core/options.ts'
import type { TmapsEndpointName, TmapsOverride } from '../../core/override-registry.ts'
import { compileOverride, type TmapsOverrideEntry } from '../../core/override-specs.ts'
import { createKeyGenerator } from '../../data/seeded.ts'
import type { TmapsRenderer } from '../../jobs/protocol.ts'
import type { TmapsSnapshot } from '../../store/snapshot.ts'
import type { TmapsHar } from '../../upstream/har.ts'
import { createReplay, type TmapsReplayOptions } from '../../upstream/replay.ts'
import { failure, isObject, SEED, unknownFields } from '../../validate/validate.ts'
import { pageHandlers, startPageWorker } from '../browser/page-worker.ts'
import type { TmapsMock } from '../msw/create-tmaps-mock.ts'

/**
 * One key of a story's console: its name, status and authorized domains.
 * @example
 * ```ts
 * import { tmapsLoader, type TmapsStoryKey } from 'tmaps-mock/storybook'
 *
 * const key: TmapsStoryKey = {
 *   name: 'Staging frontend', // how the story finds it: loaded.tmaps.keys['Staging frontend']
 *   status: 'disabled', // default 'enabled'; 'revoked' too
 *   domains: ['staging.mysite.tn'], // default: the page's own host
 * }
 * const { tmaps } = await tmapsLoader()({ id: 'search--disabled', parameters: { tmaps: { keys: [key] } } })
 * console.assert(tmaps.mock.console.getKey(tmaps.key)?.status === 'disabled')
 * ```
 */
export interface TmapsStoryKey {
  /** A label, unique in the story; `loaded.tmaps.keys[name]` is the key's value. */
  name: string
  /** Default `'enabled'`. A disabled or revoked key gets 401, as on TMaps. */
  status?: 'enabled' | 'disabled' | 'revoked'
  /**
   * The authorized domains linked to the key. Default: the page's own host (`location.hostname`),
   * so the key works in the story; `[]` links none (a browser then gets 403), another site's
   * hostname (`'shop.example.tn'`) makes the story's requests come from an unlisted domain (403).
   */
  domains?: string[]
}

/**
 * `parameters.tmaps` of a story: the console and faults the story starts with. Every field is optional.
 *
 * - `keys`: the keys to create (default: one enabled key named `'Storybook'`, linked to the page's
 *   host, when `state` is `'empty'`; none with another state);
 * - `faults`: fault rules added before the story renders (`[{ status: 429 }]`: rate limited;
 *   `[{ delayMs: 3000 }]`: a slow network; see `mock.faults.add`); default none;
 * - `state`: the console before the keys are added: `'empty'` (default), `'demo'` or a snapshot;
 * - `seed`: the mock's seed (generated data, key ids); default none: the package's default data.
 *   Key values are the same at every visit either way: they come from the story id (or the seed);
 * - `use`: overrides of the story's answers, as `mock.use` takes them (`{ endpoint, resolver,
 *   times? }`, e.g. `resolver: scenarios.noResults()` from `tmaps-mock`) or as data (`{ endpoint,
 *   scenario: 'at-sea' }`, `{ endpoint, status: 500 }`); the first of an endpoint answers first.
 *   They run after the key, domain and HTTPS checks: a disabled key still gets 401.
 *
 * Without `parameters.tmaps`, a story gets `{ keys: [{ name: 'Storybook' }] }`: one working key.
 * @example
 * ```ts
 * import { tmapsLoader, type TmapsStoryParameters } from 'tmaps-mock/storybook'
 *
 * // export const RateLimited: Story = { parameters: { tmaps: rateLimited } }
 * const rateLimited: TmapsStoryParameters = { faults: [{ endpoint: '/geocoding/forward', status: 429 }] }
 * const { tmaps } = await tmapsLoader()({ id: 'search--rate-limited', parameters: { tmaps: rateLimited } })
 * const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${tmaps.key}`)
 * console.assert(response.status === 429, `got ${response.status}`)
 * ```
 */
export interface TmapsStoryParameters {
  /** The keys to create. Default: `[{ name: 'Storybook' }]` with the `'empty'` state, else none. */
  keys?: TmapsStoryKey[]
  /**
   * Fault rules, as `mock.faults.add()` takes them (`{ status: 429 }`, `{ delayMs: 3000 }`). Default none.
   */
  faults?: FaultInput[]
  /** The console before `keys` are added: `'empty'` (default), `'demo'`, or a snapshot (object or JSON). */
  state?: 'empty' | 'demo' | TmapsSnapshot | string
  /** The mock's seed (generated data and key ids). Default none: the package's default data. */
  seed?: string | number
  /**
   * Overrides of the story's answers (`mock.use` for each, the first of an endpoint on top):
   * `{ endpoint, resolver, times? }` or an override as data (`{ endpoint, scenario: 'no-results' }`).
   * They keep the contract: a disabled key still gets 401, a foreign domain 403. Default none.
   */
  use?: TmapsOverrideEntry[]
}

/**
 * What a story gets in `context.loaded.tmaps`: its keys' values and its own fresh mock.
 * @example
 * ```ts
 * import { tmapsLoader, type TmapsStoryContext } from 'tmaps-mock/storybook'
 *
 * const loaded = await tmapsLoader()({
 *   id: 'search--two-keys',
 *   parameters: { tmaps: { keys: [{ name: 'Web' }, { name: 'Backend', domains: [] }] } },
 * })
 * const tmaps: TmapsStoryContext = loaded.tmaps
 * console.assert(tmaps.key === tmaps.keys.Web) // the first key of parameters.tmaps.keys
 * await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${tmaps.keys.Backend}`)
 * console.assert(tmaps.mock.log.entries()[0]?.status === 403) // no domain linked: 403 in a browser
 * ```
 */
export interface TmapsStoryContext {
  /** Every key of the story's console by name (demo and snapshot keys included), with its full value. */
  keys: Record<string, string>
  /**
   * The value of the first key of `parameters.tmaps.keys`; without one, of the console's first
   * enabled key; in an empty console, a well-formed key that the console does not know (401).
   */
  key: string
  /** The story's own mock: `console`, `log`, `faults`, `usage`, `handlers`, ... New for every story. */
  mock: TmapsMock
}

/**
 * The options of `tmapsLoader()`; all optional.
 * @example
 * ```ts
 * import { tmapsLoader, type TmapsLoaderOptions } from 'tmaps-mock/storybook'
 *
 * const options: TmapsLoaderOptions = {
 *   start: { serviceWorker: { url: '/mockServiceWorker.js' } }, // msw's default, shown
 * }
 * const { tmaps } = await tmapsLoader(options)({ id: 'search--works', parameters: {} })
 * console.assert(Object.keys(tmaps.keys).join() === 'Storybook') // the default key
 * ```
 */
export interface TmapsLoaderOptions {
  /**
   * msw's `worker.start()` options, over the default `{ quiet: true, onUnhandledFrame: 'bypass' }`
   * (requests to other hosts go to the network). The first loader to start the worker decides.
   */
  start?: StartOptions
  /**
   * Where tiles and static maps are drawn. Default: in the page (the renderer loads on the first
   * picture); `createWorkerRenderer(...)` from `tmaps-mock/browser` draws them in a Web Worker.
   */
  renderer?: TmapsRenderer
  /**
   * Every story's accepted requests answered from a recording of the real TMaps (`tmaps-mock
   * serve --upstream --record`): the parsed HAR (`import har from './tmaps.har.json'`) or
   * `{ har, onMissing, maxAge }`, as `createTmapsMock`'s `replay`. Default: none.
   */
  replay?: TmapsHar | TmapsReplayOptions
}

/**
 * What `tmapsLoader()` reads of Storybook's story context (Storybook passes the whole context).
 * @example
 * ```ts
 * import { type TmapsLoaderContext, tmapsLoader } from 'tmaps-mock/storybook'
 *
 * const context: TmapsLoaderContext = {
 *   id: 'search--works', // errors name the story by title, name and id
 *   title: 'Search',
 *   name: 'Works',
 *   parameters: JSON.parse('{ "tmaps": { "keys": [{ "name": "Web", "status": "on" }] } }'),
 * }
 * const failure = await tmapsLoader()(context).catch((error: Error) => error.message)
 * console.assert(
 *   failure ===
 *     'Failed to set up the TMaps mock of the story "Search / Works" (search--works): ' +
 *       'parameters.tmaps.keys[0].status must be "enabled", "disabled" or "revoked" (got "on").',
 * )
 * ```
 */
export interface TmapsLoaderContext {
  /** The story id, e.g. `search--works`. */
  id: string
  title?: string
  name?: string
  parameters: { tmaps?: TmapsStoryParameters; [name: string]: unknown }
}

const STATUSES: readonly KeyStatus[] = ['enabled', 'disabled', 'revoked']
const PARAMETERS = ['keys', 'faults', 'state', 'seed', 'use'] as const
const KEY_FIELDS = ['name', 'status', 'domains'] as const
const DEFAULT_KEY_NAME = 'Storybook'
/** Set in sessionStorage while the page reloads once to come under the service worker's control. */
const RELOAD_MARK = 'tmaps-mock:storybook-reload'

/**
 * The Storybook loader that gives every story a fresh TMaps mock from its `parameters.tmaps`.
 *
 * Use it instead of msw-storybook-addon's `mswLoader` (not both): it runs `mswLoader` itself, so
 * `parameters.msw` works as the addon documents and wins over the mock for the requests it
 * matches. The worker starts once, with `{ quiet: true, onUnhandledFrame: 'bypass' }` (option
 * `start`), and the page reloads once if it is not under the worker's control yet. Each story
 * gets a new console, faults and log (nothing leaks from the story before), keys as
 * {@link TmapsStoryParameters} says (without `parameters.tmaps`: one enabled key named
 * `'Storybook'` linked to the page's host), and `context.loaded.tmaps` ({@link TmapsStoryContext}).
 * The `Origin` and `Referer` a browser would send are rebuilt from the page, as `setupTmapsWorker`
 * does. Serve the worker script with `msw({ mode: 'worker-only' })` from `msw/vite` in `viteFinal`.
 * A bad `parameters.tmaps` throws, naming the story and what to fix.
 * @example
 * ```ts
 * import { tmapsLoader } from 'tmaps-mock/storybook'
 *
 * // .storybook/preview.ts: export default { loaders: [tmapsLoader()] } satisfies Preview
 * const loader = tmapsLoader()
 * // Storybook calls it before each story, with the story's context:
 * const { tmaps } = await loader({ id: 'search--works', parameters: { tmaps: { keys: [{ name: 'Web' }] } } })
 * const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${tmaps.key}`)
 * console.assert(response.status === 200, `got ${response.status}`)
 * console.assert(tmaps.mock.log.entries()[0]?.facts.reconstructed === true) // Origin: the page's
 * ```
 */
export function tmapsLoader(
  options: TmapsLoaderOptions = {},
): (context: TmapsLoaderContext) => Promise<{ tmaps: TmapsStoryContext }> {
  const fail = failure('Failed to create the TMaps loader')
  if (!isObject(options)) fail('options must be an object, e.g. tmapsLoader({})')
  const unknown = unknownFields(options, ['start', 'renderer', 'replay'])
  if (unknown.length > 0)
    fail(`there is no option ${unknown.join(', ')}. The options are start, renderer and replay`)
  const { start, renderer, replay } = options
  if (renderer !== undefined) validateOptions({ renderer })
  // A bad recording fails here, once, rather than in every story; an old one warns here, once.
  if (replay !== undefined) createReplay(replay)
  const msw = mswLoader(() => startWorker(start))

  return async function loadTmaps(context) {
    const story = describeStory(context)
    const plan = planStory(context.parameters?.tmaps, context.id, story)
    const mock = await createStoryMock(plan, renderer, story, replay)
    // msw's loader starts the worker once, then resets it to its initial handlers and puts the
    // story's `parameters.msw` on top. The mock's handlers become the initial ones, so the
    // second call leaves them under the story's own: those win for what they match.
    await msw(context as never)
    const worker = (context as { msw?: SetupWorker }).msw
    if (!worker) throw new Error('Failed to load the TMaps mock: msw-storybook-addon set no worker.')
    worker.resetHandlers(...mock.handlers)
    await msw(context as never)
    return { tmaps: storyContext(mock, plan) }
  }
}

/**
 * The story's TMaps context (`context.loaded.tmaps`), typed; throws if `tmapsLoader()` did not run.
 * @example
 * ```ts
 * import { tmapsLoader, tmapsOf } from 'tmaps-mock/storybook'
 *
 * // In a story: render: (args, context) => <Search {...args} apiKey={tmapsOf(context).key} />
 * const loaded = await tmapsLoader()({ id: 'search--works', parameters: {} })
 * const { key, mock } = tmapsOf({ loaded })
 * console.assert(mock.console.getKey(key)?.name === 'Storybook')
 * ```
 */
export function tmapsOf(context: { loaded?: Record<string, unknown> }): TmapsStoryContext {
  const tmaps = context?.loaded?.tmaps as TmapsStoryContext | undefined
  if (!tmaps || typeof tmaps.key !== 'string' || !tmaps.mock) {
    throw new Error(
      'Failed to read the TMaps mock of this story: context.loaded.tmaps is missing. Add tmapsLoader() from tmaps-mock/storybook to the loaders of .storybook/preview.ts.',
    )
  }
  return tmaps
}

/** Starts msw's worker (once: msw-storybook-addon keeps it), under the page's control. */
async function startWorker(start: StartOptions | undefined): Promise<SetupWorker> {
  const worker = setupWorker()
  await startPageWorker(worker, start)
  // The msw worker unregisters itself when its last page closes; a page that loads in that moment
  // (Storybook's preview iframe, when switching stories) is not controlled by the new worker and
  // its requests bypass the mock. One reload puts it under control.
  if ('serviceWorker' in navigator && !(await controlled(navigator.serviceWorker))) {
    if (sessionStorage.getItem(RELOAD_MARK) === null) {
      sessionStorage.setItem(RELOAD_MARK, '1')
      location.reload()
      return new Promise<never>(() => {})
    }
    console.warn(
      'tmaps-mock: this page is not controlled by the msw service worker, even after a reload; requests to TMaps go to the network. Is mockServiceWorker.js served (msw({ mode: "worker-only" }) from msw/vite)?',
    )
  }
  sessionStorage.removeItem(RELOAD_MARK)
  return worker
}

/**
 * Whether the page is under a service worker's control: at once, or after the worker just
 * installed claims it (a first visit), within a second.
 */
function controlled(container: ServiceWorkerContainer): Promise<boolean> {
  if (container.controller !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(container.controller !== null), 1000)
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer)
        resolve(true)
      },
      { once: true },
    )
  })
}

/** `"Search / Works" (search--works)`: how errors name a story. */
function describeStory(context: TmapsLoaderContext): string {
  const title = [context?.title, context?.name].filter(Boolean).join(' / ')
  return title ? `"${title}" (${context.id})` : `"${context?.id}"`
}

interface StoryPlan {
  state: NonNullable<TmapsStoryParameters['state']>
  seed: string | number | undefined
  keys: Array<{ name: string; status: KeyStatus; domains: string[]; value: string }>
  faults: FaultInput[]
  /** `parameters.tmaps.use`, checked, in the order given. */
  use: Array<{
    endpoint: TmapsEndpointName
    resolver: TmapsOverride<TmapsEndpointName>
    times: number | undefined
  }>
  /** A key the console does not know, for a story without any key. */
  unknownKey: string
}

/**
 * Validates `parameters.tmaps` and fills in the defaults, key values included: they come from
 * the story id (or the seed), so they are the same at every visit, in any order.
 */
function planStory(parameters: unknown, storyId: string, story: string): StoryPlan {
  const fail = failure(`Failed to set up the TMaps mock of the story ${story}`)
  const input = parameters ?? {}
  if (!isObject(input)) return fail('parameters.tmaps must be an object such as { keys: [{ name: "Web" }] }')
  const unknown = unknownFields(input, PARAMETERS)
  if (unknown.length > 0)
    fail(`parameters.tmaps has no field ${unknown.join(', ')}. Its fields are ${PARAMETERS.join(', ')}`)
  const {
    state = 'empty',
    seed,
    faults = [],
    keys = state === 'empty' ? [{ name: DEFAULT_KEY_NAME }] : [],
    use = [],
  } = input
  if (seed !== undefined && !SEED.test(seed)) fail(`parameters.tmaps.seed must be ${SEED.says}`)
  if (!Array.isArray(faults))
    fail(
      'parameters.tmaps.faults must be an array of fault rules, e.g. [{ status: 429 }] or [{ delayMs: 3000 }]',
    )
  if (!Array.isArray(keys)) fail('parameters.tmaps.keys must be an array, e.g. [{ name: "Web" }]')
  if (!Array.isArray(use))
    fail(
      'parameters.tmaps.use must be an array of overrides, e.g. [{ endpoint: "geocoding/forward", resolver: scenarios.noResults() }]',
    )
  const overrides = (use as unknown[]).map((entry, i) => {
    try {
      return compileOverride(entry, `parameters.tmaps.use[${i}]`)
    } catch (error) {
      return fail((error as Error).message)
    }
  })

  const generator = createKeyGenerator(`storybook:${String(seed ?? storyId)}`)
  const names = new Set<string>()
  const planned = (keys as unknown[]).map((key, i) => {
    const at = `parameters.tmaps.keys[${i}]`
    if (!isObject(key)) return fail(`${at} must be an object such as { name: "Web", status: "disabled" }`)
    const fields = key
    const extra = unknownFields(fields, KEY_FIELDS)
    if (extra.length > 0) fail(`${at} has no field ${extra.join(', ')}. A key has ${KEY_FIELDS.join(', ')}`)
    const { name, status = 'enabled', domains = defaultDomains() } = fields
    if (typeof name !== 'string' || name.trim() === '')
      fail(`${at}.name must be a non-empty string, the key's label (e.g. "Web")`)
    if (names.has(name as string))
      fail(`two keys are named ${JSON.stringify(name)}. Give each key its own name`)
    names.add(name as string)
    if (!STATUSES.includes(status as KeyStatus))
      fail(`${at}.status must be "enabled", "disabled" or "revoked" (got ${JSON.stringify(status)})`)
    if (!Array.isArray(domains) || !domains.every((d) => typeof d === 'string'))
      fail(`${at}.domains must be an array of hostnames, e.g. ["localhost"] or [] for none`)
    return {
      name: name as string,
      status: status as KeyStatus,
      domains: [...(domains as string[])],
      value: generator.next().value,
    }
  })
  return {
    state: state as StoryPlan['state'],
    seed: seed as StoryPlan['seed'],
    keys: planned,
    faults: faults as FaultInput[],
    use: overrides,
    unknownKey: generator.next().value,
  }
}

/** The page's own host, which a key is linked to unless the story says otherwise. */
function defaultDomains(): string[] {
  return location.hostname === '' ? [] : [location.hostname]
}

/** A new mock with the story's console, keys and faults, and its msw handlers. */
async function createStoryMock(
  plan: StoryPlan,
  renderer: TmapsRenderer | undefined,
  story: string,
  replay?: TmapsHar | TmapsReplayOptions,
): Promise<TmapsMock> {
  const wrap = (what: string, error: unknown): never => {
    throw new TypeError(
      `Failed to set up the TMaps mock of the story ${story}: ${what}: ${(error as Error).message}`,
      { cause: error },
    )
  }
  let core: ReturnType<typeof createTmapsCore>
  try {
    core = createTmapsCore({
      state: plan.state,
      ...(plan.seed !== undefined && { seed: plan.seed }),
      ...(renderer && { renderer }),
      ...(replay && { replay: { ...('har' in replay ? replay : { har: replay }), maxAge: false as const } }),
    })
    await core.ready
  } catch (error) {
    return wrap('parameters.tmaps.state or seed', error)
  }
  for (const [i, key] of plan.keys.entries()) {
    try {
      const created = await core.console.createKey({ name: key.name, domains: key.domains, value: key.value })
      if (key.status !== 'enabled') await core.console.disableKey(created.id)
      if (key.status === 'revoked') await core.console.revokeKey(created.id)
    } catch (error) {
      wrap(`parameters.tmaps.keys[${i}] (${key.name})`, error)
    }
  }
  for (const [i, fault] of plan.faults.entries()) {
    try {
      core.faults.add(fault)
    } catch (error) {
      wrap(`parameters.tmaps.faults[${i}]`, error)
    }
  }
  // mock.use puts the newest on top: applied last to first, the first of an endpoint answers first.
  for (const { endpoint, resolver, times } of [...plan.use].reverse())
    core.use(endpoint, resolver, times === undefined ? {} : { times })
  // The page's Origin and Referer rebuilt as `setupTmapsWorker` does: the same handlers.
  return { ...core, handlers: pageHandlers(core) }
}

function storyContext(mock: TmapsMock, plan: StoryPlan): TmapsStoryContext {
  const all = mock.snapshot().keys
  const keys: Record<string, string> = {}
  for (const key of all) keys[key.name] = key.value
  // The story's own keys win over snapshot keys of the same name.
  for (const key of plan.keys) keys[key.name] = key.value
  const key = plan.keys[0]?.value ?? all.find((k) => k.status === 'enabled')?.value ?? plan.unknownKey
  return { keys, key, mock }
}
