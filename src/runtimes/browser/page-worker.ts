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
  await worker.start({ quiet: true, onUnhandledFrame: 'bypass', ...start })
}
