import { maskSecrets } from '../contract/key-format.ts'
/**
 * The query parameters each operation reads, by `METHOD path` (`api_key` on every one): what the
 * OpenAPI document declares (test/openapi.test.ts holds the two equal). Anything else in a query
 * is ignored, and the log entry says so, so a client's typo or misplaced option is visible.
 */
// biome-ignore format: a table reads best with one operation a line
export const QUERY_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'GET /geocoding/forward': ['api_key', 'q', 'country', 'limit', 'lang', 'proximity', 'bbox', 'type'],
  'GET /geocoding/reverse': ['api_key', 'lat', 'lng', 'lang', 'type', 'limit'],
  'GET /geocoding/nearby': ['api_key', 'lat', 'lng', 'radius', 'categories', 'q', 'limit', 'lang'],
  'GET /routing/direction': ['api_key', 'from', 'to', 'profile', 'geometry', 'steps', 'alternatives', 'avoid', 'language'],
  'POST /routing/direction': ['api_key'],
  'POST /routing/optimized': ['api_key'],
  'POST /routing/isochrone': ['api_key'],
  'POST /distance-matrix': ['api_key'],
  'GET /maps/static': ['api_key', 'center', 'zoom', 'bbox', 'size', 'style', 'format', 'marker', 'path', 'polygon'],
  'GET /r-tile/:z/:x/:y': ['api_key'],
}

/**
 * What the log says of the query parameters an operation ignores: none (`undefined`), or one warning.
 * @example ignoredParams('POST', '/routing/direction', new URLSearchParams('profile=walking')) // ['ignored in the query of a POST: profile (options go in the JSON body)']
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
