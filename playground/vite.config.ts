import { msw } from 'msw/vite'
import { defineConfig } from 'vite'

/**
 * The playground: `npm start`. Served on loopback, so the same page opens at
 * http://localhost:5173 and http://127.0.0.1:5173 (two origins, as a browser sees them).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [msw({ mode: 'worker-only' })],
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
