/**
 * `tmaps-mock verify`'s probe set: for every endpoint and method the TMaps docs' own example,
 * then one invalid parameter (400), no key (401, on the API and on a tile), and, with
 * `--origin`, a foreign `Origin` (403). At most 40 requests; each names its source.
 *
 * No probe sends the key over plain HTTP (the contract's other 403): that would put a real key
 * on the wire in clear.
 */
export interface Probe {
  id: string
  /** The endpoint's name, as `--only` takes it (`geocoding/forward`, `r-tile`). */
  endpoint: string
  method: 'GET' | 'POST'
  host: 'api' | 'tiles'
  /** Path and query, without `api_key`. */
  path: string
  body?: unknown
  /** `none`: no `api_key` at all. */
  key: 'real' | 'none'
  /** `app`: the `--origin` given; `foreign`: an origin no key lists. Only with `--origin`. */
  origin?: 'app' | 'foreign'
  /** A PNG of this size is expected. */
  picture?: { width: number; height: number }
  /** Where the request comes from (the docs' page, or what it checks). */
  source: string
}

/** A foreign origin for the 403 probe: `.invalid` can never be a real site (RFC 6761). */
export const FOREIGN_ORIGIN = 'https://verify.tmaps-mock.invalid'
/** The most requests one run sends (each may be retried once after a 429). */
export const MAX_PROBES = 40

const q = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`

/** Every probe but the foreign origin's, as sent without `--origin`. */
const PROBES: readonly Probe[] = [
  {
    id: 'forward-example',
    endpoint: 'geocoding/forward',
    method: 'GET',
    host: 'api',
    path: `/geocoding/forward${q({ q: 'Avenue Habib Bourguiba, Tunis', country: 'TN', limit: 3, lang: 'en' })}`,
    key: 'real',
    source: 'docs: geocoding/forward example',
  },
  {
    id: 'reverse-example',
    endpoint: 'geocoding/reverse',
    method: 'GET',
    host: 'api',
    path: `/geocoding/reverse${q({ lat: 36.8002, lng: 10.1815, lang: 'en' })}`,
    key: 'real',
    source: 'docs: geocoding/reverse sample request',
  },
  {
    id: 'nearby-example',
    endpoint: 'geocoding/nearby',
    method: 'GET',
    host: 'api',
    path: `/geocoding/nearby${q({ lat: 36.8002, lng: 10.1815, radius: 1500, categories: 'pharmacy,hospital', limit: 10 })}`,
    key: 'real',
    source: 'docs: geocoding/nearby sample request',
  },
  {
    id: 'direction-get-example',
    endpoint: 'routing/direction',
    method: 'GET',
    host: 'api',
    path: `/routing/direction${q({ from: '36.8002,10.1815', to: '36.8528,10.3261', profile: 'driving' })}`,
    key: 'real',
    source: 'docs: routing/direction GET example',
  },
  {
    id: 'direction-post-example',
    endpoint: 'routing/direction',
    method: 'POST',
    host: 'api',
    path: '/routing/direction',
    body: {
      waypoints: [
        { lat: 36.7992, lng: 10.1709 },
        { lat: 36.8094, lng: 10.14 },
        { lat: 36.8528, lng: 10.3261 },
      ],
      profile: 'driving',
      steps: true,
      geometry: 'geojson',
    },
    key: 'real',
    source: 'docs: routing/direction POST example',
  },
  {
    id: 'optimized-example',
    endpoint: 'routing/optimized',
    method: 'POST',
    host: 'api',
    path: '/routing/optimized',
    body: {
      origin: { lat: 36.8355, lng: 10.2261 },
      waypoints: [
        { lat: 36.8485, lng: 10.1712 },
        { lat: 36.8644, lng: 10.1808 },
        { lat: 36.8664, lng: 10.1938 },
        { lat: 36.8779, lng: 10.2024 },
      ],
      profile: 'driving',
      optimize: 'duration',
      roundtrip: true,
    },
    key: 'real',
    source: 'docs: routing/optimized example body',
  },
  {
    id: 'isochrone-example',
    endpoint: 'routing/isochrone',
    method: 'POST',
    host: 'api',
    path: '/routing/isochrone',
    body: { origin: { lat: 36.8002, lng: 10.1815 }, contours: [{ time: 15 }], profile: 'driving' },
    key: 'real',
    source: 'docs: routing/isochrone 15-minute example',
  },
  {
    id: 'distance-matrix-example',
    endpoint: 'distance-matrix',
    method: 'POST',
    host: 'api',
    path: '/distance-matrix',
    body: {
      origins: [
        { lat: 36.828, lng: 10.21 },
        { lat: 36.845, lng: 10.185 },
        { lat: 36.8094, lng: 10.14 },
      ],
      destinations: [{ lat: 36.8, lng: 10.1815 }],
      profile: 'driving',
    },
    key: 'real',
    source: 'docs: distance-matrix "nearest ambulance" example',
  },
  {
    id: 'static-map-example',
    endpoint: 'maps/static',
    method: 'GET',
    host: 'api',
    path: `/maps/static${q({ center: '36.8528,10.3261', zoom: 15, size: '800x500', style: 'streets', marker: '36.8528,10.3261|red|H' })}`,
    key: 'real',
    picture: { width: 800, height: 500 },
    source: 'docs: maps/static listing thumbnail example',
  },
  {
    id: 'r-tile-example',
    endpoint: 'r-tile',
    method: 'GET',
    host: 'tiles',
    path: '/r-tile/12/2163/1597',
    key: 'real',
    picture: { width: 256, height: 256 },
    source: 'docs: r-tile (Tunis at zoom 12)',
  },
  {
    id: 'forward-missing-q',
    endpoint: 'geocoding/forward',
    method: 'GET',
    host: 'api',
    path: `/geocoding/forward${q({ limit: 3 })}`,
    key: 'real',
    source: 'errors: 400, a required parameter missing',
  },
  {
    id: 'reverse-invalid-lat',
    endpoint: 'geocoding/reverse',
    method: 'GET',
    host: 'api',
    path: `/geocoding/reverse${q({ lat: 'north', lng: 10.1815 })}`,
    key: 'real',
    source: 'errors: 400, a parameter malformed',
  },
  {
    id: 'forward-no-key',
    endpoint: 'geocoding/forward',
    method: 'GET',
    host: 'api',
    path: `/geocoding/forward${q({ q: 'Tunis' })}`,
    key: 'none',
    source: 'errors: 401, api_key missing',
  },
  {
    id: 'r-tile-no-key',
    endpoint: 'r-tile',
    method: 'GET',
    host: 'tiles',
    path: '/r-tile/6/33/25',
    key: 'none',
    source: 'errors: 401 on an image endpoint (JSON, not a picture)',
  },
]

/** The probes for a run: with an origin, the examples are sent from it and one from a foreign one. */
export function probeSet(withOrigin: boolean): Probe[] {
  if (!withOrigin) return [...PROBES]
  const probes = PROBES.map((probe): Probe => (probe.key === 'real' ? { ...probe, origin: 'app' } : probe))
  probes.push({
    id: 'forward-foreign-origin',
    endpoint: 'geocoding/forward',
    method: 'GET',
    host: 'api',
    path: `/geocoding/forward${q({ q: 'Tunis' })}`,
    key: 'real',
    origin: 'foreign',
    source: 'errors: 403, an Origin the key does not list',
  })
  return probes
}
