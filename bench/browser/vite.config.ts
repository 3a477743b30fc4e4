import { msw } from 'msw/vite'
import { defineConfig } from 'vite'

/** Two pages for `npm run bench`: the TMaps mock's worker and a bare msw worker, same request. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [msw({ mode: 'worker-only' })],
  logLevel: 'warn',
  build: {
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { input: { tmaps: 'bench/browser/tmaps.html', bare: 'bench/browser/bare.html' } },
  },
})
