import { msw } from 'msw/vite'
import { defineConfig, type Plugin } from 'vite'
import { DEFAULT_DATA_SEED } from '../src/core/options.ts'

/**
 * Leaflet is imported dynamically (a page that never shows the map does not run it), but the
 * playground shows it at once: a modulepreload link in the built page fetches its chunk while the
 * page's own chunk downloads, instead of after it has run.
 */
/**
 * The render worker starts from a classic script at the top of the built page, while the page's
 * own modules are still downloading: its 1 MB chunk is fetched and run in parallel with them,
 * and it starts building the map at once (`warm`). `main.tsx` picks it up
 * (`window.tmapsRenderWorker`); in `vite dev`, main.tsx starts its own.
 */
const startRenderWorkerEarly: Plugin = {
  name: 'playground:start-render-worker-early',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle }) {
      const worker = Object.keys(bundle ?? {}).find((name) => /(^|\/)render-worker-[\w-]+\.js$/.test(name))
      if (!worker) throw new Error('playground build: no render-worker chunk to start early')
      const warm = JSON.stringify({ id: -1, kind: 'warm', seed: DEFAULT_DATA_SEED })
      return [
        {
          tag: 'script',
          children: `window.tmapsRenderWorker = new Worker(${JSON.stringify(`/${worker}`)}, { type: 'module' }); window.tmapsRenderWorker.postMessage(${warm})`,
          injectTo: 'head',
        },
      ]
    },
  },
}

const preloadLeaflet: Plugin = {
  name: 'playground:preload-leaflet',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle }) {
      const chunk = Object.values(bundle ?? {}).find(
        (c) =>
          c.type === 'chunk' && c.isDynamicEntry && /node_modules\/leaflet\//.test(c.facadeModuleId ?? ''),
      )
      return chunk
        ? [
            {
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
              injectTo: 'head',
            },
          ]
        : []
    },
  },
}

/**
 * The playground: `npm start`. Served on loopback, so the same page opens at
 * http://localhost:5173 and http://127.0.0.1:5173 (two origins, as a browser sees them).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [msw({ mode: 'worker-only' }), startRenderWorkerEarly, preloadLeaflet],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // An ES module worker can split: the base map's finest level loads when first drawn.
  worker: { format: 'es' },
  // Loopback only (Vite's default `localhost`, which binds 127.0.0.1 here): the page is yours, not
  // the network's. Both http://localhost:5173 and http://127.0.0.1:5173 reach it.
  server: { host: 'localhost', port: 5173, strictPort: false },
  preview: { host: 'localhost', port: 5173 },
  // The mock ships its gazetteer and generators: a large bundle, on purpose.
  build: { outDir: '../dist-playground', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
})
