import { msw } from 'msw/vite'
import { defineConfig, type Plugin } from 'vite'
// The plugin's own early registration, from the package as the bench builds it into the project.
import { registerEarly } from './node_modules/tmaps-mock/dist/runtimes/vite/register-early.js'

/**
 * The bare msw app of `vite.config.msw.ts` started as the plugin starts the mock: msw's worker
 * registered by a classic script at the top of the page, `msw-start.ts` loaded by its own
 * `async` module script and imported by the entry (whose code waits for it). The lowest floor:
 * msw's service worker and handshake in a fresh context, with nothing of the mock.
 */
const early: Plugin = {
  name: 'bench:msw-early',
  transform(code, id) {
    if (id.endsWith('/src/main.ts')) return { code: `${code}\nimport '/msw-start.ts'\n`, map: null }
    return undefined
  },
  transformIndexHtml: {
    order: 'pre',
    handler: () => [
      { tag: 'script', children: registerEarly('/mockServiceWorker.js'), injectTo: 'head-prepend' },
      { tag: 'script', attrs: { type: 'module', async: true, src: '/msw-start.ts' }, injectTo: 'head' },
    ],
  },
}

export default defineConfig({
  cacheDir: 'node_modules/.vite-msw-early',
  plugins: [msw({ mode: 'worker-only' }), early],
})
