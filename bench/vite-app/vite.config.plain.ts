import { readFileSync } from 'node:fs'
import { defineConfig, type Plugin } from 'vite'

/**
 * The same app without the mock: it calls the dev server itself, which answers the two calls
 * with the mock's own bodies (`answers.json`, written by `bench/vite.ts`), as fast as it can.
 */
const answers: Plugin = {
  name: 'bench:answers',
  configureServer(server) {
    const { key, unauthorized, geocode } = JSON.parse(
      readFileSync(new URL('./answers.json', import.meta.url), 'utf8'),
    ) as { key: string; unauthorized: unknown; geocode: unknown }
    server.middlewares.use('/geocoding/forward', (req, res) => {
      const known = new URL(req.url ?? '', 'http://localhost').searchParams.get('api_key') === key
      res.writeHead(known ? 200 : 401, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(known ? geocode : unauthorized))
    })
  },
}

export default defineConfig({
  // Its own pre-bundling cache: two dev servers of one folder sharing node_modules/.vite make
  // each other's optimized dependencies outdated (a 504 "Outdated Optimize Dep" mid-run).
  cacheDir: 'node_modules/.vite-plain',
  define: { 'import.meta.env.VITE_BENCH_API': JSON.stringify('') },
  plugins: [answers],
})
