import { msw } from 'msw/vite'
import { defineConfig } from 'vite'

/**
 * The fixture of `test/e2e/persist.chromium.e2e.test.ts`: one page that starts
 * `setupTmapsWorker` with `persist` (msw's worker served by `msw/vite`). Built and served by
 * `serveApp()` from `test/support/browser.ts`.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [msw({ mode: 'worker-only' })],
  preview: { host: true },
  // The mock ships its gazetteer and generators: a large bundle, on purpose.
  build: { emptyOutDir: true, chunkSizeWarningLimit: 4000 },
})
