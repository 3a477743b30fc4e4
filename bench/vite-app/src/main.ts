import 'leaflet/dist/leaflet.css'
import * as L from 'leaflet'

declare global {
  interface Window {
    /** Navigation start to the first answer read (a 401: the contract, no endpoint data). */
    firstAnswerMs?: number
    /** Navigation start to the app's geocode read (the geocoder's data loaded on the way). */
    firstGeocodeMs?: number
  }
}

/** TMaps, or with `vite.config.plain.ts` the dev server itself, which answers the same JSON. */
const api = import.meta.env.VITE_BENCH_API ?? 'https://api.tmaps.tn'
const path = '/geocoding/forward?q=Sfax'

/** Fetches once, reads the body, checks the status; the time since navigation start. */
async function timed(url: string, status: number): Promise<number> {
  const response = await fetch(url)
  await response.json()
  if (response.status !== status) throw new Error(`bench: expected ${status}, got ${response.status}`)
  return performance.now()
}

// An app with a map library in its graph, as the consumer app of test/consumer/vite-app has.
document.title = `Sfax on TMaps (Leaflet ${L.version})`
window.firstAnswerMs = await timed(`${api}${path}&api_key=ak_${'0'.repeat(32)}`, 401)
window.firstGeocodeMs = await timed(`${api}${path}&api_key=${import.meta.env.VITE_TMAPS_API_KEY}`, 200)
document.querySelector('#status')!.textContent = 'answered'
