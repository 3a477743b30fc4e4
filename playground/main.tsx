import { render } from 'preact'
import { createWorkerRenderer } from '../src/map/renderer.ts'
import { setupTmapsWorker } from '../src/runtimes/browser/index.ts'
import { App } from './app.tsx'
import { loadLeaflet } from './tunisia-map.tsx'
import { sendStateIfAsked } from './twin-state.ts'
import './styles.css'

/**
 * The playground's mock: the demo console, kept across reloads and tabs of this origin. Its map
 * tiles and static maps are drawn in a Web Worker, which starts building the map at once: the
 * first tiles do not wait for the page, and the page never waits for a tile.
 */
const early = (window as { tmapsRenderWorker?: Worker }).tmapsRenderWorker // see vite.config.ts
const renderer = createWorkerRenderer(
  early ?? new Worker(new URL('../src/map/render-worker.ts', import.meta.url), { type: 'module' }),
)
const tmaps = setupTmapsWorker({ persist: 'tmaps-mock/playground', renderer })
renderer.warm(tmaps.options.dataSeed)
const root = document.getElementById('app')!
// The map's library loads while the service worker registers, not after.
void loadLeaflet().catch(() => undefined)
try {
  await tmaps.start()
  sendStateIfAsked(tmaps)
  root.replaceChildren()
  render(<App tmaps={tmaps} />, root)
} catch (error) {
  console.error('tmaps-mock playground: the mock did not start:', error)
  root.textContent = `The mock did not start: ${(error as Error).message}`
}
