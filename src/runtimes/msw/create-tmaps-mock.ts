import type { HttpHandler } from 'msw'
import { createTmapsCore, type TmapsMockCore, type TmapsMockOptions } from '../../core/create-core.ts'
import { createHandlers } from './handlers.ts'

/**
 * The TMaps mock: the runtime-free core plus MSW handlers for every TMaps host.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { setupServer } from 'msw/node'
 * import { createTmapsMock, type TmapsMock } from 'tmaps-mock'
 *
 * const mock: TmapsMock = createTmapsMock({ state: 'empty' })
 * const server = setupServer(...mock.handlers) // or setupWorker, or your own msw setup
 * server.listen({ onUnhandledFrame: 'error' })
 * const response = await fetch('https://api.tmaps.tn/geocoding/forward?q=Sfax') // no api_key
 * server.close()
 * assert.equal(response.status, 401)
 * ```
 */
export interface TmapsMock extends TmapsMockCore {
  /** MSW handlers for `api` and `tiles`, on https and http. */
  readonly handlers: HttpHandler[]
}

/**
 * Creates an independent TMaps mock: its own store, console, usage, log and msw handlers.
 *
 * Options ({@link TmapsMockOptions}), all optional: `state` `'demo'` (or `'empty'`, or a
 * snapshot), `keys` none (keys added to every state loaded, e.g. your app's own), `seed` none
 * (random keys), `logSize` 500, `usageDays` 90, `now` the real clock,
 * `baseUrl` `https://api.tmaps.tn`, `tilesUrl` `https://tiles.tmaps.tn`, `renderer` in-thread.
 * They are validated at once; a bad one throws and says how to fix it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty', seed: 'my-tests' })
 * const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * const fromApp = await mock.fetch(
 *   new Request(url, { headers: { Origin: 'http://localhost:5173' } }),
 * )
 * const fromElsewhere = await mock.fetch(
 *   new Request(url, { headers: { Origin: 'https://other.tn' } }),
 * )
 * assert.equal(fromApp.status, 200)
 * assert.equal(fromElsewhere.status, 403)
 * ```
 */
export function createTmapsMock(options: TmapsMockOptions = {}): TmapsMock {
  const core = createTmapsCore(options)
  return { ...core, handlers: createHandlers(core) }
}
