import { type SetupServer, setupServer } from 'msw/node'
import type { TmapsMockOptions } from '../src/core/create-core.ts'
import { createTmapsMock, type TmapsMock } from './create-tmaps-mock.ts'

/**
 * msw's `setupServer` with a fresh TMaps mock's handlers, for Node tests.
 * Call `server.listen()` yourself (e.g. in `beforeAll`), as with any msw server.
 * @example
 * const { server, mock } = setupTmapsServer({ state: 'empty' })
 * server.listen({ onUnhandledFrame: 'error' })
 */
export function setupTmapsServer(options?: TmapsMockOptions): { server: SetupServer; mock: TmapsMock } {
  const mock = createTmapsMock(options)
  return { server: setupServer(...mock.handlers), mock }
}
