/**
 * A team's own requests for `tmaps-mock verify`: a JSON file of requests, or a HAR recorded from its
 * app (by `serve --record`, or a browser's export). `--requests FILE` sends them to TMaps beside the
 * docs' examples; `--har FILE` checks the recorded answers offline, against the spec and the mock.
 */
import { resolveEndpoint } from '../../endpoints/registry.ts'
import { type HarEntry, harBody } from '../../upstream/har.ts'
import { unknownFields } from '../../validate/validate.ts'
import type { Probe } from './probes.ts'

/** The most requests of a `--requests` file one run sends (each at `--rate`, on the team's quota). */
export const MAX_OWN_REQUESTS = 200

/** A recorded exchange of a HAR: the request as a probe, and TMaps's recorded answer. */
export interface RecordedExchange {
  probe: Probe
  answer: {
    status: number
    contentType: string | null
    headers: Record<string, string>
    bytes: Uint8Array
    /** The entry's `time` (ms), rounded. */
    ms: number
  }
  /** The `Origin` (or, without one, the `Referer`'s origin) the app sent, when it sent one. */
  origin: string | undefined
}

/** What a `--requests` or `--har` file holds, once read. */
export type OwnRequests =
  | { kind: 'list'; probes: Probe[] }
  | { kind: 'har'; exchanges: RecordedExchange[]; skipped: number }

/**
 * Reads a requests file (a JSON list of requests) or a HAR (`{ "log": { "entries": [...] } }`).
 *
 * A request of the list: `{ "url": "/geocoding/forward?q=Sfax", "method"?: "GET" | "POST", "body"?:
 * {...}, "id"?: "...", "key"?: "real" | "none", "origin"?: "app" | "foreign" | "none" }`. Its URL is a
 * path or a TMaps URL (its host is not used: `--api` and `--tiles` are); any `api_key` in it is
 * dropped and the real key sent, unless `key` is `none`. A HAR's entries are its TMaps requests (a
 * path of a TMaps endpoint; other requests of a browser's export are skipped and counted), sent with
 * the real key where the app sent one. A file that is neither, or a request that names no TMaps
 * endpoint, throws an error that says which and how to fix it.
 * @example readOwnRequests('[{"url":"/geocoding/forward?q=Sfax"}]', 'mine.json').kind // 'list'
 */
export function readOwnRequests(text: string, name: string): OwnRequests {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new TypeError(`${name} is not JSON (${(error as Error).message}).`)
  }
  if (Array.isArray(parsed)) return { kind: 'list', probes: listProbes(parsed, name) }
  const entries = (parsed as { log?: { entries?: unknown } } | null)?.log?.entries
  if (Array.isArray(entries)) return harExchanges(entries, name)
  throw new TypeError(
    `${name} is neither a list of requests ([{ "url": "/geocoding/forward?q=Sfax" }]) nor a HAR file ({ "log": { "entries": [...] } }).`,
  )
}

const ORIGINS = { app: 'app', foreign: 'foreign' } as const
/** The fields of a request of the list; any other (a misspelt `mehtod`) is refused, not ignored. */
const REQUEST_FIELDS = ['url', 'method', 'body', 'id', 'key', 'origin'] as const

/** The probes of a JSON list of requests. */
function listProbes(list: unknown[], name: string): Probe[] {
  if (list.length > MAX_OWN_REQUESTS)
    throw new TypeError(
      `${name} has ${list.length} requests; verify sends at most ${MAX_OWN_REQUESTS} a run (your quota): split the file.`,
    )
  return list.map((item, i) => {
    const at = `${name} [${i}]`
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new TypeError(`${at} is not an object; write { "url": "/geocoding/forward?q=Sfax" }.`)
    const request = item as Record<string, unknown>
    const unknown = unknownFields(request, REQUEST_FIELDS)
    if (unknown.length > 0)
      throw new TypeError(
        `${at}: ${unknown.map((f) => JSON.stringify(f)).join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of a request (its fields: ${REQUEST_FIELDS.join(', ')}).`,
      )
    const { url, method = request.body === undefined ? 'GET' : 'POST', body, id, key = 'real' } = request
    const origin = request.origin ?? 'app'
    if (typeof url !== 'string' || url === '')
      throw new TypeError(`${at} needs a "url": a path (/geocoding/forward?q=Sfax) or a TMaps URL.`)
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`${at}: "method" is GET or POST.`)
    if (key !== 'real' && key !== 'none') throw new TypeError(`${at}: "key" is "real" or "none".`)
    if (origin !== 'app' && origin !== 'foreign' && origin !== 'none')
      throw new TypeError(`${at}: "origin" is "app" (your --origin), "foreign" or "none".`)
    if (id !== undefined && (typeof id !== 'string' || id === ''))
      throw new TypeError(`${at}: "id" is a name for the request.`)
    const probe = toProbe(method, url, body, {
      id: id ?? `own-${i + 1}`,
      source: `${name} [${i}]`,
      key,
      ...(origin !== 'none' && { origin: ORIGINS[origin] }),
    })
    if (probe === undefined)
      throw new TypeError(
        `${at}: ${method} ${withoutKey(url)} is not a TMaps endpoint (the endpoints: tmaps-mock/openapi.json, or ENDPOINTS).`,
      )
    return probe
  })
}

/** The TMaps exchanges of a HAR's entries; the others are counted as skipped. */
function harExchanges(entries: unknown[], name: string): OwnRequests {
  const exchanges: RecordedExchange[] = []
  let skipped = 0
  for (const [i, item] of entries.entries()) {
    const entry = item as Partial<HarEntry> | null
    const request = entry?.request
    const response = entry?.response
    if (typeof request?.method !== 'string' || typeof request.url !== 'string' || !URL.canParse(request.url))
      throw new TypeError(`${name} log.entries[${i}].request needs a method and an absolute url.`)
    const method = request.method.toUpperCase()
    const url = new URL(request.url)
    const headers = pairs(request.headers)
    const origin = headers.origin ?? refererOrigin(headers.referer)
    const probe =
      method === 'GET' || method === 'POST'
        ? toProbe(method, request.url, bodyOf(request.postData?.text), {
            id: `entry-${i}`,
            source: `${name} log.entries[${i}]`,
            key: url.searchParams.has('api_key') ? 'real' : 'none',
            ...(origin !== undefined && { origin: 'app' as const }),
          })
        : undefined
    if (probe === undefined) {
      skipped++
      continue
    }
    const content = response?.content
    const status = response?.status
    if (
      typeof status !== 'number' ||
      !Number.isInteger(status) ||
      content === null ||
      typeof content !== 'object'
    )
      throw new TypeError(`${name} log.entries[${i}].response needs a status and a content.`)
    const answerHeaders = pairs(response?.headers)
    let bytes: Uint8Array
    try {
      bytes = harBody(content) ?? new Uint8Array()
    } catch {
      throw new TypeError(
        `${name} log.entries[${i}].response.content.text is not base64, though its encoding says so.`,
      )
    }
    exchanges.push({
      probe,
      answer: {
        status,
        contentType: answerHeaders['content-type'] ?? (content.mimeType || null),
        headers: answerHeaders,
        bytes,
        ms: Math.round(Number(entry?.time) || 0),
      },
      origin,
    })
  }
  return { kind: 'har', exchanges, skipped }
}

/** A request as a probe, or undefined when its method and path name no TMaps endpoint. */
function toProbe(
  method: 'GET' | 'POST',
  raw: string,
  body: unknown,
  facts: Pick<Probe, 'id' | 'source' | 'key' | 'origin'>,
): Probe | undefined {
  const url = new URL(raw, 'https://api.tmaps.tn')
  const host = (['api', 'tiles'] as const).find((h) => resolveEndpoint(h, method, url.pathname))
  const resolved = host && resolveEndpoint(host, method, url.pathname)
  if (host === undefined || resolved === undefined) return undefined
  const query = new URLSearchParams(url.search)
  query.delete('api_key')
  const search = query.toString()
  const { name } = resolved.endpoint
  const picture =
    name === 'r-tile' ? { width: 256, height: 256 } : name === 'maps/static' ? staticSize(query) : undefined
  return {
    ...facts,
    endpoint: name,
    method,
    host,
    path: `${url.pathname}${search === '' ? '' : `?${search}`}`,
    ...(method === 'POST' && body !== undefined && { body }),
    ...(picture && { picture }),
  }
}

/** A request's URL as a message may show it: any `api_key` value replaced by `…`. */
const withoutKey = (url: string) => url.replace(/([?&]api_key=)[^&#]*/gi, '$1…')

/** A static map's `size` (`800x500`), the size of the PNG it asks for. */
function staticSize(query: URLSearchParams): Probe['picture'] {
  const size = /^(\d{1,4})x(\d{1,4})$/.exec(query.get('size') ?? '')
  return size ? { width: Number(size[1]), height: Number(size[2]) } : undefined
}

/** HAR name/value pairs as lower-cased headers (the last of a name wins). */
function pairs(list: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!Array.isArray(list)) return out
  for (const pair of list as Array<{ name?: unknown; value?: unknown }>)
    if (typeof pair?.name === 'string' && typeof pair.value === 'string')
      out[pair.name.toLowerCase()] = pair.value
  return out
}

const refererOrigin = (referer: string | undefined) =>
  referer !== undefined && URL.canParse(referer) ? new URL(referer).origin : undefined

/** A recorded POST body: its JSON, or its text when it is not JSON (sent as recorded). */
function bodyOf(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
