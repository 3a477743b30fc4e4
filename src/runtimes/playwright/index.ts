import { getResponse } from 'msw'
import type { TmapsMock } from '../msw/create-tmaps-mock.ts'

/**
 * The parts of a Playwright `Route` the adapter uses (so any Playwright package fits). `F` is
 * the package's own `fulfill` options type, inferred from the page or context you pass.
 */
interface RouteLike<F> {
  request(): {
    url(): string
    method(): string
    allHeaders(): Promise<Record<string, string>>
    postDataBuffer(): Uint8Array | null
  }
  fulfill(options: F): Promise<void>
  fallback(): Promise<void>
}

/** A Playwright `Page` or `BrowserContext`. */
export interface RoutableTarget<F = unknown> {
  route(url: string, handler: (route: RouteLike<F>) => Promise<void>): Promise<unknown>
  unroute(url: string, handler?: (route: RouteLike<F>) => Promise<void>): Promise<unknown>
}

/**
 * Routes the TMaps hosts (API and tiles, https and http) of a Playwright page or context
 * through the mock, with the real `Origin` and `Referer` the real browser sent. Resolves to the
 * function that removes the routes.
 * @example const mock = createTmapsMock(); const unroute = await routeTmaps(page, mock)
 */
export async function routeTmaps<F>(
  target: RoutableTarget<F>,
  mock: TmapsMock,
): Promise<() => Promise<void>> {
  const handler = async (route: RouteLike<F>) => {
    const request = route.request()
    const method = request.method()
    const body = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer()
    const response = await getResponse(
      mock.handlers,
      new Request(request.url(), {
        method,
        // HTTP/2 pseudo-headers (:authority, ...) are not headers a Request can carry.
        headers: Object.entries(await request.allHeaders()).filter(([name]) => !name.startsWith(':')),
        ...(body && { body: new Uint8Array(body) }),
      }),
    )
    if (!response) return route.fallback()
    // A Buffer: Playwright would re-encode a string as UTF-8, which breaks a PNG.
    await route.fulfill({
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: Buffer.from(await response.arrayBuffer()),
    } as F)
  }
  const patterns = [mock.options.baseUrl, mock.options.tilesUrl].flatMap((base) => {
    const { host } = new URL(base)
    return [`https://${host}/**`, `http://${host}/**`]
  })
  const unique = [...new Set(patterns)]
  for (const pattern of unique) await target.route(pattern, handler)
  return async () => {
    for (const pattern of unique) await target.unroute(pattern, handler)
  }
}
