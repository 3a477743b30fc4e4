/**
 * The Vite plugin's page code (`tmaps-mock/vite/page`): what the plugin's start module runs in
 * the page, once. It is the browser runtime (`setupTmapsWorker`, the render worker of
 * `createWorkerRenderer`) with the plugin's options; the start module the plugin generates only
 * passes them, with the overrides module, and awaits `started`.
 */
import { applyOverrides, type TmapsOverrideEntry } from '../../core/override-specs.ts'
import type { TmapsRenderer } from '../../jobs/protocol.ts'
import type { TmapsSnapshot } from '../../store/snapshot.ts'
import {
  createWorkerRenderer,
  setupTmapsWorker,
  type TmapsWorker,
  type TmapsWorkerOptions,
} from '../browser/index.ts'
import { APP_KEY_NAME } from './app-key.ts'
import { earlyRegistration } from './register-early.ts'

/**
 * What the plugin's start module passes to `startTmapsPage`: its checked options and two URLs.
 *
 * The URLs are where the dev server serves msw's worker script and the render worker.
 * @example
 * ```ts
 * import type { TmapsPageConfig } from 'tmaps-mock/vite/page'
 *
 * const config: TmapsPageConfig = {
 *   state: 'demo', persist: 'tmaps-mock', apiKey: null, globalName: 'tmaps', quiet: false,
 *   serviceWorkerUrl: '/mockServiceWorker.js',
 *   renderWorkerUrl: '/@id/__x00__virtual:tmaps-mock/render-worker', // null: drawn in the page
 *   overrides: null, // or the option as given, './src/tmaps-overrides.ts', for messages
 * }
 * console.assert(config.renderWorkerUrl !== null)
 * ```
 */
export interface TmapsPageConfig {
  state: 'demo' | 'empty' | TmapsSnapshot | string
  seed?: string | number
  /** The `localStorage` name of the kept state, or `false`. */
  persist: string | false
  /** The app's own key (the plugin's `apiKey`), or `null`. */
  apiKey: string | null
  /** The global the started mock is put under, or `false`. */
  globalName: string | false
  quiet: boolean
  /** Where msw's worker script is served (`base` + `mockServiceWorker.js`). */
  serviceWorkerUrl: string
  /** Where the render worker is served, or `null` to draw in the page (`renderer: 'page'`). */
  renderWorkerUrl: string | null
  /** The plugin's `overrides` option as given (for messages), or `null`. */
  overrides: string | null
  /** The plugin's `replay`: the recording's text and how to answer what it lacks. Default: none. */
  replay?: { har: string; onMissing: 'mock' | 'error'; maxAge: string | number | false }
}

/**
 * The mock of a page under `vite dev`, as `startTmapsPage` returns it.
 *
 * `started` settles once it answers (or has failed to start: reported in the console, the app
 * then runs against the real TMaps), never rejects; `useOverrides` replaces the overrides in
 * force (the module's edits, through HMR).
 * @example
 * ```ts
 * import { startTmapsPage, type TmapsPage } from 'tmaps-mock/vite/page'
 *
 * const apiKey = `ak_${crypto.randomUUID().replaceAll('-', '')}`
 * const page: TmapsPage = startTmapsPage({
 *   state: 'empty', persist: false, apiKey, globalName: false, quiet: true,
 *   serviceWorkerUrl: '/mockServiceWorker.js', renderWorkerUrl: null, overrides: './overrides.ts',
 * })
 * await page.started
 * console.assert(page.useOverrides({ default: 'no-results' }) === false) // not a list: reported, none used
 * page.useOverrides({ default: [{ endpoint: 'geocoding/forward', scenario: 'no-results' }] })
 * const answer = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${apiKey}`)
 * console.assert(answer.status === 200 && (await answer.json()).results.length === 0)
 * page.tmaps.stop()
 * ```
 */
export interface TmapsPage {
  readonly tmaps: TmapsWorker
  readonly started: Promise<void>
  /**
   * Applies a module's default export as the overrides, replacing those in force; `false` if it is not a
   * list.
   */
  useOverrides(module: { default?: unknown }): boolean
  /**
   * The overrides module was edited (HMR): its new default export replaces the overrides, and the page says
   * so.
   */
  overridesEdited(module: { default?: unknown } | undefined): void
}

/**
 * Starts the mock in the page: the Vite plugin's page code, which its start module runs.
 *
 * The app's key is in the initial state, the overrides are applied before the first answer, the
 * render worker starts with the first picture or when the page is idle, the mock is put under
 * `globalName`, and one `console.info` line says so once it answers (unless `quiet`).
 * @example
 * ```ts
 * import { startTmapsPage } from 'tmaps-mock/vite/page'
 *
 * // What the plugin's start module does, with tmapsMock({ apiKey, state: 'empty', persist: false }):
 * const apiKey = `ak_${crypto.randomUUID().replaceAll('-', '')}` // your app's key, from its .env
 * const page = startTmapsPage({
 *   state: 'empty', persist: false, apiKey, globalName: 'tmaps', quiet: false,
 *   serviceWorkerUrl: '/mockServiceWorker.js', renderWorkerUrl: null, overrides: null,
 * })
 * await page.started // the app's code waits for this: its first request is answered
 * const answer = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${apiKey}`)
 * console.assert(answer.status === 200, `got ${answer.status}`) // its key, linked to this page's host
 * console.assert((globalThis as { tmaps?: unknown }).tmaps === page.tmaps) // for the devtools
 * page.tmaps.stop()
 * ```
 */
export function startTmapsPage(config: TmapsPageConfig, overridesModule?: { default?: unknown }): TmapsPage {
  const { state, seed, persist, apiKey, globalName, serviceWorkerUrl, renderWorkerUrl, replay } = config
  const options: TmapsWorkerOptions = {
    state,
    // The plugin warned of an old recording when the dev server started.
    ...(replay && { replay: { ...replay, maxAge: false } }),
    ...(seed !== undefined && { seed }),
    ...(persist !== false && { persist }),
    start: { serviceWorker: { url: serviceWorkerUrl } },
    // The app's key is part of the initial state: there on every load and after tmaps.reset().
    ...(apiKey && { keys: [{ name: APP_KEY_NAME, value: apiKey, domains: [location.hostname] }] }),
  }
  const renderer = renderWorkerUrl === null ? undefined : lazyWorkerRenderer(renderWorkerUrl)
  if (renderer) options.renderer = renderer
  const tmaps = setupTmapsWorker(options)
  if (renderer) renderer.startWhenIdle(tmaps)

  const where = `tmaps-mock/vite: the default export of ${config.overrides}`
  let removeOverrides = () => {}
  const useOverrides = (module: { default?: unknown }): boolean => {
    try {
      if (!Array.isArray(module.default))
        throw new TypeError(
          `${where} must be a list of overrides, e.g. export default [{ endpoint: 'geocoding/forward', scenario: 'no-results' }]`,
        )
      const remove = applyOverrides(tmaps, module.default as TmapsOverrideEntry[], where)
      removeOverrides()
      removeOverrides = remove
      return true
    } catch (error) {
      console.error(`${(error as Error).message} (the overrides in force stay)`)
      return false
    }
  }
  if (overridesModule) useOverrides(overridesModule)
  if (globalName !== false) (globalThis as Record<string, unknown>)[globalName] = tmaps

  const overridesEdited = (module: { default?: unknown } | undefined) => {
    if (module && useOverrides(module))
      // biome-ignore lint/suspicious/noConsole: the page says its overrides changed, as Vite says of an update
      console.info(`tmaps-mock: the overrides of ${config.overrides} are updated.`)
  }
  return { tmaps, started: start(tmaps, config), useOverrides, overridesEdited }
}

/** Starts the mock once msw's early registration has settled; reports, never rejects. */
async function start(tmaps: TmapsWorker, config: TmapsPageConfig): Promise<void> {
  const { apiKey, globalName, persist, quiet } = config
  try {
    await earlyRegistration()
    await tmaps.start()
    if (quiet) return
    const info = apiKey ? tmaps.console.getKey(apiKey) : undefined
    const key = info
      ? ` Your key ${info.prefix}… is ${info.status === 'enabled' ? '' : `${info.status}, `}${
          info.domains.length > 0 ? `linked to ${info.domains.join(', ')}` : 'linked to no domain'
        }.`
      : ''
    const help =
      (globalName === false
        ? ''
        : ` Its console: ${globalName}.console.listKeys(), ${globalName}.log.entries(), ${globalName}.reset()${apiKey ? '' : `; key values: ${globalName}.snapshot().keys`}.`) +
      (persist === false ? '' : ` Its state is kept in localStorage "${persist}".`)
    // biome-ignore lint/suspicious/noConsole: the page's one line saying the mock answers (off with quiet)
    console.info(
      `tmaps-mock: ${new URL(tmaps.options.baseUrl).host} and ${new URL(tmaps.options.tilesUrl).host} are answered by the mock in this page.${key}${help}`,
    )
  } catch (error) {
    const why = isSecureContext
      ? ''
      : 'Service workers need a secure context: open the page on http://localhost or over https. '
    console.error(
      `tmaps-mock/vite: the mock did not start, so the app calls the real TMaps. ${why}Reason:`,
      error,
    )
  }
}

/**
 * A renderer whose Web Worker starts with the first picture asked for, or when the page is idle
 * a second after the mock's first answer (`startWhenIdle`): the page's first answers never wait
 * for it, and a map shown later finds it ready (built with `warm`).
 */
function lazyWorkerRenderer(url: string): TmapsRenderer & { startWhenIdle(tmaps: TmapsWorker): void } {
  let inWorker: ReturnType<typeof createWorkerRenderer> | undefined
  const drawing = (seed: string | number) => {
    if (!inWorker) {
      inWorker = createWorkerRenderer(
        new Worker(new URL(url, location.href), { type: 'module', name: 'tmaps-mock renderer' }),
      )
      inWorker.warm(seed)
    }
    return inWorker
  }
  return {
    tile: (seed, z, x, y) => drawing(seed).tile(seed, z, x, y),
    staticMap: (seed, spec) => drawing(seed).staticMap(seed, spec),
    startWhenIdle(tmaps) {
      const off = tmaps.log.subscribe(() => {
        off()
        setTimeout(() => requestIdleCallback(() => drawing(tmaps.options.dataSeed), { timeout: 2000 }), 1000)
      })
    },
  }
}
