import { existsSync, readFileSync } from 'node:fs'
import { resolve as resolvePath, sep } from 'node:path'
import { msw } from 'msw/vite'
import type {
  ConfigEnv,
  DevEnvironment,
  HtmlTagDescriptor,
  IndexHtmlTransformContext,
  Plugin,
  UserConfig,
  ViteDevServer,
} from 'vite'
import { isKeyValue } from '../../contract/key-format.ts'
import { parseSnapshot, type TmapsSnapshot } from '../../store/snapshot.ts'
import { createReplay } from '../../upstream/replay.ts'
import { failure, isObject, SEED, unknownFields } from '../../validate/validate.ts'
import { serveConsole } from './console-route.ts'
import type { TmapsPageConfig } from './page.ts'
import { registerEarly } from './register-early.ts'

export { type TmapsRecorderOptions, tmapsRecorder } from './recorder.ts'

/**
 * The options of `tmapsMock()`, the Vite plugin; all optional.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { type TmapsVitePluginOptions, tmapsMock } from 'tmaps-mock/vite'
 *
 * const options: TmapsVitePluginOptions = { state: 'empty', seed: 'dev', persist: false, renderer: 'page' }
 * assert.equal(tmapsMock(options).length, 2) // msw's worker script, and the mock
 * assert.deepEqual(tmapsMock({ enabled: false }), [])
 * ```
 */
export interface TmapsVitePluginOptions {
  /** `false` turns the plugin off (the dev server is left untouched). Default `true`. */
  enabled?: boolean
  /**
   * The initial console: `'demo'` (five keys, "Web app (local dev)" linked to `localhost`),
   * `'empty'`, or a snapshot (`tmaps.snapshot()`, object or JSON text). A state kept by
   * `persist` is loaded over it when the page starts; `tmaps.reset()` in the page goes back to
   * it (with `apiKey`) and keeps that in turn. Default `'demo'`.
   */
  state?: 'demo' | 'empty' | TmapsSnapshot | string
  /** Makes key values, ids and the generated data reproducible. Default: none. */
  seed?: string | number
  /**
   * The `localStorage` name under which the console state (keys, domains, usage) survives
   * reloads and is shared by the page's tabs; `false` starts every load from `state`.
   * Default `'tmaps-mock'`.
   */
  persist?: string | false
  /**
   * Where map tiles and static maps are drawn: `'worker'` in a Web Worker (the page never waits
   * for a tile), `'page'` in the page itself. Default `'worker'`.
   */
  renderer?: 'worker' | 'page'
  /**
   * Your app's own TMaps key (`ak_` + 32 lower-case hex), e.g. the one in your `.env`: part of
   * the mock's initial state (the `keys` option of `setupTmapsWorker`), enabled and linked to
   * the page's hostname, and added to a kept state that lacks it, so the app's code runs
   * unchanged offline; as you left it in a kept state otherwise (e.g. unlinked), until
   * `tmaps.reset()`. Default: none (use a key of the demo console).
   */
  apiKey?: string
  /**
   * The global name under which the started mock is put in the page, for the browser's
   * devtools (`tmaps.console.unlinkDomain(key, 'localhost')`, `tmaps.log.entries()`); `false`
   * puts it nowhere. Default `'tmaps'`.
   */
  globalName?: string | false
  /** No `console.info` line in the page when the mock has started. Default `false`. */
  quiet?: boolean
  /**
   * A module of your project (a path from its root, e.g. `'./src/tmaps-overrides.ts'`) whose
   * default export is a list of overrides (`TmapsOverrideEntry[]` from `tmaps-mock`: `{ endpoint,
   * resolver, times? }` with e.g. `resolver: scenarios.noResults()`, or `{ endpoint, scenario:
   * 'at-sea' }`), applied to the mock in the page before its first answer, after the key and
   * domain checks as `mock.use` does. The page imports it (resolvers are functions: they run
   * there); an edit of it replaces them without reloading the page (HMR). Default: none (the
   * page then loads nothing more).
   */
  overrides?: string
  /**
   * A recording of the real TMaps (`tmaps-mock serve --upstream --record tmaps.har`), a path from
   * the project's root, or `{ har, onMissing, maxAge }`: the page answers accepted requests with
   * the recorded bytes, after the contract decided (see `createTmapsMock`'s `replay`). An edit of
   * the file reloads the page. Default: none.
   */
  replay?: string | { har: string; onMissing?: 'mock' | 'error'; maxAge?: string | number | false }
}

const OPTION_NAMES = [
  'enabled',
  'state',
  'seed',
  'persist',
  'renderer',
  'apiKey',
  'globalName',
  'quiet',
  'overrides',
  'replay',
] as const
const START_ID = 'virtual:tmaps-mock/start'
const RENDER_WORKER_ID = 'virtual:tmaps-mock/render-worker'
/** The start module's URL under `base`, as Vite serves a virtual module. */
const START_URL = `@id/__x00__${START_ID}`
const WORKER_FILENAME = 'mockServiceWorker.js'
/** How long a page's HTML may wait for the list of modules to preload (see `startGraph`). */
const PRELOAD_WAIT_MS = 200
/** A whole `<!-- comment -->` or `<script ...>...</script>` element; attributes may hold `>` in quotes. */
const ELEMENT = /<!--[\s\S]*?-->|<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/**
 * The TMaps mock in `vite dev` with one line of `vite.config.ts`, and none of it in `vite build`.
 *
 * It serves msw's worker script and starts `setupTmapsWorker` before the code of the page's entry modules
 * runs, so the app's first request is answered; it does nothing in `vite build`, `vite preview` or in
 * Storybook's pages (use `tmaps-mock/storybook` there), and under Vitest (mode `test`) only serves the worker
 * script (browser mode: `tmaps-mock/vitest` starts the mock). The started mock is `window.tmaps` in the page,
 * for the browser's devtools. Options: `enabled` (`true`), `state` (`'demo'`), `seed` (none), `persist`
 * (`'tmaps-mock'`; `false`: not kept), `renderer` (`'worker'`), `apiKey` (none), `globalName` (`'tmaps'`),
 * `quiet` (`false`), `overrides` (none: a module whose default export lists overrides, applied in the page).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { tmapsMock } from 'tmaps-mock/vite'
 * import { createServer } from 'vite'
 *
 * // vite.config.ts: export default defineConfig({ plugins: [tmapsMock({ persist: 'my-app' })] })
 * const server = await createServer({
 *   configFile: false,
 *   logLevel: 'silent',
 *   server: { port: 0 },
 *   plugins: [tmapsMock({ persist: 'my-app' })],
 * })
 * await server.listen()
 * const page = await server.transformIndexHtml('/', '<script type="module" src="/src/main.ts"></script>')
 * const worker = await fetch(new URL('/mockServiceWorker.js', server.resolvedUrls?.local[0]))
 * await server.close()
 * assert.match(page, /register\("\/mockServiceWorker\.js"\)/) // msw's worker, registered first
 * assert.match(page, /src="\/@id\/__x00__virtual:tmaps-mock\/start"/) // the mock, started early
 * assert.equal(worker.status, 200) // msw's worker script, served
 * ```
 */
export function tmapsMock(options: TmapsVitePluginOptions = {}): Plugin[] {
  const settings = validate(options)
  if (!settings.enabled) return []

  const apply = (_config: UserConfig, env: ConfigEnv) =>
    env.command === 'serve' && !env.isPreview && env.mode !== 'test'
  let base = '/'
  let root = ''
  let server: ViteDevServer | undefined
  /** Storybook reuses the app's Vite config for its own pages; `tmaps-mock/storybook` is the way there. */
  let storybook = false
  /** The overrides module (option `overrides`), as a file path, once the root is known. */
  let overridesFile: string | undefined
  /** The recording (option `replay`), as a file path, once the root is known. */
  let replayFile: string | undefined
  /** The module ids of the pages' entries (their module scripts), as the HTML names them. */
  const entries = new Set<string>()
  const preloads = startGraph()

  // Under Vitest (mode `test`) only the worker script is served: in browser mode, the tests'
  // fixtures (`tmaps-mock/vitest`) start the mock in the test page, which has no HTML of ours.
  const worker: Plugin = {
    ...msw({ mode: 'worker-only' }),
    name: 'tmaps-mock:msw-worker',
    apply: (_config, env) => env.command === 'serve' && !env.isPreview,
  }

  const mock: Plugin = {
    name: 'tmaps-mock',
    apply,
    config: () => ({ optimizeDeps: { include: prebundled(settings) } }),
    configResolved(config) {
      storybook = config.plugins.some((plugin) => plugin.name.startsWith('storybook:'))
      root = config.root
      if (settings.overrides !== undefined) overridesFile = overridesModule(settings.overrides, root)
      if (settings.replay !== undefined)
        replayFile = replayRecording(settings.replay.har, root, settings.replay.maxAge)
      base =
        config.base === './' || config.base === '' ? '/' : new URL(config.base, 'http://localhost').pathname
    },
    configureServer(devServer) {
      server = devServer
      if (!storybook) serveConsole(devServer, base, settings)
    },
    resolveId(id) {
      if (id === START_ID || id === RENDER_WORKER_ID) return `\0${id}`
      return undefined
    },
    load(id) {
      // The render worker's module: the pre-bundled worker. (Vite's `?worker` of the bare package
      // path serves the raw modules instead, and of a virtual module, a URL that does not load.)
      if (id === `\0${RENDER_WORKER_ID}`) return `import 'tmaps-mock/render-worker'\n`
      if (id === `\0${START_ID}`) return startModule(settings, base, overridesFile, replayFile)
      return undefined
    },
    transform(code, id, transformOptions) {
      if (transformOptions?.ssr || storybook) return undefined
      // The mock's pre-bundled files (msw and the mock, ~0.9 MB) would be sent with their source
      // map inlined (~2 MB of base64 more, made again for every page by the dev server, which
      // serves nothing else meanwhile): sent with a link to the map instead, which Vite serves
      // and devtools read when opened. Only files with the mock's code; the app's are untouched.
      if (server?.environments.client.depsOptimizer?.isOptimizedDepFile(id)) {
        const { sources } = this.getCombinedSourcemap()
        if (!sources.some((source) => MOCK_SOURCE.test(source ?? ''))) return undefined
        const file = cleanId(id).slice(cleanId(id).lastIndexOf('/') + 1)
        return { code: `${code}\n//# sourceMappingURL=${file}.map\n`, map: { mappings: '' } }
      }
      // An entry imports the start module, whose top-level `await` holds the entry's code until
      // the mock answers; the browser still fetches the entry's whole graph at once, with the
      // mock's. (Imports are hoisted: appended, the line moves nothing in the source map.)
      if (!(entries.has(id) || INLINE_ENTRY.test(id))) return undefined
      return { code: `${code}\nimport ${JSON.stringify(START_ID)}\n`, map: null }
    },
    transformIndexHtml: {
      // Before Vite's own pass, which starts transforming the page's module scripts: their ids
      // are known by then. (Inline module scripts become modules of their own: INLINE_ENTRY.)
      order: 'pre',
      async handler(html: string, context: IndexHtmlTransformContext) {
        if (!context.server || storybook || !hasModuleScript(html)) return html
        const client = server?.environments.client
        for (const id of entryIds(html, context.path, root, base)) {
          if (entries.has(id)) continue
          entries.add(id)
          // Transformed before a page named it (`server.warmup`): transformed again, with the import.
          const module = client?.moduleGraph.getModuleById(id)
          if (module) client?.moduleGraph.invalidateModule(module)
        }
        if (client) await preloads.refresh(client, PRELOAD_WAIT_MS)
        return { html, tags: earlyTags(base, preloads.urls) }
      },
    },
  }
  return [worker, mock]
}

/**
 * What Vite pre-bundles for the mock. The start module's dependencies are not in the page's HTML,
 * so Vite's scan of it cannot find them: named here, they are pre-bundled with the app's, and the
 * first load does not reload for a late discovery. The render worker too: pre-bundled, it is one
 * request rather than a file per module, and Vite's dev server does not serve its raw modules as
 * a browser needs (a dynamic JSON import's `with { type: 'json' }` is kept while the JSON is
 * served as JavaScript). The overrides module imports from `tmaps-mock` (scenarios), which the
 * scan cannot find either.
 */
function prebundled(settings: Settings): string[] {
  const include = [PAGE_MODULE]
  if (settings.renderer === 'worker') include.push('tmaps-mock/render-worker')
  if (settings.overrides !== undefined) include.push('tmaps-mock')
  return include
}

/** The tags a page gets so that the mock answers its first request. */
function earlyTags(base: string, preloads: readonly string[]): HtmlTagDescriptor[] {
  return [
    // 1. msw's worker installs while the page's modules download.
    { tag: 'script', children: registerEarly(`${base}${WORKER_FILENAME}`), injectTo: 'head-prepend' },
    // 2. The mock starts as soon as its own modules are there, whatever the app's graph.
    { tag: 'script', attrs: { type: 'module', async: true, src: `/${START_URL}` }, injectTo: 'head' },
    // 3. Its pre-bundled modules are asked for at once, not once the start module is there.
    ...preloads.map((href) => ({
      tag: 'link',
      attrs: { rel: 'modulepreload', href },
      injectTo: 'head' as const,
    })),
  ]
}

interface Settings {
  enabled: boolean
  state: 'demo' | 'empty' | TmapsSnapshot | string
  seed: string | number | undefined
  persist: string | false
  renderer: 'worker' | 'page'
  apiKey: string | undefined
  globalName: string | false
  quiet: boolean
  overrides: string | undefined
  replay: { har: string; onMissing: 'mock' | 'error'; maxAge: string | number | false } | undefined
}

function validate(options: TmapsVitePluginOptions): Settings {
  const fail = failure('Failed to set up tmaps-mock/vite')
  if (!isObject(options)) fail('the options must be an object, e.g. tmapsMock({ state: "demo" })')
  const [unknown] = unknownFields(options, OPTION_NAMES)
  if (unknown !== undefined)
    fail(`there is no option "${unknown}". The options are ${OPTION_NAMES.join(', ')}`)
  const {
    enabled = true,
    state = 'demo',
    seed,
    persist = 'tmaps-mock',
    renderer = 'worker',
    apiKey,
    globalName = 'tmaps',
    quiet = false,
    overrides,
    replay,
  } = options
  if (typeof enabled !== 'boolean') fail('enabled must be true or false')
  if (typeof quiet !== 'boolean') fail('quiet must be true or false')
  if (state !== 'demo' && state !== 'empty') {
    if (typeof state !== 'string' && (typeof state !== 'object' || state === null))
      fail('state must be "demo", "empty" or a snapshot from tmaps.snapshot()')
    try {
      parseSnapshot(state)
    } catch (error) {
      fail(
        `state is neither "demo", "empty" nor a valid snapshot (${(error as Error).message.replace(/\.$/, '')}). Pass tmaps.snapshot() or its JSON text`,
      )
    }
  }
  if (seed !== undefined && !SEED.test(seed)) fail(`seed must be ${SEED.says}`)
  if (persist !== false && (typeof persist !== 'string' || persist === ''))
    fail('persist must be a localStorage name such as "my-app", or false to start every load from state')
  if (renderer !== 'worker' && renderer !== 'page')
    fail(`renderer must be "worker" or "page" (got ${JSON.stringify(renderer)})`)
  if (apiKey !== undefined && (typeof apiKey !== 'string' || !isKeyValue(apiKey)))
    fail(
      `apiKey must be a TMaps key: "ak_" and 32 lower-case hexadecimal characters (got ${typeof apiKey === 'string' ? `${apiKey.length} characters` : typeof apiKey}). Check the variable it comes from, e.g. loadEnv(mode, process.cwd()).VITE_TMAPS_API_KEY`,
    )
  if (globalName !== false && (typeof globalName !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(globalName)))
    fail('globalName must be a JavaScript identifier such as "tmaps", or false to not expose the mock')
  if (overrides !== undefined && (typeof overrides !== 'string' || overrides.trim() === ''))
    fail(
      'overrides must be the path of a module of your project whose default export lists the overrides, e.g. "./src/tmaps-overrides.ts"',
    )
  const recording = typeof replay === 'string' ? { har: replay } : replay
  if (
    recording !== undefined &&
    (recording === null ||
      typeof recording !== 'object' ||
      typeof recording.har !== 'string' ||
      recording.har.trim() === '')
  )
    fail(
      'replay must be the path of a HAR file from the project\'s root, e.g. "./tmaps.har", or { har: "./tmaps.har", onMissing: "error" }',
    )
  if (recording?.onMissing !== undefined && recording.onMissing !== 'mock' && recording.onMissing !== 'error')
    fail(`replay.onMissing must be "mock" or "error" (got ${JSON.stringify(recording.onMissing)})`)
  return {
    enabled,
    state,
    seed,
    persist,
    renderer,
    apiKey,
    globalName,
    quiet,
    overrides,
    replay:
      recording === undefined
        ? undefined
        : { har: recording.har, onMissing: recording.onMissing ?? 'mock', maxAge: recording.maxAge ?? '90d' },
  }
}

/** The overrides module's file: a path from the project's root (or absolute) to a file that exists. */
function overridesModule(path: string, root: string): string {
  const file = resolvePath(root, path)
  if (!existsSync(file))
    throw new TypeError(
      `Failed to set up tmaps-mock/vite: overrides is ${JSON.stringify(path)}, and ${file} does not exist. Give the path of a module from the project's root, e.g. "./src/tmaps-overrides.ts", whose default export lists the overrides.`,
    )
  return file.split(sep).join('/')
}

/**
 * The recording's file: read and checked now (a bad one fails the dev server's start, saying why); an old one
 * warns here.
 */
function replayRecording(path: string, root: string, maxAge: string | number | false): string {
  const file = resolvePath(root, path)
  if (!existsSync(file))
    throw new TypeError(
      `Failed to set up tmaps-mock/vite: replay is ${JSON.stringify(path)}, and ${file} does not exist. Record one with tmaps-mock serve --upstream https://api.tmaps.tn --upstream-key-env TMAPS_KEY --record ${path}.`,
    )
  try {
    createReplay({ har: readFileSync(file, 'utf8'), maxAge }, { name: path })
  } catch (error) {
    throw new TypeError(`Failed to set up tmaps-mock/vite: ${(error as Error).message}`)
  }
  return file.split(sep).join('/')
}

/** The package's page code, which the start module imports: pre-bundled with msw (see `config`). */
const PAGE_MODULE = 'tmaps-mock/vite/page'

/**
 * The module that starts the mock, once per page: loaded by its own `async` script and imported
 * by each entry, whose code its top-level `await` holds until the mock answers. It is only the
 * plugin's options for `startTmapsPage` (`./page.ts`, the package's typed page code, reached
 * through its `tmaps-mock/vite/page` subpath so that Vite pre-bundles it with msw), and the
 * overrides module, which must be imported here: its edits are accepted by its importer (HMR).
 */
function startModule(
  settings: Settings,
  base: string,
  overridesFile: string | undefined,
  replayFile: string | undefined,
): string {
  const { state, seed, persist, renderer, apiKey, globalName, quiet, overrides, replay } = settings
  const config: TmapsPageConfig = {
    state,
    ...(seed !== undefined && { seed }),
    persist,
    apiKey: apiKey ?? null,
    globalName,
    quiet,
    serviceWorkerUrl: `${base}${WORKER_FILENAME}`,
    renderWorkerUrl: renderer === 'worker' ? `${base}@id/__x00__${RENDER_WORKER_ID}` : null,
    overrides: overrides ?? null,
    ...(replay && { replay: { har: '', onMissing: replay.onMissing, maxAge: replay.maxAge } }),
  }
  const lines = [`import { startTmapsPage } from ${JSON.stringify(PAGE_MODULE)}`]
  // The recording as text (`?raw`): an edit of the file reloads the page with it.
  let pageConfig = JSON.stringify(config)
  if (replayFile !== undefined) {
    lines.push(`import recording from ${JSON.stringify(`${replayFile}?raw`)}`)
    pageConfig = `{ ...${pageConfig}, replay: { ...${JSON.stringify(config.replay)}, har: recording } }`
  }
  if (overridesFile === undefined) lines.push(`const page = startTmapsPage(${pageConfig})`)
  else {
    const file = JSON.stringify(overridesFile)
    lines.push(
      `import * as overridesModule from ${file}`,
      `const page = startTmapsPage(${pageConfig}, overridesModule)`,
      `if (import.meta.hot) import.meta.hot.accept(${file}, (next) => page.overridesEdited(next))`,
    )
  }
  lines.push('await page.started', '')
  return lines.join('\n')
}

/**
 * A file of this package in a pre-bundled file's source map (`../../tmaps-mock/dist/core/create-core.js`).
 */
const MOCK_SOURCE = /(^|\/)tmaps-mock\/dist\//

/** A module id without its query (`?v=...`) or hash. */
function cleanId(id: string): string {
  return id.replace(/[?#].*$/, '')
}

/** The module of an inline `<script type="module">` of a page, as Vite serves it. */
const INLINE_ENTRY = /[?&]html-proxy&index=\d+\.js$/

/** True when a page has a module script of its own (not only Vite's client): one the mock must precede. */
function hasModuleScript(html: string): boolean {
  for (const match of html.matchAll(ELEMENT)) {
    const attributes = match[1]
    if (attributes === undefined) continue // a comment
    const attrs = parseAttributes(attributes)
    if (attrs.get('type')?.trim().toLowerCase() !== 'module') continue
    const src = attrs.get('src') ?? ''
    if (!/\/@vite\/client$/.test(src)) return true
  }
  return false
}

/**
 * A static import of a module as Vite serves it: `import { a } from "/node_modules/.vite/deps/x.js?v=1";`.
 */
const STATIC_IMPORT = /^import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["'];?$/gm

/**
 * The URLs of the modules the start module imports (the pre-bundled mock), as this dev server
 * rewrites them, for `modulepreload` links: the page asks for them with its first requests, not
 * once the start module has come. Not the small chunks they import in turn (a few kB, asked for
 * once the pre-bundle is parsed): preloaded too, they took the connections (Chromium opens six
 * to a host) that msw's worker script needed, and the worker installed later (measured:
 * docs/performance.md, "Figures behind choices"). Read from Vite's own transform of the start
 * module, and the pre-bundle's transform is started, so that the page's requests find them done;
 * a page waits at most `waitMs` for them (e.g. while Vite pre-bundles) and goes without, and a
 * stale URL after a new pre-bundle costs a useless request, nothing more.
 */
function startGraph() {
  let urls: string[] = []
  let running: Promise<void> | undefined
  const importsOf = async (client: DevEnvironment, url: string): Promise<string[]> => {
    const result = await client.transformRequest(url)
    return [...(result?.code ?? '').matchAll(STATIC_IMPORT)]
      .map((m) => m[1] ?? '')
      .filter((u) => u.startsWith('/'))
  }
  const find = async (client: DevEnvironment) => {
    try {
      // Without `base`, as a page's HTML names its files before Vite's own pass (which adds it).
      const base = client.config.base
      const unbased = (url: string) => (url.startsWith(base) ? `/${url.slice(base.length)}` : url)
      urls = (await importsOf(client, `\0${START_ID}`)).map(unbased)
      for (const url of urls) void client.warmupRequest(url)
    } catch {
      urls = [] // a hint only: the page loads without it
    } finally {
      running = undefined
    }
  }
  return {
    get urls(): readonly string[] {
      return urls
    },
    async refresh(client: DevEnvironment, waitMs: number): Promise<void> {
      running ??= find(client)
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))])
      clearTimeout(timer)
    },
  }
}

/**
 * The module ids of a page's own module scripts with a `src` (not another origin's), as the dev
 * server resolves them: files of the project, `/@fs/` files. Read from the page as written,
 * before Vite's pass (inline module scripts are found by their module id: INLINE_ENTRY).
 */
function entryIds(html: string, pagePath: string, root: string, base: string): string[] {
  const ids: string[] = []
  const page = new URL(pagePath, 'http://vite.invalid')
  for (const match of html.matchAll(ELEMENT)) {
    const attributes = match[1]
    if (attributes === undefined) continue // a comment
    const attrs = parseAttributes(attributes)
    const src = attrs.get('src')?.trim()
    if (attrs.get('type')?.trim().toLowerCase() !== 'module' || !src) continue
    if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(src)) continue // another origin, data:, blob:
    const url = new URL(src, page)
    let path = decodeURIComponent(url.pathname)
    if (path.startsWith(base)) path = `/${path.slice(base.length)}`
    if (path.startsWith('/@vite/') || path.startsWith('/@id/')) continue
    const file = path.startsWith('/@fs/') ? path.slice('/@fs'.length) : `${root}${path}`
    ids.push(`${file}${url.search}`)
  }
  return ids
}

/** The attributes of a start tag by lower-case name (the first of each). */
function parseAttributes(text: string): Map<string, string> {
  const attrs = new Map<string, string>()
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]?.toLowerCase()
    if (!name || attrs.has(name)) continue
    attrs.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''))
  }
  return attrs
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|quot|#39|apos|lt|gt);/g, (_m, name: string) =>
    name === 'amp' ? '&' : name === 'quot' ? '"' : name === 'lt' ? '<' : name === 'gt' ? '>' : "'",
  )
}
