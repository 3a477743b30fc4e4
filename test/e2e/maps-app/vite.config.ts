import { msw } from 'msw/vite'
import { defineConfig } from 'vite'

/**
 * The maps fixture of `test/e2e/maps.chromium.e2e.test.ts`: one page that runs the TMaps docs'
 * Leaflet or MapLibre snippet, optionally behind the mock's service worker (`msw/vite` serves
 * `mockServiceWorker.js`). Built and served by `serveApp()` from `test/support/browser.ts`.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [msw({ mode: 'worker-only' })],
  preview: { host: true },
  // Leaflet, MapLibre and the mock's renderer in one bundle: large, on purpose.
  build: { emptyOutDir: true, chunkSizeWarningLimit: 4000 },
})
