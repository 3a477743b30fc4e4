import { getResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll } from 'vitest'
import type { TmapsMock } from '../../mocks/create-tmaps-mock.ts'

/** One way of delivering a request to the mock, as a user of that runtime would. */
export interface Runtime {
  name: string
  send(mock: TmapsMock, url: string, init?: RequestInit): Promise<Response>
}

/**
 * The Node runtimes of the contract matrix: msw's `setupServer` with real `fetch` (undici
 * through msw's socket interceptor) and msw's `getResponse` (no interception). Call once per
 * test file, at top level.
 */
export function nodeRuntimes(): Runtime[] {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())
  return [
    {
      name: 'setupServer + fetch',
      send(mock, url, init) {
        server.resetHandlers(...mock.handlers)
        return fetch(url, init)
      },
    },
    {
      name: 'getResponse',
      async send(mock, url, init) {
        const response = await getResponse(mock.handlers, new Request(url, init))
        if (!response) throw new Error(`No handler answered ${url}`)
        return response
      },
    },
  ]
}
