import recording from 'virtual:playground/replay'
import { render } from 'preact'
import { createWorkerRenderer } from '../src/offload/renderer.ts'
import { setupTmapsWorker } from '../src/runtimes/browser/index.ts'
import { playgroundConfig, storageName } from '../src/runtimes/playground/page-config.ts'
import { earlyRegistration } from '../src/runtimes/vite/register-early.ts'
import { must } from '../src/validate/must.ts'
import { App } from './app.tsx'
import { connectToServer, type PlaygroundMock } from './server-console.ts'
import { loadLeaflet } from './tunisia-map.tsx'
import { sendStateIfAsked } from './twin-state.ts'
import './styles.css'

const config = playgroundConfig()
const root = must(document.getElementById('app'), 'the page has no #app element')
try {
  const tmaps = config.servedBy === 'serve' ? await serverConsole() : await pageMock()
  root.replaceChildren()
  render(<App tmaps={tmaps} />, root)
  if (config.servedBy !== 'serve') warmGeocoderAfterFirstView(tmaps.options.dataSeed)
} catch (error) {
  console.error('tmaps-mock playground: the mock did not start:', error)
  root.textContent = `The mock did not start: ${(error as Error).message}`
}

/**
 * The playground's mock: the demo console (or the state and seed `tmaps-mock playground` was
 * given), kept across reloads and tabs of this origin. Its map
 * tiles and static maps are drawn in a Web Worker, which starts building the map at once: the
 * first tiles do not wait for the page, and the page never waits for a tile.
 */
async function pageMock(): Promise<PlaygroundMock> {
  const early = (window as { tmapsRenderWorker?: Worker }).tmapsRenderWorker // see vite.config.ts
  const renderer = createWorkerRenderer(
    early ?? new Worker(new URL('../src/offload/render-worker.ts', import.meta.url), { type: 'module' }),
  )
  // `TMAPS_REPLAY=tmaps.har npm start`: TMaps's recorded answers, behind the console's contract.
  const replay = recording === null ? {} : { replay: { har: recording, maxAge: false as const } }
  const { servedBy: _, caPath: __, ...options } = config
  const tmaps = setupTmapsWorker({
    ...options,
    persist: storageName(options),
    renderer,
    ...replay,
    // Beside the page, wherever it is served (a static copy may live under any path prefix).
    start: { quiet: true, onUnhandledFrame: 'bypass', serviceWorker: { url: './mockServiceWorker.js' } },
  })
  renderer.warm(tmaps.options.dataSeed)
  // The map's library loads while the service worker registers, not after.
  void loadLeaflet().catch(() => undefined)
  await earlyRegistration() // msw's worker, registered at the top of the page (see vite.config.ts)
  await tmaps.start()
  sendStateIfAsked(tmaps)
  return tmaps
}

/** `tmaps-mock serve`'s console: the mock is the server's, driven through its control API. */
async function serverConsole(): Promise<PlaygroundMock> {
  void loadLeaflet().catch(() => undefined)
  return connectToServer(config.caPath)
}

/**
 * The composer's first request is a geocode, whose data (the gazetteer, the generated streets,
 * their search index: 150-250 ms of work in the page) would otherwise be made when Send is first
 * pressed. It is made here instead, once the map's first tiles are drawn (their answers pass
 * through this thread, so it would hold them up before; at the latest 3 s after the first render)
 * and the page is idle.
 */
function warmGeocoderAfterFirstView(seed: string | number): void {
  const warm = async () => {
    const [{ worldFor }, { GEOCODER }] = await Promise.all([
      import('../src/data/world.ts'),
      import('../src/endpoints/geocoding/geocoder.ts'),
      import('../src/endpoints/geocoding/forward.ts'),
    ])
    requestIdleCallback(() => worldFor(seed).derived(GEOCODER), { timeout: 2000 })
  }
  let started = false
  const start = () => {
    if (started) return
    started = true
    document.removeEventListener('load', onTile, true)
    void warm().catch(() => undefined)
  }
  const onTile = (event: Event) => {
    if ((event.target as Element).classList?.contains('leaflet-tile')) setTimeout(start, 500)
  }
  document.addEventListener('load', onTile, true)
  setTimeout(start, 3000) // a map whose tiles are all refused (on 127.0.0.1) loads none
}
