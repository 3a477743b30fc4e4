import { maskSecrets } from '../contract/key-format.ts'
import { ENDPOINTS } from './registry.ts'
/**
 * The query parameters each operation reads, by `METHOD path` (`api_key` on every one), from the
 * endpoints' definitions (registry.ts): what the OpenAPI document declares (test/openapi.test.ts
 * holds the two equal). Anything else in a query is ignored, and the log entry says so, so a
 * client's typo or misplaced option is visible.
 */
export const QUERY_PARAMS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e.query]),
)

/**
 * What the log says of the query parameters an operation ignores: none (`undefined`), or one warning.
 * @example
 * ignoredParams('POST', '/routing/direction', new URLSearchParams('profile=walking'))
 * // ['ignored in the query of a POST: profile (options go in the JSON body)']
 */
export function ignoredParams(method: string, path: string, query: URLSearchParams): string[] | undefined {
  const known = QUERY_PARAMS[`${method} ${path}`]
  if (!known) return undefined
  const ignored = [...new Set(query.keys())].filter((name) => !known.includes(name))
  if (ignored.length === 0) return undefined
  // A parameter's name is the client's text: a key pasted there is masked, as in the query.
  const names = maskSecrets(ignored.join(', '))
  if (method === 'POST') return [`ignored in the query of a POST: ${names} (options go in the JSON body)`]
  const hint =
    path === '/routing/direction' && ignored.includes('lang') ? ' (directions name it language)' : ''
  return [`ignored, not parameters of ${method} ${path}: ${names}${hint}`]
}
