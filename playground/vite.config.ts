import { readFileSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { msw } from 'msw/vite'
import { build, defineConfig, type EnvironmentModuleNode, type Plugin, type ViteDevServer } from 'vite'
import { DEFAULT_DATA_SEED } from '../src/core/options.ts'
import { warmJob } from '../src/jobs/protocol.ts'
import { registerEarly } from '../src/runtimes/vite/register-early.ts'
import { createReplay } from '../src/upstream/replay.ts'

/** The render worker's `warm` job, posted by the page's early script (see `startMapEarly`). */
const WARM = JSON.stringify(warmJob(DEFAULT_DATA_SEED))
/**
 * msw's worker script beside the page: relative, so the built page works at any path prefix
 * (`tmaps-mock playground --out`, a docs site), its service worker's scope that folder.
 */
const SERVICE_WORKER_URL = './mockServiceWorker.js'
/** Where `vite dev` serves the bundled render worker (see `startEarlyInDev`). */
const RENDER_WORKER_PATH = '/@playground/render-worker'

/**
 * `TMAPS_REPLAY=tmaps.har npm start`: the page's mock answers from that recording (`replay`), its
 * log marking each answer `replay` or `replay-miss`. Read and checked when the server starts (a bad
 * file stops it, saying why); without the variable the page gets `null` and runs as always.
 */
function replayFromEnv(): Plugin {
  const ID = 'virtual:playground/replay'
  const file = process.env.TMAPS_REPLAY
  let text: string | null = null
  if (file) {
    try {
      text = readFileSync(file, 'utf8')
      createReplay({ har: text }, { name: file })
    } catch (error) {
      throw new Error(`TMAPS_REPLAY: ${(error as Error).message}`)
    }
  }
  return {
    name: 'playground:replay',
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load: (id) => (id === `\0${ID}` ? `export default ${JSON.stringify(text)}` : undefined),
  }
}

/**
 * The built page starts what its first map view needs while its own modules download, not after
 * they have run: msw's worker registration and the render worker, from a classic script (the
 * service worker installs, and the worker's 1 MB chunk is fetched and run, in parallel; it starts
 * building the map at once: `warm`; `main.tsx` picks it up as `window.tmapsRenderWorker`, and
 * awaits the registration before `tmaps.start()`), and Leaflet's chunk, by a modulepreload link
 * (it stays a dynamic import: a page that never shows the map does not run it). `vite dev` does
 * the same and more: `startEarlyInDev`.
 */
const startMapEarly: Plugin = {
  name: 'playground:start-map-early',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle = {} }) {
      const worker = Object.keys(bundle).find((name) => /(^|\/)render-worker-[\w-]+\.js$/.test(name))
      const leaflet = Object.values(bundle).find(
        (c) =>
          c.type === 'chunk' && c.isDynamicEntry && /node_modules\/leaflet\//.test(c.facadeModuleId ?? ''),
      )
      if (!worker || !leaflet)
        throw new Error('playground build: no render-worker or Leaflet chunk to start early')
      return [
        {
          tag: 'script',
          // Not in `tmaps-mock serve`'s console: the mock and its pictures run in that server.
          children: `if(window[Symbol.for("tmaps-mock:playground-config")]?.servedBy!=="serve"){${registerEarly(SERVICE_WORKER_URL)}\nwindow.tmapsRenderWorker = new Worker(${JSON.stringify(`./${worker}`)}, { type: 'module' }); window.tmapsRenderWorker.postMessage(${WARM})}`,
          injectTo: 'head',
        },
        {
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${leaflet.fileName}` },
          injectTo: 'head',
        },
      ]
    },
  },
}

/**
 * `npm start` (`vite dev`) starts what the first view needs as early as the built page does. The
 * dev server serves one module per file, over HTTP/1.1 (six requests at a time), so: (1) msw's
 * worker is registered and (2) the render worker is started and warmed by a classic script at
 * the top of the page, while the page's ~80 modules download, not after they have run; (3) the
 * render worker is served bundled (two files instead of ~30 modules asked for one import level at
 * a time), made by Vite's own `build` when the server starts and again when one of its sources
 * changes (the page then reloads; if it fails, the worker's raw modules are served instead);
 * (4) from the second load on, every module of the page's static graph (and the dependencies it
 * imports lazily, such as Leaflet) is named by a `modulepreload` link, so the browser asks for
 * all of them at once instead of one import level at a time (the graph is Vite's own, known once
 * the page has loaded once).
 */
function startEarlyInDev(): Plugin {
  const source = realpathSync(resolve(import.meta.dirname, '../src/offload/render-worker.ts'))
  /** The render worker's raw module, as Vite rewrites `new Worker(new URL(...))` in main.tsx. */
  const raw = `/@fs${source}?worker_file&type=module`
  let server: ViteDevServer | undefined
  let files = new Map<string, string>()
  let modules = new Set<string>()
  let bundled: Promise<void> = Promise.resolve()
  const bundle = async () => {
    try {
      const result = await build({
        configFile: false,
        logLevel: 'error',
        publicDir: false,
        build: {
          write: false,
          minify: false,
          sourcemap: true,
          reportCompressedSize: false,
          // As a library, not a page: a page's build wraps each dynamic import in Vite's preload
          // helper, which reads `document` (a worker has none: the street-zoom layers, loaded
          // lazily, failed and every tile from zoom 10 answered 500).
          lib: { entry: source, formats: ['es'], fileName: () => 'render-worker.js' },
          rolldownOptions: { output: { chunkFileNames: '[name].js' } },
        },
      })
      const output = (Array.isArray(result) ? result : [result]).flatMap((r) =>
        'output' in r ? r.output : [],
      )
      files = new Map(
        output.map((file) => [file.fileName, file.type === 'chunk' ? file.code : String(file.source)]),
      )
      modules = new Set(output.flatMap((file) => (file.type === 'chunk' ? file.moduleIds : [])))
    } catch (error) {
      files = new Map([['render-worker.js', `import ${JSON.stringify(raw)}\n`]])
      server?.config.logger.error(
        `playground: the render worker did not bundle, its modules are served one by one: ${error}`,
      )
    }
  }
  return {
    name: 'playground:start-early-in-dev',
    apply: 'serve',
    configureServer(devServer) {
      server = devServer
      bundled = bundle()
      devServer.watcher.on('change', (file) => {
        if (!modules.has(file)) return
        bundled = bundle().then(() => devServer.ws.send({ type: 'full-reload' }))
      })
      devServer.middlewares.use(RENDER_WORKER_PATH, async (request, response, next) => {
        await bundled
        const text = files.get(new URL(request.url ?? '/', 'http://localhost').pathname.slice(1))
        if (text === undefined) return next()
        response.setHeader(
          'Content-Type',
          request.url?.endsWith('.map') ? 'application/json' : 'text/javascript',
        )
        response.setHeader('Cache-Control', 'no-cache')
        response.end(text)
      })
    },
    transformIndexHtml: {
      order: 'post',
      async handler() {
        const client = server?.environments.client
        const entry = await client?.moduleGraph.getModuleByUrl('/main.tsx')
        const isDependency = (url: string) => client?.depsOptimizer?.isOptimizedDepUrl(url) ?? false
        const worker = `${RENDER_WORKER_PATH}/render-worker.js`
        return [
          {
            tag: 'script',
            children: `${registerEarly(SERVICE_WORKER_URL)}\nwindow.tmapsRenderWorker = new Worker(${JSON.stringify(worker)}, { type: 'module' }); window.tmapsRenderWorker.postMessage(${WARM})`,
            injectTo: 'head-prepend',
          },
          ...(entry ? staticGraph(entry, isDependency) : []).map((href) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', href },
            injectTo: 'head' as const,
          })),
        ]
      },
    },
  }
}

/**
 * The URLs of the modules `entry` imports statically, transitively, and of the pre-bundled
 * dependencies any of them imports lazily; not the mock's own lazy modules (the geocoder, the
 * in-page renderer), which load when first used. A module is imported statically when its URL
 * follows `from` or `import` in the importer's code as Vite served it.
 */
function staticGraph(entry: EnvironmentModuleNode, isDependency: (url: string) => boolean): string[] {
  const seen = new Set([entry])
  const urls: string[] = []
  const queue = [entry]
  for (let module = queue.shift(); module; module = queue.shift()) {
    const code = module.transformResult?.code ?? ''
    for (const next of module.importedModules) {
      if (seen.has(next)) continue
      const named = (quote: string) =>
        code.includes(`from ${quote}${next.url}`) || code.includes(`import ${quote}${next.url}`)
      const isStatic = named('"') || named("'")
      if (!isStatic && !isDependency(next.url)) continue
      seen.add(next)
      urls.push(next.url)
      if (isStatic) queue.push(next)
    }
  }
  return urls
}

/**
 * The playground: `npm start`. Served on loopback, so the same page opens at
 * http://localhost:5173 and http://127.0.0.1:5173 (two origins, as a browser sees them). Built
 * into the package (`dist/playground/`, by `npm run build`) with relative URLs, for
 * `tmaps-mock playground` and its static copies at any path prefix.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [msw({ mode: 'worker-only' }), startMapEarly, startEarlyInDev(), replayFromEnv()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // An ES module worker can split: the base map's finest level loads when first drawn.
  worker: { format: 'es' },
  // Loopback only (Vite's default `localhost`, which binds 127.0.0.1 here): the page is yours, not
  // the network's. Both http://localhost:5173 and http://127.0.0.1:5173 reach it.
  server: { host: 'localhost', port: 5173, strictPort: false },
  preview: { host: 'localhost', port: 5173 },
  // The mock ships its gazetteer and generators: a large bundle, on purpose.
  build: { outDir: '../dist/playground', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
})
