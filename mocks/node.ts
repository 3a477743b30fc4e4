import { type SetupServer, setupServer } from 'msw/node'
import type { TmapsMockOptions } from '../src/core/create-core.ts'
import { createTmapsMock, type TmapsMock } from './create-tmaps-mock.ts'
import { assertNodeVersion } from './node-version.ts'

/**
 * msw's `setupServer` with a fresh TMaps mock's handlers, for Node tests.
 * Call `server.listen()` yourself (e.g. in `beforeAll`), as with any msw server. On a Node older
 * than msw 3 needs (22.12) it throws at once and says how to fix it.
 * @example
 * const { server, mock } = setupTmapsServer({ state: 'empty' })
 * server.listen({ onUnhandledFrame: 'error' })
 */
export function setupTmapsServer(options?: TmapsMockOptions): { server: SetupServer; mock: TmapsMock } {
  assertNodeVersion('setupTmapsServer')
  const mock = createTmapsMock(options)
  return { server: setupServer(...mock.handlers), mock }
}
