import type { HttpHandler } from 'msw'
import { createTmapsCore, type TmapsMockCore, type TmapsMockOptions } from '../../core/create-core.ts'
import { createHandlers } from './handlers.ts'

/** The TMaps mock: the runtime-free core plus MSW handlers for every TMaps host. */
export interface TmapsMock extends TmapsMockCore {
  /** MSW handlers for `api` and `tiles`, on https and http. */
  readonly handlers: HttpHandler[]
}

/**
 * Creates an independent TMaps mock: its own store, console, usage, log and handlers.
 * Options are validated at once; a bad one throws and says how to fix it.
 * @example
 * const mock = createTmapsMock({ state: 'empty', seed: 'test' })
 * const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 */
export function createTmapsMock(options: TmapsMockOptions = {}): TmapsMock {
  const core = createTmapsCore(options)
  return Object.assign(core, { handlers: createHandlers(core) })
}
