import { CALLER_HEADER_NAME } from './page-facts.ts'
import { createTmapsWorker, type TmapsWorker, type TmapsWorkerOptions } from './worker.ts'

export type { TmapsRenderer } from '../../jobs/protocol.ts'
export { createWorkerRenderer } from '../../offload/renderer.ts'
export type { CallerPreset } from './reconstruct.ts'

/**
 * The request header that simulates a caller for one request (JSON of a `CallerPreset`).
 * @example
 * ```ts
 * import { CALLER_HEADER, setupTmapsWorker } from 'tmaps-mock/browser'
 *
 * const tmaps = setupTmapsWorker({ state: 'empty' })
 * await tmaps.start()
 * const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * const fromPage = await fetch(url)
 * const fromAnotherSite = await fetch(url, {
 *   headers: {
 *     [CALLER_HEADER]: JSON.stringify({ kind: 'site', origin: 'https://shop.example.tn' }),
 *   },
 * })
 * console.assert(fromPage.status === 200 && fromAnotherSite.status === 403)
 * tmaps.stop()
 * ```
 */
export const CALLER_HEADER = CALLER_HEADER_NAME

export type { TmapsWorker, TmapsWorkerOptions } from './worker.ts'

/**
 * The TMaps mock in the browser, in a service worker (msw's `setupWorker`).
 *
 * The browser adds `Origin` and `Referer` after the worker, so each request's headers are
 * rebuilt from what is visible (`mode`, `method`, `referrer`, `referrerPolicy`, the page's
 * location), and the log marks them as reconstructed. Serve the worker script with
 * `msw({ mode: 'worker-only' })` from `msw/vite`. Options: those of `createTmapsMock`, plus
 * `persist` (default: not kept) and `start` (default `{ quiet: true, onUnhandledFrame: 'bypass' }`).
 * @example
 * ```ts
 * import { setupTmapsWorker } from 'tmaps-mock/browser'
 *
 * // vite.config.ts serves msw's worker script: plugins: [msw({ mode: 'worker-only' })]
 * const tmaps = setupTmapsWorker({ state: 'empty' })
 * await tmaps.start()
 * const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
 * const response = await fetch(
 *   `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`,
 * )
 * console.assert(response.status === 200, `expected 200, got ${response.status}`)
 * console.assert(tmaps.log.entries()[0]?.facts.reconstructed === true) // Origin: the page's
 * tmaps.stop()
 * ```
 */
export function setupTmapsWorker(options: TmapsWorkerOptions = {}): TmapsWorker {
  return createTmapsWorker(options)
}
