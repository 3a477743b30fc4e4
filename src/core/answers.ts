import { REJECTIONS, type Rule } from '../contract/rejections.ts'
import { CONTENT_TYPES } from '../endpoints/endpoint.ts'

/** An answer as data: what `fetch` turns into a `Response` and the HTTPS server writes out. */
export interface TmapsAnswer {
  status: number
  /** The status line's reason phrase (`Unauthorized`), which `fetch().statusText` shows. */
  statusText: string
  headers: Record<string, string>
  /** UTF-8 JSON or PNG bytes, or `null` (a preflight's 204, a 304). */
  body: Uint8Array<ArrayBuffer> | null
  /**
   * `'reset'`: no HTTP answer at all, the connection fails (an injected network fault). `fetch`
   * then rejects; the HTTPS server destroys the socket.
   */
  network?: 'reset'
  /** The rule that decided it (`ok`, `key-disabled`, ...), for a runtime's own request log. */
  rule?: Rule
  /**
   * Where an accepted request's answer came from, when not from the mock (`upstream`, `replay`,
   * `replay-miss`).
   */
  source?: 'upstream' | 'replay' | 'replay-miss'
}

/** Reason phrases of the statuses the mock answers (RFC 9110, and nginx's 499). */
// biome-ignore format: a table
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 413: 'Content Too Large',
  415: 'Unsupported Media Type', 421: 'Misdirected Request', 429: 'Too Many Requests', 499: 'Client Closed Request',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
}

/**
 * The fetch runtimes' write-back: an answer as a `Response`, a reset connection as a network
 * error (`Response.error()`: `fetch` rejects).
 * @example toResponse(answer(200, utf8Json({ ok: true }), null)).status // 200
 */
export function toResponse({ status, statusText, headers, body, network }: TmapsAnswer): Response {
  return network === 'reset' ? Response.error() : new Response(body, { status, statusText, headers })
}

/** Tiles and static maps may be reused for an hour; a changed key or domain still applies to new requests. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=3600'

const utf8 = new TextEncoder()

/**
 * The one builder of answers: the body as bytes with its type and `Content-Length`, and the
 * contract's CORS headers (`Access-Control-Allow-Origin`: the request's `Origin`, else `*`).
 * @example answer(200, utf8Json({ ok: true }), 'http://localhost:5173')
 */
export function answer(
  status: number,
  body: Uint8Array<ArrayBuffer> | null,
  origin: string | null,
  extra?: Record<string, string>,
  contentType: string = CONTENT_TYPES.json,
): TmapsAnswer {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin ?? '*',
    Vary: 'Origin',
    ...extra,
  }
  if (body !== null) {
    headers['Content-Type'] = contentType
    headers['Content-Length'] = String(body.byteLength)
  }
  return { status, statusText: STATUS_TEXT[status] ?? '', headers, body }
}

/**
 * An error answer: `{"error": "<message>"}` with its status. Rules of the contract give both
 * (`rejection('key-disabled', origin)`); other errors name them.
 * @example rejection('domain-not-authorized', 'https://evil.tn') // 403 {"error":"domain not authorized"}
 */
export function rejection(
  rule: keyof typeof REJECTIONS | { status: number; error: string },
  origin: string | null,
  extra?: Record<string, string>,
): TmapsAnswer {
  const { status, error } = typeof rule === 'string' ? REJECTIONS[rule] : rule
  return answer(status, errorBytes(error), origin, extra)
}

/** The few error bodies there are, encoded once each (a 401 or 403 answers the same bytes every time). */
const errorBodies = new Map<string, Uint8Array<ArrayBuffer>>()
function errorBytes(error: string): Uint8Array<ArrayBuffer> {
  let bytes = errorBodies.get(error)
  if (!bytes) {
    bytes = utf8.encode(JSON.stringify({ error }))
    // Parameter errors name parameters: keep the table small whatever a client sends.
    if (errorBodies.size < 256) errorBodies.set(error, bytes)
  }
  return bytes
}

export { utf8Json } from '../text/utf8-json.ts'

/** An answer's bytes with a strong ETag: a 64-bit FNV-1a style hash of the bytes, in hex. */
export function withEtag(bytes: Uint8Array<ArrayBuffer>): { bytes: Uint8Array<ArrayBuffer>; etag: string } {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193 ^ bytes.length
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0 // always a byte below `length` (an indexed loop: `for...of` is slower here)
    h1 = Math.imul(h1 ^ byte, 0x01000193)
    h2 = Math.imul(h2 ^ byte, 0x5bd1e995) ^ (h2 >>> 15)
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
  return { bytes, etag: `"${hex(h1)}${hex(h2)}"` }
}

/** `If-None-Match` holds this ETag (or `*`), compared as RFC 9110 says for a GET. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*')
}
