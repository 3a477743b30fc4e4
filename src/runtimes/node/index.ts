import { type SetupServer, setupServer } from 'msw/node'
import { createCore, type TmapsMockOptions } from '../../core/create-core.ts'
import { sharedRenderPool } from '../../offload/render-pool.ts'
import { createTestSource, type TmapsRecordOptions } from '../../upstream/test-recording.ts'
import type { TmapsUpstream } from '../../upstream/upstream-options.ts'
import type { TmapsMock } from '../msw/create-tmaps-mock.ts'
import { createHandlers } from '../msw/handlers.ts'
import { assertNodeVersion } from './node-version.ts'

export { createRenderPool, type RenderPool, type RenderPoolOptions } from '../../offload/render-pool.ts'
export type { TmapsRecordOptions } from '../../upstream/test-recording.ts'
export type { TmapsUpstream } from '../../upstream/upstream-options.ts'

/**
 * The options of `setupTmapsNode`: those of `createTmapsMock`, plus `upstream` and `record`.
 *
 * `upstream` is the real TMaps to forward to, `record` the HAR to replay from and record to
 * (docs/upstream.md, "Record from tests").
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsNodeOptions } from 'tmaps-mock/node'
 *
 * const options: TmapsNodeOptions = {
 *   state: 'empty',
 *   upstream: { key: process.env.TMAPS_KEY }, // no key (CI): the recording is replayed
 *   record: { har: 'test/recordings/search.har' }, // mode 'missing': record what it lacks
 * }
 * assert.equal(options.record?.mode, undefined)
 * ```
 */
export interface TmapsNodeOptions extends TmapsMockOptions {
  /**
   * The real TMaps: each request the contract accepts is forwarded with the real key in place of
   * the local one (recorded, with `record`). Alone: every such request goes to TMaps.
   */
  upstream?: TmapsUpstream
  /** A HAR file to replay from and record to as the tests run (with `upstream`'s key). */
  record?: TmapsRecordOptions
}

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
export function setupTmapsNode(options: TmapsNodeOptions = {}): { server: SetupServer; mock: TmapsMock } {
  assertNodeVersion('setupTmapsNode')
  const { upstream, record, ...mockOptions } = options
  if ((upstream !== undefined || record !== undefined) && mockOptions.replay !== undefined)
    throw new TypeError(
      'Failed to set up setupTmapsNode: give replay, or upstream and record, not both (record replays its own file).',
    )
  let core: TmapsMock | undefined
  const source = createTestSource(
    { ...(upstream && { upstream }), ...(record && { record }) },
    {
      who: 'set up setupTmapsNode',
      throughMsw: true,
      keyName: (id) => (id === null ? null : (core?.console.getKey({ id })?.name ?? null)),
    },
  )
  // Pictures and heavy JSON are made in the process's render pool, unless `renderer` says otherwise.
  const made = createCore({ renderer: sharedRenderPool(), ...mockOptions }, source && { source })
  core = { ...made, handlers: createHandlers(made) }
  const server = setupServer(...core.handlers)
  if (source !== undefined) {
    // The forwarder's connections to TMaps end with the interception.
    const close = server.close.bind(server)
    server.close = () => {
      source.close()
      close()
    }
  }
  return { server, mock: core }
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
