import { msw } from 'msw/vite'
import type { ConfigEnv, IndexHtmlTransformContext, Plugin, UserConfig } from 'vite'
import { isKeyValue } from '../../contract/key-format.ts'
import { parseSnapshot, type TmapsSnapshot } from '../../core/snapshot.ts'

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
   * `persist` wins over it (`tmaps.reset()` in the page goes back to it). Default `'demo'`.
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
   * Your app's own TMaps key (`ak_` + 32 lower-case hex), e.g. the one in your `.env`: the mock
   * adds it to its console, enabled and linked to the page's hostname, when it is not there yet,
   * so the app's code runs unchanged offline. Default: none (use a key of the demo console).
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
] as const
const START_ID = 'virtual:tmaps-mock/start'
const ENTRY_ID = 'virtual:tmaps-mock/entry'
const RENDER_WORKER_ID = 'virtual:tmaps-mock/render-worker'
const WORKER_FILENAME = 'mockServiceWorker.js'
/** A whole `<!-- comment -->` or `<script ...>...</script>` element; attributes may hold `>` in quotes. */
const ELEMENT = /<!--[\s\S]*?-->|<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/**
 * The TMaps mock in `vite dev` with one line of `vite.config.ts`, and none of it in `vite build`.
 *
 * It serves msw's worker script and starts `setupTmapsWorker` before the page's entry modules
 * run, so the app's first request is answered; it does nothing in `vite build`, `vite preview`,
 * under Vitest (mode `test`) or in Storybook's pages (use `tmaps-mock/storybook` there). The
 * started mock is `window.tmaps` in the page, for the browser's devtools. Options (defaults):
 * `enabled` (`true`), `state` (`'demo'`), `seed` (none), `persist` (`'tmaps-mock'`; `false`: not
 * kept), `renderer` (`'worker'`), `apiKey` (none), `globalName` (`'tmaps'`), `quiet` (`false`).
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
 * assert.match(page, /virtual:tmaps-mock\/entry\?src=%2Fsrc%2Fmain\.ts/) // starts the mock, then main.ts
 * assert.equal(worker.status, 200) // msw's worker script, served
 * ```
 */
export function tmapsMock(options: TmapsVitePluginOptions = {}): Plugin[] {
  const settings = validate(options)
  if (!settings.enabled) return []

  const apply = (_config: UserConfig, env: ConfigEnv) =>
    env.command === 'serve' && !env.isPreview && env.mode !== 'test'
  let base = '/'
  /** Storybook reuses the app's Vite config for its own pages; `tmaps-mock/storybook` is the way there. */
  let storybook = false

  const worker: Plugin = { ...msw({ mode: 'worker-only' }), name: 'tmaps-mock:msw-worker', apply }

  const mock: Plugin = {
    name: 'tmaps-mock',
    apply,
    config() {
      // The start module's dependencies are not in the page's HTML, so Vite's scan of it cannot
      // find them: named here, they are pre-bundled with the app's, and the first load does not
      // reload for a late discovery.
      // The render worker too: pre-bundled, it is one request rather than a file per module, and
      // Vite's dev server does not serve its raw modules as a browser needs (a dynamic JSON
      // import's `with { type: 'json' }` is kept while the JSON is served as JavaScript).
      const include = ['tmaps-mock/browser']
      if (settings.renderer === 'worker') include.push('tmaps-mock/render-worker')
      return { optimizeDeps: { include } }
    },
    configResolved(config) {
      storybook = config.plugins.some((plugin) => plugin.name.startsWith('storybook:'))
      base =
        config.base === './' || config.base === '' ? '/' : new URL(config.base, 'http://localhost').pathname
    },
    resolveId(id) {
      if (id === START_ID || id === RENDER_WORKER_ID || id.startsWith(`${ENTRY_ID}?`)) return `\0${id}`
      return undefined
    },
    load(id) {
      // The render worker's module: the pre-bundled worker. (Vite's `?worker` of the bare package
      // path serves the raw modules instead, and of a virtual module, a URL that does not load.)
      if (id === `\0${RENDER_WORKER_ID}`) return `import 'tmaps-mock/render-worker'\n`
      if (id === `\0${START_ID}`) return startModule(settings, base)
      if (id.startsWith(`\0${ENTRY_ID}?`)) {
        const src = new URLSearchParams(id.slice(ENTRY_ID.length + 2)).get('src')
        if (src === null) return undefined
        return entryModule(src)
      }
      return undefined
    },
    transformIndexHtml: {
      // After Vite's own pass, which has made inline module scripts into `src` ones and added
      // its client: every module script of the app then has a `src` to wrap.
      order: 'post',
      handler(html: string, context: IndexHtmlTransformContext) {
        if (!context.server || storybook) return html
        return wrapEntries(html, base)
      },
    },
  }
  return [worker, mock]
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
}

function validate(options: TmapsVitePluginOptions): Settings {
  const fail = (why: string): never => {
    throw new TypeError(`Failed to set up tmaps-mock/vite: ${why}.`)
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail('the options must be an object, e.g. tmapsMock({ state: "demo" })')
  for (const name of Object.keys(options)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name))
      fail(`there is no option "${name}". The options are ${OPTION_NAMES.join(', ')}`)
  }
  const {
    enabled = true,
    state = 'demo',
    seed,
    persist = 'tmaps-mock',
    renderer = 'worker',
    apiKey,
    globalName = 'tmaps',
    quiet = false,
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
  if (
    seed !== undefined &&
    !((typeof seed === 'string' && seed !== '') || (typeof seed === 'number' && Number.isFinite(seed)))
  )
    fail('seed must be a non-empty string or a finite number')
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
  return { enabled, state, seed, persist, renderer, apiKey, globalName, quiet }
}

/**
 * The module that starts the mock, once per page: `after(load)` runs each wrapped entry in turn,
 * once the mock answers. A mock that fails to start is reported and the app runs all the same.
 */
function startModule(settings: Settings, base: string): string {
  const { state, seed, persist, renderer, apiKey, globalName, quiet } = settings
  const options = {
    state,
    ...(seed !== undefined && { seed }),
    ...(persist !== false && { persist }),
    start: { serviceWorker: { url: `${base}${WORKER_FILENAME}` } },
  }
  const workerUrl = `${base}@id/__x00__${RENDER_WORKER_ID}`
  const help =
    (globalName === false
      ? ''
      : ` Its console: ${globalName}.console.listKeys(), ${globalName}.log.entries(), ${globalName}.reset()${apiKey ? '' : `; key values: ${globalName}.snapshot().keys`}.`) +
    (persist === false ? '' : ` Its state is kept in localStorage "${persist}".`)
  return `import { createWorkerRenderer, setupTmapsWorker } from 'tmaps-mock/browser'

const options = ${JSON.stringify(options)}
${
  renderer === 'worker'
    ? `const renderer = createWorkerRenderer(
  new Worker(new URL(${JSON.stringify(workerUrl)}, location.href), { type: 'module', name: 'tmaps-mock renderer' }),
)
const tmaps = setupTmapsWorker({ ...options, renderer })
renderer.warm(tmaps.options.dataSeed)`
    : 'const tmaps = setupTmapsWorker(options)'
}
${globalName === false ? '' : `globalThis[${JSON.stringify(globalName)}] = tmaps`}
const apiKey = ${JSON.stringify(apiKey ?? null)}

async function start() {
  try {
    await tmaps.start()
  } catch (error) {
    const why = isSecureContext ? '' : 'Service workers need a secure context: open the page on http://localhost or over https. '
    console.error('tmaps-mock/vite: the mock did not start, so the app calls the real TMaps. ' + why + 'Reason:', error)
    return
  }
  let key = ''
  if (apiKey) {
    try {
      const info =
        tmaps.console.getKey(apiKey) ??
        (await tmaps.console.createKey({ name: 'Your app (tmaps-mock/vite apiKey)', value: apiKey, domains: [location.hostname] }))
      const status = info.status === 'enabled' ? '' : info.status + ', '
      const domains = info.domains.length > 0 ? 'linked to ' + info.domains.join(', ') : 'linked to no domain'
      key = ' Your key ' + info.prefix + '… is ' + status + domains + '.'
    } catch (error) {
      console.error('tmaps-mock/vite: could not add your apiKey to the console:', error)
    }
  }
  ${quiet ? '' : `console.info('tmaps-mock: ' + new URL(tmaps.options.baseUrl).host + ' and ' + new URL(tmaps.options.tilesUrl).host + ' are answered by the mock in this page.' + key + ${JSON.stringify(help)})`}
}

let queue = start()
/** Runs \`load\` once the mock has started and the entries before it have run. */
export function after(load) {
  const next = queue.then(load)
  queue = next.catch(() => undefined)
  return next
}
`
}

/**
 * One entry module of the page, loaded once the mock has started. The URL is resolved as the
 * page would have resolved the `<script src>` (against the document's base), so relative
 * entries and a `base` other than `/` load the very module the page named.
 */
function entryModule(src: string): string {
  return [
    `import { after } from '${START_ID}'`,
    `await after(() => import(/* @vite-ignore */ new URL(${JSON.stringify(src)}, document.baseURI).href))`,
    '',
  ].join('\n')
}

/** Points every same-origin module script of the page (not Vite's own client) at its wrapper. */
function wrapEntries(html: string, base: string): string {
  return html.replace(ELEMENT, (element, attributes: string | undefined) => {
    if (attributes === undefined) return element // a comment
    const attrs = parseAttributes(attributes)
    const src = attrs.get('src')
    if (attrs.get('type')?.value.trim().toLowerCase() !== 'module' || !src) return element
    const url = src.value.trim()
    if (url === '' || /^[a-z][a-z\d+.-]*:|^\/\//i.test(url)) return element // another origin, data:, blob:
    if (url.startsWith(`${base}@vite/`) || url.startsWith('/@vite/')) return element
    const wrapper = `${base}@id/${ENTRY_ID}?src=${encodeURIComponent(url)}`
    const rewritten = `${attributes.slice(0, src.start)}src="${escapeAttribute(wrapper)}"${attributes.slice(src.end)}`
    return `<script${rewritten}>${element.slice(`<script${attributes}>`.length)}`
  })
}

/** The attributes of a start tag by lower-case name (the first of each), with where each is. */
function parseAttributes(text: string): Map<string, { value: string; start: number; end: number }> {
  const attrs = new Map<string, { value: string; start: number; end: number }>()
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]?.toLowerCase()
    if (!name || attrs.has(name)) continue
    const value = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '')
    attrs.set(name, { value, start: match.index, end: match.index + match[0].length })
  }
  return attrs
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|quot|#39|apos|lt|gt);/g, (_m, name: string) =>
    name === 'amp' ? '&' : name === 'quot' ? '"' : name === 'lt' ? '<' : name === 'gt' ? '>' : "'",
  )
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
}
