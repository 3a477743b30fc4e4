/**
 * HAR 1.2 as `serve --record` writes it and `replay` reads it: the types, the placeholder that
 * stands for every key, how a request is matched, and how a file is read back.
 *
 * Runtime-free (no `node:` import): the browser's worker and Storybook replay from a parsed HAR.
 */

/** A HAR name/value pair (headers, query string). */
export interface HarPair {
  name: string
  value: string
}

/**
 * One exchange of a HAR 1.2 log, as `tmaps-mock serve --record` writes it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { HarEntry } from 'tmaps-mock'
 *
 * const entry: HarEntry = {
 *   startedDateTime: '2026-11-27T10:00:00.000Z',
 *   time: 120,
 *   request: {
 *     method: 'GET',
 *     url: 'https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key={{api_key}}', // never a key
 *     httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0,
 *   },
 *   response: {
 *     status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [],
 *     content: { size: 27, mimeType: 'application/json', text: '{"query":"Sfax","results":[]}' },
 *     redirectURL: '', headersSize: -1, bodySize: 27,
 *   },
 *   cache: {},
 *   timings: { send: 0, wait: 120, receive: 0 },
 *   _tmaps: { recordedAt: '2026-11-27T10:00:00.000Z', mockVersion: '0.2.0', keyName: 'Web app' },
 * }
 * assert.ok(!entry.request.url.includes('ak_'))
 * ```
 */
export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    headers: HarPair[]
    queryString: HarPair[]
    cookies: HarPair[]
    headersSize: number
    bodySize: number
    postData?: { mimeType: string; text: string }
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    headers: HarPair[]
    cookies: HarPair[]
    /** JSON as text; a picture's bytes as base64 (`encoding: 'base64'`). */
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' }
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  comment?: string
  /**
   * tmaps-mock's own facts: when, by which version, through which local key (its name), from which
   * upstream (`https://api.tmaps.tn`, or a staging host: the entry's URL is the mock's TMaps host),
   * and what of the exchange the spec does not allow (`findings`, also in `comment`).
   */
  _tmaps?: {
    recordedAt: string
    mockVersion: string
    keyName: string | null
    upstream?: string
    findings?: Array<{ severity: 'error' | 'warning' | 'info'; path: string; message: string }>
  }
}

/**
 * A HAR 1.2 file: `tmaps-mock serve --record` writes one, the `replay` option reads it.
 *
 * Any browser's export of TMaps calls is one too.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsHar } from 'tmaps-mock'
 *
 * const har: TmapsHar = {
 *   log: { version: '1.2', creator: { name: 'tmaps-mock', version: '0.2.0' }, entries: [] },
 * }
 * const mock = createTmapsMock({ state: 'empty', replay: har }) // nothing recorded: the mock answers
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const response = await mock.fetch(
 *   new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`),
 * )
 * assert.equal(response.status, 200)
 * assert.equal(mock.log.entries()[0]?.source, 'replay-miss')
 * ```
 */
export interface TmapsHar {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] }
}

/** What every key value becomes in a recording: the URL, the query, `Referer`, bodies. */
export const KEY_PLACEHOLDER = '{{api_key}}'

/** One character, plain or percent-encoded (once or twice: `%5F`, `%255F`), in any case. */
const either = (char: string) => {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0')
  const upper = /[a-z]/.test(char) ? `%(?:25)?${(char.charCodeAt(0) - 32).toString(16)}|` : ''
  return `(?:${char === '_' ? '_' : char}|${upper}%(?:25)?${hex})`
}
const HEX_CHAR = '(?:[0-9a-f]|%(?:25)?(?:3[0-9]|[46][1-6]))'
/**
 * A TMaps key in any spelling a URL, a header or a body may carry it: `ak_` + 32 hex, any case,
 * any character percent-encoded (`ak%5F…`, `%61k_…`), twice too (`ak%255F…`).
 */
export const RAW_KEY = new RegExp(`${either('a')}${either('k')}${either('_')}${HEX_CHAR}{32}`, 'gi')

/**
 * Replaces every key in `text` by `{{api_key}}`: the ones named (a real key need not have the
 * documented shape), plain and percent-encoded, and anything key-shaped.
 * @example scrubKeys('?q=Sfax&api_key=ak_' + '0'.repeat(32), []) // '?q=Sfax&api_key={{api_key}}'
 */
export function scrubKeys(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length < 8) continue
    for (const form of new Set([
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(encodeURIComponent(secret)),
    ]))
      out = out.split(form).join(KEY_PLACEHOLDER)
  }
  return out.replace(RAW_KEY, KEY_PLACEHOLDER)
}

/** True when a text still holds a key (`ak_` + 32 hex in any spelling): such a recording is never written. */
export function holdsRawKey(text: string, secrets: readonly string[] = []): boolean {
  RAW_KEY.lastIndex = 0
  return RAW_KEY.test(text) || secrets.some((secret) => secret.length >= 8 && text.includes(secret))
}

/**
 * The key a request is matched on: method, host, path, the query without `api_key` in any order,
 * and a POST's JSON body with its keys in any order (a body that is not JSON, as sent).
 * @example
 * matchKey('GET', new URL('https://api.tmaps.tn/geocoding/forward?limit=1&q=Sfax&api_key=x'))
 * // 'GET api.tmaps.tn/geocoding/forward?limit=1&q=Sfax'
 */
export function matchKey(
  method: string,
  url: { host: string; pathname: string; search: string },
  body?: string,
): string {
  const pairs: Array<[string, string]> = []
  for (const [name, value] of new URLSearchParams(url.search))
    if (name !== 'api_key') pairs.push([name, value])
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
  const query = pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`
  const head = `${method.toUpperCase()} ${url.host}${url.pathname}${query}`
  if (body === undefined || body === '') return head
  try {
    return `${head}\n${canonicalJson(JSON.parse(body))}`
  } catch {
    return `${head}\n${body}`
  }
}

/** JSON with every object's keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** Recorded answers the contract gives itself, or that say nothing of the endpoint: never replayed. */
const NOT_REPLAYED = new Set([304, 401, 403, 429])

/**
 * Whether `replay` serves a recorded answer of this status: a final answer (200 to 499) other
 * than those the contract gives itself (401, 403), a 429 and a 304; never a 5xx (transient).
 * @example replays(200) // true; replays(503) // false
 */
export function replays(status: number): boolean {
  return status >= 200 && status < 500 && !NOT_REPLAYED.has(status)
}

/** Recorded headers kept on a replayed answer (CORS is the contract's own). */
export const KEPT_HEADERS: readonly string[] = ['cache-control', 'etag', 'last-modified']

/**
 * What TMaps answers, and so all `replay` serves: JSON and PNG. Anything else (HTML, script, SVG)
 * would be served on the mock server's own origin, where the console lives.
 */
const TMAPS_TYPE = /^(?:application\/json(?:\s*;\s*charset="?utf-8"?)?|image\/png)$/i
/**
 * A header value as Node writes it (RFC 9110's visible ASCII, spaces, tabs and obs-text); it throws on
 * others.
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/**
 * Reads a HAR (its text or the parsed object) and checks what `replay` relies on; a file that is
 * not one, or an entry `replay` could not serve as TMaps would (a status no HTTP answer has, an
 * answer that is not JSON or PNG, a header no HTTP answer may carry), throws an error that says
 * what is wrong and where.
 * @example readHar('{"log":{"version":"1.2","entries":[]}}', 'tmaps.har').log.entries // []
 */
export function readHar(input: string | TmapsHar, name: string): TmapsHar {
  const fail = (why: string): never => {
    throw new TypeError(
      `Failed to read ${name === 'the recording' ? name : `the recording ${name}`}: ${why}.`,
    )
  }
  let har: unknown = input
  if (typeof input === 'string') {
    try {
      har = JSON.parse(input)
    } catch (error) {
      fail(
        `it is not JSON (${(error as Error).message}). Give a HAR 1.2 file, as tmaps-mock serve --record writes`,
      )
    }
  }
  const log = (har as TmapsHar | null)?.log
  if (log === null || typeof log !== 'object' || !Array.isArray(log.entries))
    return fail('it has no log.entries; a HAR file is { "log": { "version": "1.2", "entries": [...] } }')
  for (const [i, entry] of log.entries.entries()) checkEntry(entry, `log.entries[${i}]`, fail)
  return har as TmapsHar
}

/**
 * Why `readHar` would refuse an entry (an HTML page answered 200, a header with a line break), or
 * undefined when it would read it.
 * @example
 * unservable(entryOfAnHtmlPage)
 * // 'entry.response.content.mimeType "text/html" is not what TMaps answers …'
 */
export function unservable(entry: HarEntry): string | undefined {
  try {
    checkEntry(entry, 'entry', (why) => {
      throw new TypeError(why)
    })
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** One entry of `readHar`: its request, its status, and what replay would serve of its answer. */
function checkEntry(entry: HarEntry, at: string, fail: (why: string) => never): void {
  if (entry === null || typeof entry !== 'object') fail(`${at} is not an object`)
  const { request, response } = entry
  if (typeof request?.method !== 'string' || typeof request.url !== 'string' || !URL.canParse(request.url))
    fail(`${at}.request needs a method and an absolute url`)
  if (
    response === null ||
    typeof response !== 'object' ||
    typeof response.content !== 'object' ||
    response.content === null
  )
    fail(`${at}.response needs a status and a content`)
  const { status, content, headers } = response
  // 0 is how browsers export a request that got no answer (blocked, offline): kept, never replayed.
  if (!Number.isInteger(status) || (status !== 0 && (status < 100 || status > 599)))
    fail(
      `${at}.response.status ${JSON.stringify(status)} is not an HTTP status (100 to 599, or 0 for a request that got no answer)`,
    )
  const { encoding, text, mimeType } = content
  if (text !== undefined && typeof text !== 'string') fail(`${at}.response.content.text must be text`)
  if (mimeType !== undefined && typeof mimeType !== 'string')
    fail(`${at}.response.content.mimeType must be text`)
  if (encoding !== undefined && encoding !== 'base64')
    fail(`${at}.response.content.encoding must be "base64" if given`)
  if (encoding === 'base64' && text !== undefined && !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(text))
    fail(`${at}.response.content.text is not base64, though its encoding says so`)
  if (headers !== undefined && !Array.isArray(headers)) fail(`${at}.response.headers must be a list`)
  for (const [j, header] of (headers ?? []).entries())
    if (typeof header?.name !== 'string' || typeof header.value !== 'string')
      fail(`${at}.response.headers[${j}] needs a name and a value, both text`)
  if (!replays(status)) return
  // What replay serves must be what TMaps serves: the server answers it on its own origin.
  if (mimeType && !TMAPS_TYPE.test(mimeType))
    fail(
      `${at}.response.content.mimeType ${JSON.stringify(mimeType)} is not what TMaps answers (application/json or image/png); replay serves only those`,
    )
  if ((status === 204 || status === 205) && text)
    fail(`${at}.response.status ${status} answers no body, yet the entry has one`)
  for (const [j, header] of (headers ?? []).entries())
    if (KEPT_HEADERS.includes(header.name.toLowerCase()) && !HEADER_VALUE.test(header.value))
      fail(
        `${at}.response.headers[${j}] (${header.name}) holds characters no HTTP header may (line breaks, control characters)`,
      )
}

/** A recorded body as bytes (base64 decoded when it says so). */
export function harBody(content: HarEntry['response']['content']): Uint8Array<ArrayBuffer> | null {
  if (content.text === undefined || content.text === '') return null
  if (content.encoding !== 'base64') return new TextEncoder().encode(content.text)
  const binary = atob(content.text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Bytes as base64, for a picture's body in a recording. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
