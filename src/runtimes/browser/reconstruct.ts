/**
 * What a real browser would have sent as `Origin` and `Referer` for a request, rebuilt from what
 * the service worker lets a handler see. The browser adds both headers after the worker, so
 * handlers never see them; they do see the request's `mode`, `method`, `destination`,
 * `referrer` and `referrerPolicy`, and the page's `location`. The rules are the Fetch standard's
 * ("append a request `Origin` header") and the Referrer Policy standard's ("determine request's
 * referrer"). Pure: unit-tested in Node.
 */

/** The parts of a `Request` a service-worker handler can see. */
export interface VisibleRequest {
  url: string
  method: string
  /** `cors` for `fetch()` and XHR, `no-cors` for `<img>`, `<script>` without `crossorigin`... */
  mode: string
  /** `''` for fetch/XHR, `image` for `<img>`, ... (informational: `mode` decides). */
  destination?: string
  /** `''` when the policy sends none, `about:client` for the page's default, or a URL. */
  referrer: string
  /** `''` means the default, `strict-origin-when-cross-origin`. */
  referrerPolicy: string
}

/** The page the request comes from: `location.origin` (`'null'` when opaque) and `location.href`. */
interface PageLocation {
  origin: string
  href: string
}

interface BrowserHeaders {
  origin: string | null
  referer: string | null
}

const HTTP = /^https?:$/

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * The `Referer` a browser sends: the referrer trimmed by the policy. Never for a referrer that is
 * not http(s) (a `file://` or `about:srcdoc` page), never when the policy says none.
 * @example
 * refererFor('http://localhost:5173/maps?x=1', 'https://api.tmaps.tn/x', '') // 'http://localhost:5173/'
 */
export function refererFor(referrer: string, target: string, policy: string): string | null {
  const from = parse(referrer)
  const to = parse(target)
  if (!from || !to || !HTTP.test(from.protocol)) return null
  from.hash = ''
  from.username = ''
  from.password = ''
  const full = from.href
  const originOnly = `${from.origin}/`
  const sameOrigin = from.origin === to.origin
  const downgrade = from.protocol === 'https:' && to.protocol !== 'https:'
  switch (policy) {
    case 'no-referrer':
      return null
    case 'origin':
      return originOnly
    case 'unsafe-url':
      return full
    case 'strict-origin':
      return downgrade ? null : originOnly
    case 'same-origin':
      return sameOrigin ? full : null
    case 'origin-when-cross-origin':
      return sameOrigin ? full : originOnly
    case 'no-referrer-when-downgrade':
      return downgrade ? null : full
    default:
      // '' and 'strict-origin-when-cross-origin', the default of every current browser.
      return sameOrigin ? full : downgrade ? null : originOnly
  }
}

/**
 * The `Origin` a browser sends: on every CORS request (whatever the referrer policy), and on a
 * non-GET/HEAD request in other modes (then `null` where the policy hides the origin); none on a
 * same-origin GET or an `<img>`. An opaque page (sandboxed iframe, `file://`) sends `null`.
 * @example
 * originFor(
 *   { url: 'https://api.tmaps.tn/x', method: 'GET', mode: 'cors', referrer: '', referrerPolicy: '' },
 *   'http://localhost:5173',
 * ) // 'http://localhost:5173'
 */
function originFor(request: VisibleRequest, pageOrigin: string): string | null {
  const target = parse(request.url)
  const crossOrigin = !target || target.origin !== pageOrigin
  const method = request.method.toUpperCase()
  const safe = method === 'GET' || method === 'HEAD'
  if (request.mode === 'cors' && crossOrigin) return pageOrigin
  if (safe) return null
  const page = parse(pageOrigin)
  const downgrade = page?.protocol === 'https:' && target?.protocol !== 'https:'
  switch (request.referrerPolicy) {
    case 'no-referrer':
      return 'null'
    case 'same-origin':
      return crossOrigin ? 'null' : pageOrigin
    case 'origin':
    case 'unsafe-url':
    case 'origin-when-cross-origin':
      return pageOrigin
    default:
      return downgrade ? 'null' : pageOrigin
  }
}

/**
 * Both headers as a real browser would have sent them for this request from this page.
 * @example
 * reconstructHeaders(
 *   {
 *     url: 'https://tiles.tmaps.tn/r-tile/1/0/0',
 *     method: 'GET',
 *     mode: 'no-cors',
 *     destination: 'image',
 *     referrer: 'about:client',
 *     referrerPolicy: '',
 *   },
 *   { origin: 'http://localhost:5173', href: 'http://localhost:5173/' },
 * )
 * // { origin: null, referer: 'http://localhost:5173/' }
 */
export function reconstructHeaders(request: VisibleRequest, page: PageLocation): BrowserHeaders {
  const referrer = request.referrer === 'about:client' ? page.href : request.referrer
  return {
    origin: originFor(request, page.origin),
    referer: referrer === '' ? null : refererFor(referrer, request.url, request.referrerPolicy),
  }
}

/**
 * Who a request pretends to come from, for demos and tests (`simulateCaller`, `X-TMaps-Caller`).
 *
 * - `page`: this page's `fetch()`, as observed (no simulation);
 * - `tile`: a map tile `<img>` on this page (no Origin, the Referer the default policy leaves);
 * - `no-referrer`: the same `<img>` under `referrerpolicy="no-referrer"` (no header at all);
 * - `sandboxed`: a `fetch()` from a sandboxed iframe or a `file://` page (`Origin: null`);
 * - `site`: a `fetch()` from a page of another site (`origin`, e.g. `https://evil.example`);
 * - `server`: a server-side caller or curl (no browser header).
 * @example
 * ```ts
 * import { type CallerPreset, setupTmapsWorker } from 'tmaps-mock/browser'
 *
 * const tmaps = setupTmapsWorker({ state: 'empty' })
 * await tmaps.start()
 * const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
 * const anotherSite: CallerPreset = { kind: 'site', origin: 'https://shop.example.tn' }
 * tmaps.simulateCaller(anotherSite)
 * const response = await fetch(
 *   `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`,
 * )
 * // Another site's Origin: not a domain linked to the key.
 * console.assert(response.status === 403, `expected 403, got ${response.status}`)
 * tmaps.stop()
 * ```
 */
export type CallerPreset =
  | { kind: 'page' }
  | { kind: 'tile' }
  | { kind: 'no-referrer' }
  | { kind: 'sandboxed' }
  | { kind: 'site'; origin: string }
  | { kind: 'server' }

const CALLER_KINDS = ['page', 'tile', 'no-referrer', 'sandboxed', 'site', 'server'] as const

/**
 * The headers a simulated caller sends, or `undefined` for `page` (observe the request instead).
 * @example
 * simulatedHeaders({ kind: 'site', origin: 'https://evil.example' }, page)
 * // { origin: 'https://evil.example', referer: 'https://evil.example/' }
 */
export function simulatedHeaders(
  caller: CallerPreset,
  page: PageLocation,
  url: string,
): BrowserHeaders | undefined {
  switch (caller.kind) {
    case 'page':
      return undefined
    case 'tile':
      return { origin: null, referer: refererFor(page.href, url, '') }
    case 'no-referrer':
    case 'server':
      return { origin: null, referer: null }
    case 'sandboxed':
      return { origin: 'null', referer: null }
    case 'site': {
      const site = parse(caller.origin)
      if (!site || !HTTP.test(site.protocol)) {
        throw new TypeError(
          `Failed to simulate a caller: "${caller.origin}" is not an http(s) origin. Pass one like "https://shop.example.tn".`,
        )
      }
      return { origin: site.origin, referer: refererFor(`${site.origin}/`, url, '') }
    }
  }
}

/**
 * Reads a caller preset from its JSON text (the `X-TMaps-Caller` request header); throws a
 * `TypeError` that says what is wrong.
 */
export function parseCallerPreset(text: string): CallerPreset {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new TypeError(`Failed to read the caller "${text}": it is not JSON. Send e.g. {"kind":"server"}.`)
  }
  const kind = (value as { kind?: unknown } | null)?.kind
  if (!(CALLER_KINDS as readonly unknown[]).includes(kind)) {
    throw new TypeError(
      `Failed to read the caller "${text}": kind must be one of ${CALLER_KINDS.join(', ')}.`,
    )
  }
  if (kind === 'site' && typeof (value as { origin?: unknown }).origin !== 'string') {
    throw new TypeError(`Failed to read the caller "${text}": a "site" caller needs an "origin" string.`)
  }
  return value as CallerPreset
}
