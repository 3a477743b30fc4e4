import type { HttpHandler } from 'msw'
import type { SetupWorker, StartOptions } from 'msw/browser'
import type { TmapsMockCore } from '../../core/create-core.ts'
import { createHandlers } from '../msw/handlers.ts'
import { pageFacts } from './page-facts.ts'
import type { CallerPreset } from './reconstruct.ts'

/**
 * The msw handlers of a mock in a page's service worker: every request's `Origin` and `Referer`
 * rebuilt as the page would have sent them (`pageFacts`), or those of a simulated caller. The one
 * way a page runtime (`setupTmapsWorker`, the Storybook loader, the Vite plugin's page) hands a
 * request to the core.
 * @example setupWorker(...pageHandlers(core))
 */
export function pageHandlers(
  core: TmapsMockCore,
  caller: () => CallerPreset | null = () => null,
  hooks: { before?: () => Promise<void> } = {},
): HttpHandler[] {
  return createHandlers(core, pageFacts(caller), hooks)
}

/**
 * Starts msw's worker as every page runtime does: quiet, and requests to other hosts go to the
 * network (`{ quiet: true, onUnhandledFrame: 'bypass' }`), under the caller's `start` options.
 * @example
 * await startPageWorker(setupWorker(...pageHandlers(core)), {
 *   serviceWorker: { url: '/mockServiceWorker.js' },
 * })
 */
export async function startPageWorker(worker: SetupWorker, start?: StartOptions): Promise<void> {
  if (typeof addEventListener === 'function' && typeof location !== 'undefined') {
    const script = new URL(start?.serviceWorker?.url ?? '/mockServiceWorker.js', location.href).href
    addEventListener('unhandledrejection', (event) => ignoreUnregisteredUpdate(event, script))
  }
  await worker.start({ quiet: true, onUnhandledFrame: 'bypass', ...start })
}

/**
 * msw's `worker.start()` asks an existing registration to update without waiting for it; when the
 * page before this one was the worker's last client, the worker unregisters itself meanwhile and
 * that update fails ("Failed to update a ServiceWorker ... Not found") with no one to hear it. msw
 * registers again and the page comes under its control (Storybook's story after story, in one
 * tab): that failure, for msw's own script only, is noise kept out of the console and the page's
 * errors.
 */
function ignoreUnregisteredUpdate(event: PromiseRejectionEvent, script: string): void {
  const message = String((event.reason as { message?: unknown } | null)?.message ?? event.reason)
  if (
    message.startsWith('Failed to update a ServiceWorker') &&
    message.includes(`'${script}'`) &&
    message.endsWith('Not found')
  )
    event.preventDefault()
}
