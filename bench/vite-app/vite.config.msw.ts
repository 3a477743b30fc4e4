import { msw } from 'msw/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * The same app with a bare msw instead of the mock: one handler answering the same two calls with
 * the mock's own bodies (`answers.json`), started as msw's documentation has it (`await
 * worker.start()` before the app's code), msw's worker script served by msw's own Vite plugin.
 * What any msw app pays in a fresh browser context: the floor under the mock's first answer.
 */
const startFirst: Plugin = {
  name: 'bench:msw-first',
  transform(code, id) {
    if (id.endsWith('/src/main.ts')) return { code: `import '/msw-start.ts'\n${code}`, map: null }
    return undefined
  },
}

export default defineConfig({
  // Its own pre-bundling cache, as vite.config.plain.ts has (the dev servers share the folder).
  cacheDir: 'node_modules/.vite-msw',
  plugins: [msw({ mode: 'worker-only' }), startFirst],
})
