import { beforeAll, describe, expect, it } from 'vitest'
import { createTmapsMock, type TmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { nodeRuntimes } from './support/runtimes.ts'

const runtimes = nodeRuntimes()
const KEY = `ak_${'5a'.repeat(16)}`
const OK = { results: true }
/** A nearby answer: the query echoed as an object, and places. */
const PLACES = { places: true }
/** Any 200 answer of a routing endpoint. */
const ROUTED = { routed: true }
const UNAUTHORIZED = { error: 'missing api_key' }
const FORBIDDEN = { error: 'domain not authorized' }
const NOT_FOUND = { error: 'not found' }
const API = 'https://api.tmaps.tn'
const q = `${API}/geocoding/forward?q=Tunis&limit=1`

const post = (body: string): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'Content-Type': 'application/json' },
})

interface Case {
  name: string
  url: string
  init?: RequestInit
  status: number
  /**
   * The exact JSON body, `OK` for a geocoding answer, `PLACES` for nearby places, `ROUTED` for a routing
   * answer.
   */
  body: Record<string, unknown> | null
}

/** Each hostile input with its documented outcome (docs/contract.md, "Hostile inputs"). */
// biome-ignore format: a table reads best with one case a line
const CASES: Case[] = [
  // The key
  { name: 'api_key given twice', url: `${q}&api_key=${KEY}&api_key=${KEY}`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key empty', url: `${q}&api_key=`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key without "="', url: `${q}&api_key`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key in upper case', url: `${q}&api_key=${KEY.toUpperCase()}`, status: 401, body: UNAUTHORIZED },
  { name: 'API_KEY as the parameter name', url: `${q}&API_KEY=${KEY}`, status: 401, body: UNAUTHORIZED },
  { name: 'apikey as the parameter name', url: `${q}&apikey=${KEY}`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key with a trailing space', url: `${q}&api_key=${KEY}%20`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key with a NUL byte', url: `${q}&api_key=${KEY}%00`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key of 10,000 characters', url: `${q}&api_key=ak_${'a'.repeat(10_000)}`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key with a Cyrillic homoglyph', url: `${q}&api_key=${KEY.replace('a', 'а')}`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key only in the fragment', url: `${q}#api_key=${KEY}`, status: 401, body: UNAUTHORIZED },
  { name: 'api_key percent-encoded', url: `${q}&api_key=ak%5F${KEY.slice(3)}`, status: 200, body: OK },
  { name: 'empty pairs around the key', url: `${API}/geocoding/forward?&&q=Tunis&&api_key=${KEY}&&`, status: 200, body: OK },
  { name: 'Authorization: Bearer with a valid key', url: q, init: { headers: { Authorization: `Bearer ${KEY}` } }, status: 401, body: UNAUTHORIZED },
  { name: 'X-Api-Key header with a valid key', url: q, init: { headers: { 'X-Api-Key': KEY } }, status: 401, body: UNAUTHORIZED },
  { name: 'plain HTTP with a valid key', url: `http://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=${KEY}`, status: 403, body: FORBIDDEN },
  // Origin and Referer
  { name: 'Origin: null', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'null' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin: empty', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: '' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin in upper case', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'HTTP://LOCALHOST:5173' } }, status: 200, body: OK },
  { name: 'Origin with a trailing dot', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'http://localhost.' } }, status: 200, body: OK },
  { name: 'Origin with spaces around it (Fetch trims them)', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: '  http://localhost  ' } }, status: 200, body: OK },
  { name: 'Origin with an impossible port', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'http://localhost:99999' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin IPv6 literal, linked', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'http://[::1]:3000' } }, status: 200, body: OK },
  { name: 'Origin IPv6 literal, expanded form', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'http://[0:0:0:0:0:0:0:1]' } }, status: 200, body: OK },
  { name: 'Origin IPv6 literal, unclosed', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'http://[::1' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin IDN in punycode, linked as Unicode', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'https://xn--mller-kva.tn' } }, status: 200, body: OK },
  { name: 'Origin that starts with a linked host', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'https://localhost.evil.tn' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin that ends with a linked host', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'https://evillocalhost' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin with the linked host as user info', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'https://localhost@evil.tn' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin with the linked host in its path', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'https://evil.tn/localhost' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin file://', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'file://' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin of a browser extension', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'chrome-extension://abcdef' } }, status: 403, body: FORBIDDEN },
  { name: 'Origin of 8,000 characters', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: `https://${'a'.repeat(8000)}.tn` } }, status: 403, body: FORBIDDEN },
  { name: 'Referer with the linked host in its query', url: `${q}&api_key=${KEY}`, init: { headers: { Referer: 'https://evil.tn/?next=http://localhost' } }, status: 403, body: FORBIDDEN },
  { name: 'Referer of a linked page with a path', url: `${q}&api_key=${KEY}`, init: { headers: { Referer: 'http://localhost:8080/maps/index.html?x=1' } }, status: 200, body: OK },
  { name: 'Referer that is not a URL', url: `${q}&api_key=${KEY}`, init: { headers: { Referer: 'localhost' } }, status: 403, body: FORBIDDEN },
  { name: 'foreign Origin with a linked Referer', url: `${q}&api_key=${KEY}`, init: { headers: { Origin: 'https://evil.tn', Referer: 'http://localhost/' } }, status: 403, body: FORBIDDEN },
  // Paths and methods
  { name: 'dot segments in the path', url: `${API}/geocoding/../geocoding/forward?q=Tunis&api_key=${KEY}`, status: 200, body: OK },
  { name: 'a trailing slash', url: `${API}/geocoding/forward/?q=Tunis&api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'the path in upper case', url: `${API}/GEOCODING/FORWARD?q=Tunis&api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'a double slash', url: `${API}//geocoding/forward?q=Tunis&api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'a matrix parameter', url: `${API}/geocoding/forward;v=1?q=Tunis&api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'an encoded slash', url: `${API}/geocoding%2Fforward?q=Tunis&api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'a version segment', url: `${API}/v1/geocoding/forward?q=Tunis&api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'PUT on a GET endpoint', url: `${q}&api_key=${KEY}`, init: { method: 'PUT', body: '{}' }, status: 404, body: NOT_FOUND },
  { name: 'DELETE on a GET endpoint', url: `${q}&api_key=${KEY}`, init: { method: 'DELETE' }, status: 404, body: NOT_FOUND },
  { name: 'the API root', url: `${API}/?api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: 'a tile path on the API host', url: `${API}/r-tile/1/0/0?api_key=${KEY}`, status: 404, body: NOT_FOUND },
  // Parameters
  { name: 'q given twice', url: `${API}/geocoding/forward?q=a&q=b&api_key=${KEY}`, status: 400, body: { error: 'invalid param: q' } },
  { name: 'q with a broken percent escape', url: `${API}/geocoding/forward?q=%ZZ&api_key=${KEY}`, status: 200, body: OK },
  { name: 'q of emoji only', url: `${API}/geocoding/forward?q=${encodeURIComponent('🗺️🇹🇳')}&api_key=${KEY}`, status: 200, body: OK },
  { name: 'q with a newline and a tab', url: `${API}/geocoding/forward?q=Tunis%0A%09Sfax&api_key=${KEY}`, status: 200, body: OK },
  { name: 'q of 257 characters', url: `${API}/geocoding/forward?q=${'x'.repeat(257)}&api_key=${KEY}`, status: 400, body: { error: 'invalid param: q' } },
  { name: 'limit negative', url: `${q.replace('limit=1', 'limit=-1')}&api_key=${KEY}`, status: 400, body: { error: 'invalid param: limit' } },
  { name: 'limit in exponent form', url: `${q.replace('limit=1', 'limit=1e1')}&api_key=${KEY}`, status: 400, body: { error: 'invalid param: limit' } },
  { name: 'limit with leading zeros', url: `${q.replace('limit=1', 'limit=0005')}&api_key=${KEY}`, status: 200, body: OK },
  { name: 'proximity NaN,NaN', url: `${q}&proximity=NaN,NaN&api_key=${KEY}`, status: 400, body: { error: 'invalid param: proximity' } },
  { name: 'bbox with Infinity', url: `${q}&bbox=Infinity,0,1,1&api_key=${KEY}`, status: 400, body: { error: 'invalid param: bbox' } },
  { name: 'nearby radius in exponent form', url: `${API}/geocoding/nearby?lat=36.8&lng=10.18&radius=1e4&api_key=${KEY}`, status: 400, body: { error: 'invalid param: radius' } },
  { name: 'nearby with the docs example categories restaurant,cafe,bakery', url: `${API}/geocoding/nearby?lat=36.8&lng=10.18&radius=500&categories=restaurant,cafe,bakery&api_key=${KEY}`, status: 200, body: PLACES },
  { name: 'nearby with a category the docs never name', url: `${API}/geocoding/nearby?lat=36.8&lng=10.18&radius=500&categories=restaurant,supermarket&api_key=${KEY}`, status: 400, body: { error: 'invalid param: categories' } },
  { name: 'directions with spaces after the comma', url: `${API}/routing/direction?from=36.8,%2010.18&to=36.85,%2010.33&api_key=${KEY}`, status: 200, body: ROUTED },
  { name: 'directions between identical points', url: `${API}/routing/direction?from=36.8,10.18&to=36.8,10.18&steps=true&api_key=${KEY}`, status: 200, body: ROUTED },
  { name: 'directions with steps=TRUE', url: `${API}/routing/direction?from=36.8,10.18&to=36.85,10.33&steps=TRUE&api_key=${KEY}`, status: 200, body: ROUTED },
  { name: 'directions with steps=1', url: `${API}/routing/direction?from=36.8,10.18&to=36.85,10.33&steps=1&api_key=${KEY}`, status: 400, body: { error: 'invalid param: steps' } },
  // POST bodies
  { name: 'POST body that is not JSON', url: `${API}/routing/direction?api_key=${KEY}`, init: post('waypoints=1'), status: 400, body: { error: 'invalid param: body' } },
  { name: 'POST body empty', url: `${API}/routing/direction?api_key=${KEY}`, init: post(''), status: 400, body: { error: 'invalid param: body' } },
  { name: 'POST body a JSON array', url: `${API}/routing/direction?api_key=${KEY}`, init: post('[{"lat":36.8,"lng":10.18}]'), status: 400, body: { error: 'invalid param: body' } },
  { name: 'POST body JSON null', url: `${API}/routing/optimized?api_key=${KEY}`, init: post('null'), status: 400, body: { error: 'invalid param: body' } },
  { name: 'POST body with a UTF-8 BOM (Fetch strips it)', url: `${API}/routing/direction?api_key=${KEY}`, init: post(`\uFEFF${JSON.stringify({ waypoints: [{ lat: 36.8, lng: 10.18 }, { lat: 36.85, lng: 10.33 }] })}`), status: 200, body: ROUTED },
  { name: 'POST body sent as text/plain', url: `${API}/routing/direction?api_key=${KEY}`, init: { method: 'POST', body: JSON.stringify({ waypoints: [{ lat: 36.8, lng: 10.18 }, { lat: 36.85, lng: 10.33 }] }) }, status: 200, body: ROUTED },
  { name: 'POST __proto__ in the body', url: `${API}/routing/direction?api_key=${KEY}`, init: post('{"__proto__":{"profile":"walking"},"waypoints":[{"lat":36.8,"lng":10.18},{"lat":36.85,"lng":10.33}]}'), status: 200, body: ROUTED },
  { name: 'POST arrays nested 100,000 deep', url: `${API}/distance-matrix?api_key=${KEY}`, init: post(`{"origins":${'['.repeat(100_000)}${']'.repeat(100_000)},"destinations":[]}`), status: 400, body: { error: 'invalid param: body (nested deeper than 64 levels)' } },
  { name: 'POST 100,000 waypoints', url: `${API}/routing/direction?api_key=${KEY}`, init: post(JSON.stringify({ waypoints: Array.from({ length: 100_000 }, () => ({ lat: 36.8, lng: 10.18 })) })), status: 400, body: { error: 'invalid param: waypoints' } },
  { name: 'POST coordinates as strings', url: `${API}/routing/direction?api_key=${KEY}`, init: post('{"waypoints":[{"lat":"36.8","lng":"10.18"},{"lat":36.85,"lng":10.33}]}'), status: 400, body: { error: 'invalid param: waypoints' } },
  { name: 'POST a number too big for a double', url: `${API}/routing/isochrone?api_key=${KEY}`, init: post('{"origin":{"lat":36.8,"lng":10.18},"contours":[{"time":1e400}]}'), status: 400, body: { error: 'invalid param: contours' } },
  { name: 'POST to a GET endpoint', url: `${API}/geocoding/nearby?lat=36.8&lng=10.18&radius=100&api_key=${KEY}`, init: post('{}'), status: 404, body: NOT_FOUND },
  { name: 'GET on a POST endpoint', url: `${API}/routing/optimized?api_key=${KEY}`, status: 404, body: NOT_FOUND },
  { name: '1,000 unrelated parameters', url: `${q}&api_key=${KEY}&${Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&')}`, status: 200, body: OK },
  { name: '100 custom headers', url: `${q}&api_key=${KEY}`, init: { headers: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, 'v'])) }, status: 200, body: OK },
]

describe.each(runtimes)('hostile inputs through $name', (runtime) => {
  let mock: TmapsMock
  beforeAll(async () => {
    mock = createTmapsMock({ state: 'empty' })
    await mock.ready
    await mock.console.createKey({ name: 'Web', value: KEY, domains: ['localhost', '::1', 'müller.tn'] })
  })

  it('has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40)
  })

  it.each(CASES)('$name -> $status', async ({ url, init, status, body }) => {
    const response = await runtime.send(mock, url, init)
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toBe('application/json')
    const json = await response.json()
    if (body === OK) {
      expect(json).toEqual({ query: expect.any(String), results: expect.any(Array) })
    } else if (body === PLACES) {
      expect(json).toEqual({
        query: expect.objectContaining({ lat: expect.any(Number) }),
        results: expect.any(Array),
      })
      expect(json.results.length).toBeGreaterThan(0)
    } else if (body === ROUTED) {
      expect(json).toMatchObject({
        distance: expect.any(Number),
        duration: expect.any(Number),
        legs: expect.any(Array),
      })
    } else {
      expect(json).toEqual(body)
    }
  })

  it('never answered 5xx nor logged an internal error', () => {
    expect(mock.log.entries().filter((e) => e.status >= 500)).toEqual([])
  })
})
