import { type SetupServer, setupServer } from 'msw/node'
import type { TmapsMockOptions } from '../../core/create-core.ts'
import { createTmapsMock, type TmapsMock } from '../msw/create-tmaps-mock.ts'
import { assertNodeVersion } from './node-version.ts'

/**
 * msw's `setupServer` with a fresh TMaps mock's handlers, for Node tests.
 * Call `server.listen()` yourself (e.g. in `beforeAll`), as with any msw server. On a Node older
 * than msw 3 needs (22.12) it throws at once and says how to fix it.
 * @example
 * const { server, mock } = setupTmapsNode({ state: 'empty' })
 * server.listen({ onUnhandledFrame: 'error' })
 */
export function setupTmapsNode(options?: TmapsMockOptions): { server: SetupServer; mock: TmapsMock } {
  assertNodeVersion('setupTmapsNode')
  const mock = createTmapsMock(options)
  return { server: setupServer(...mock.handlers), mock }
}

/**
 * @deprecated Renamed {@link setupTmapsNode} in 0.2.0 (it starts no server: it is msw's
 * `setupServer`, which intercepts this process's requests). This alias goes in 0.3.0.
 */
export const setupTmapsServer: typeof setupTmapsNode = setupTmapsNode
