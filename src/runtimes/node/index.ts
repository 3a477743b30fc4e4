import { type SetupServer, setupServer } from 'msw/node'
import type { TmapsMockOptions } from '../../core/create-core.ts'
import { sharedRenderPool } from '../../offload/render-pool.ts'
import { createTmapsMock, type TmapsMock } from '../msw/create-tmaps-mock.ts'
import { assertNodeVersion } from './node-version.ts'

export { createRenderPool, type RenderPool, type RenderPoolOptions } from '../../offload/render-pool.ts'

/**
 * msw's `setupServer` with a fresh TMaps mock's handlers, for Node tests.
 *
 * Takes the options of `createTmapsMock` (default: the demo console). Call `server.listen()` yourself (e.g.
 * in `beforeAll`), as with any msw server. Requests carry no `Origin` in Node unless you send one, so they
 * are decided as a server's. Tiles, static maps, routes and long geocodes are made in a pool of render
 * processes shared by the process (started on the first of them), so a costly picture or route never holds up
 * the other answers. On a Node older than msw 3 needs (22.12) it throws at once and says how to fix it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { setupTmapsNode } from 'tmaps-mock/node'
 *
 * const { server, mock } = setupTmapsNode({ state: 'empty' })
 * server.listen({ onUnhandledFrame: 'error' }) // in a test file: in beforeAll
 * const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * // Node sends no Origin: send the one your browser app would, to have the domains checked.
 * const response = await fetch(url, { headers: { Origin: 'http://localhost:5173' } })
 * server.close() // afterAll(() => server.close())
 * assert.equal(response.status, 200)
 * ```
 */
export function setupTmapsNode(options?: TmapsMockOptions): { server: SetupServer; mock: TmapsMock } {
  assertNodeVersion('setupTmapsNode')
  // Pictures and heavy JSON are made in the process's render pool, unless `renderer` says otherwise.
  const mock = createTmapsMock({ renderer: sharedRenderPool(), ...options })
  return { server: setupServer(...mock.handlers), mock }
}

/**
 * The old name of {@link setupTmapsNode}.
 * @deprecated Renamed {@link setupTmapsNode} in 0.2.0 (it starts no server: it is msw's
 * `setupServer`, which intercepts this process's requests). This alias goes in 0.3.0.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { setupTmapsNode, setupTmapsServer } from 'tmaps-mock/node'
 *
 * assert.equal(setupTmapsServer, setupTmapsNode) // the same function: use setupTmapsNode
 * ```
 */
export const setupTmapsServer: typeof setupTmapsNode = setupTmapsNode
