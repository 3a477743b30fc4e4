import 'leaflet/dist/leaflet.css'
import 'maplibre-gl/dist/maplibre-gl.css'
import * as L from 'leaflet'
import * as maplibregl from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import { setupTmapsWorker, type TmapsWorker } from '../../../src/runtimes/browser/index.ts'

/** What the page saw, read by the test with `page.evaluate(() => window.maps)`. */
export interface MapsState {
  /** The key in use; with `?worker=`, the one the page's mock created. */
  key: string
  /** Leaflet: `tileload` / `tileerror` events of the tile layer, and its `load` events. */
  tileload: number
  tileerror: number
  /** Leaflet's layer `load`, MapLibre's map `load`. */
  load: number
  /** MapLibre: `idle` events. */
  idle: number
  /** MapLibre: `error` events (message and HTTP status of an `AJAXError`). */
  errors: Array<{ message: string; status?: number }>
}

declare global {
  interface Window {
    maps: MapsState
    /** The service-worker mock, with `?worker=<domain>`. */
    tmaps?: TmapsWorker
  }
}

/**
 * `?lib=leaflet|maplibre` picks the docs' snippet; `?tiles=<origin>` where tiles are asked
 * (default `https://tiles.tmaps.tn`); `?key=<value>` the key, or `?worker=<domain>` starts the
 * mock's service worker with an empty console and one key linked to that domain.
 */
const params = new URLSearchParams(location.search)
const TILES = params.get('tiles') ?? 'https://tiles.tmaps.tn'
const maps: MapsState = {
  key: params.get('key') ?? '',
  tileload: 0,
  tileerror: 0,
  load: 0,
  idle: 0,
  errors: [],
}
window.maps = maps

const linked = params.get('worker')
if (linked !== null) {
  const tmaps = setupTmapsWorker({ state: 'empty', seed: 'maps-e2e' })
  await tmaps.start()
  maps.key = (await tmaps.console.createKey({ name: 'Web', domains: [linked] })).value
  window.tmaps = tmaps
}
const KEY = maps.key

if (params.get('lib') === 'leaflet') {
  // The TMaps docs' Leaflet snippet, unchanged but for the key (and the tile origin with ?tiles=).
  const map = L.map('map').setView([36.8002, 10.1815], 12)
  const layer = L.tileLayer(`${TILES}/r-tile/{z}/{x}/{y}?api_key=${KEY}`, {
    maxZoom: 18,
    attribution: '© TMaps',
  }).addTo(map)
  // Images load after this task: nothing is missed by listening now.
  layer.on('tileload', () => void maps.tileload++)
  layer.on('tileerror', () => void maps.tileerror++)
  layer.on('load', () => void maps.load++)
} else {
  // The ESM build loads its worker from a URL: the one Vite emitted.
  maplibregl.setWorkerUrl(workerUrl)
  // The TMaps docs' MapLibre raster-source snippet, unchanged but for the key.
  const map = new maplibregl.Map({
    container: 'map',
    center: [10.1815, 36.8002],
    zoom: 12,
    maxZoom: 18,
    style: {
      version: 8,
      sources: {
        'tmaps-raster': {
          type: 'raster',
          tiles: [`${TILES}/r-tile/{z}/{x}/{y}?api_key=${KEY}`],
          tileSize: 256,
        },
      },
      layers: [{ id: 'tmaps', type: 'raster', source: 'tmaps-raster' }],
    },
  })
  map.on('load', () => void maps.load++)
  map.on('idle', () => void maps.idle++)
  map.on('error', (event) => {
    const error = event.error as Error & { status?: number }
    maps.errors.push({ message: error.message, ...(error.status !== undefined && { status: error.status }) })
  })
}
