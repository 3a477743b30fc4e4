import { type HttpHandler, http } from 'msw'
import type { FetchOptions, TmapsMockCore } from '../../core/create-core.ts'

/** Rebuilds the contract facts of a request the runtime cannot see whole (the service worker). */
export type FactsResolver = (request: Request) => FetchOptions['facts']

/**
 * MSW handlers for both TMaps hosts, on https and on http (so plain HTTP gets its 403).
 * Every request goes through the one contract pipeline, `core.fetch`; `before` runs first
 * (the browser runtime catches up with other tabs there).
 * @example setupServer(...createHandlers(core))
 */
export function createHandlers(
  core: TmapsMockCore,
  resolveFacts?: FactsResolver,
  { before }: { before?: () => Promise<void> } = {},
): HttpHandler[] {
  const origins = new Set<string>()
  for (const base of [core.options.baseUrl, core.options.tilesUrl]) {
    const { host } = new URL(base)
    origins.add(`https://${host}`)
    origins.add(`http://${host}`)
  }
  return [...origins].map((origin) =>
    http.all(`${origin}/*`, async ({ request }) => {
      await before?.()
      const facts = resolveFacts?.(request)
      return core.fetch(request, facts ? { facts } : undefined)
    }),
  )
}
