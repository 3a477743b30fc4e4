import { msw } from 'msw/vite'
import { defineConfig, type Plugin } from 'vite'
import { DEFAULT_DATA_SEED } from '../src/core/options.ts'

/**
 * The built page starts what its first map view needs while its own modules download, not after
 * they have run: the render worker, from a classic script (its 1 MB chunk is fetched and run in
 * parallel, and it starts building the map at once: `warm`; `main.tsx` picks it up as
 * `window.tmapsRenderWorker`, and starts its own in `vite dev`), and Leaflet's chunk, by a
 * modulepreload link (it stays a dynamic import: a page that never shows the map does not run it).
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
      const warm = JSON.stringify({ id: -1, kind: 'warm', seed: DEFAULT_DATA_SEED })
      return [
        {
          tag: 'script',
          children: `window.tmapsRenderWorker = new Worker(${JSON.stringify(`/${worker}`)}, { type: 'module' }); window.tmapsRenderWorker.postMessage(${warm})`,
          injectTo: 'head',
        },
        {
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${leaflet.fileName}` },
          injectTo: 'head',
        },
      ]
    },
  },
}

/**
 * The playground: `npm start`. Served on loopback, so the same page opens at
 * http://localhost:5173 and http://127.0.0.1:5173 (two origins, as a browser sees them).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [msw({ mode: 'worker-only' }), startMapEarly],
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
