import { Agent } from 'node:https'
import { maskSecrets } from '../contract/key-format.ts'
import { utf8Json } from '../text/utf8-json.ts'
import type { SourceAnswer, SourceRequest } from './answer-source.ts'
import { scrubKeys } from './har.ts'
import { httpsExchange } from './https-exchange.ts'

/** Where `serve --upstream` forwards accepted requests, and how. */
export interface UpstreamOptions {
  /** The real API's origin, e.g. `https://api.tmaps.tn`. */
  api: string
  /** The real tiles' origin, e.g. `https://tiles.tmaps.tn`. */
  tiles: string
  /** The real key, put in place of the local one. Never logged. */
  key: string
  /** A certificate authority to trust besides the system's (PEM text), e.g. a stand-in's. */
  ca?: string
  /** Longer than this (ms) gets a 504. Default 15000. */
  timeoutMs?: number
  /** Forward the app's `Origin` and `Referer` (default), or drop them, as a server-side caller sends none. */
  browserHeaders?: boolean
  /**
   * Called after every exchange with TMaps that got an answer (the recorder writes it); what it
   * returns (findings against the spec) is added to the answer's reason in the log.
   */
  onExchange?: (exchange: UpstreamExchange) => ReadonlyArray<{ path: string; message: string }> | undefined
  /**
   * Mark each request to TMaps for msw to let through (`Accept: …, msw/passthrough`, which msw
   * removes before sending): in a process whose requests msw intercepts (`setupTmapsNode`).
   */
  throughMsw?: boolean
}

/** One request to TMaps and its answer, as the recorder keeps it (the real key still in it: scrub it). */
export interface UpstreamExchange {
  startedAt: Date
  ms: number
  method: string
  /** The URL as sent to TMaps (the real key in it). */
  url: string
  /** The URL as the app sent it (its local key in it), on the mock's TMaps host. */
  localUrl: string
  requestHeaders: Record<string, string>
  body: string | undefined
  status: number
  statusText: string
  headers: Record<string, string>
  bytes: Uint8Array<ArrayBuffer> | null
  keyId: string | null
}

/** The most of one answer kept in memory (a static map is at most a few MB). */
export const UPSTREAM_BODY_LIMIT = 16 * 1024 * 1024
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-language', 'content-type', 'if-none-match', 'user-agent']
const KEPT_ANSWER_HEADERS = ['cache-control', 'etag', 'last-modified', 'retry-after']

/**
 * A source that forwards each accepted request to TMaps with the real key in place of the local
 * one, and gives TMaps's answer back as it is (its 4xx, 429 and 5xx too). TMaps unreachable or
 * refusing TLS: 502 `{"error":"upstream unreachable"}`; slower than `timeoutMs`: 504
 * `{"error":"upstream timeout"}`; the cause in the log's reason, keys masked. It never throws.
 */
export function createUpstream(options: UpstreamOptions): {
  answer(request: SourceRequest): Promise<SourceAnswer>
  close(): void
} {
  const { api, tiles, key, ca, timeoutMs = 15_000, browserHeaders = true, onExchange, throughMsw } = options
  // Through msw (setupTmapsNode), a connection per request: with kept-alive sockets, msw's
  // pass-through failed now and then in a test run (ERR_SSL_TOO_LONG); one per request never did.
  const agent = new Agent({ keepAlive: !throughMsw, maxSockets: 16, ...(ca !== undefined && { ca }) })
  const secrets = [key]
  const masked = (text: string) => {
    let out = text
    for (const secret of secrets) out = out.split(secret).join('ak_…')
    return maskSecrets(out)
  }
  return {
    close: () => agent.destroy(),
    answer(request: SourceRequest): Promise<SourceAnswer> {
      const base = request.endpoint === 'r-tile' ? tiles : api
      const url = `${base}${request.url.pathname}${withKey(request.url.search, key)}`
      const headers: Record<string, string> = {}
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = request.headers.get(name)
        if (value !== null) headers[name] = value
      }
      if (browserHeaders) {
        for (const name of ['origin', 'referer']) {
          const value = request.headers.get(name)
          if (value !== null) headers[name] = value
        }
      }
      headers['user-agent'] ??= 'tmaps-mock (serve --upstream)'
      const startedAt = new Date()
      const started = performance.now()
      const failed = (status: 502 | 504, why: string): SourceAnswer => ({
        status,
        body: utf8Json({ error: status === 504 ? 'upstream timeout' : 'upstream unreachable' }),
        contentType: 'application/json',
        headers: {},
        source: 'upstream',
        unanswered: true,
        reason: `Authorized; TMaps at ${base} ${status === 504 ? `did not answer within ${timeoutMs} ms` : `could not be reached: ${masked(why)}`}.`,
        repeatable: false,
      })
      return httpsExchange(url, {
        method: request.method,
        headers: throughMsw ? { ...headers, accept: passThrough(headers.accept) } : headers,
        body: request.body,
        agent,
        timeoutMs,
        limit: UPSTREAM_BODY_LIMIT,
      }).then((answered) => {
        if ('error' in answered) return failed(answered.code === 'TIMEOUT' ? 504 : 502, answered.error)
        const { status, statusText, headers: all } = answered
        const kept: Record<string, string> = {}
        for (const name of KEPT_ANSWER_HEADERS) if (all[name] !== undefined) kept[name] = all[name]
        const bytes =
          answered.bytes.byteLength === 0 ? null : withoutKey(answered.bytes, all['content-type'], key)
        let noted: ReadonlyArray<{ path: string; message: string }> | undefined
        try {
          noted = onExchange?.({
            startedAt,
            ms: performance.now() - started,
            method: request.method,
            url,
            localUrl: request.url.href,
            requestHeaders: headers,
            body: request.body,
            status,
            statusText,
            headers: all,
            bytes,
            keyId: request.keyId,
          })
        } catch (error) {
          console.error(`tmaps-mock: recording an exchange failed: ${masked(String(error))}`)
        }
        return {
          status,
          body: bytes,
          contentType: all['content-type'] ?? 'application/octet-stream',
          headers: kept,
          source: 'upstream',
          reason: `Authorized; forwarded to TMaps (${base}), which answered ${status}.${
            noted?.length
              ? ` Recorded, not as the spec says: ${noted.map((f) => `${f.path}: ${f.message}`).join(' ')}`
              : ''
          }`,
          repeatable: false,
        }
      })
    },
  }
}

/**
 * An answer's bytes with the real key replaced by `{{api_key}}` where a text answer holds it (an
 * error that echoes the request): the real key never reaches the app, nor a recording.
 */
function withoutKey(
  bytes: Uint8Array<ArrayBuffer>,
  type: string | undefined,
  key: string,
): Uint8Array<ArrayBuffer> {
  if (
    !/json|text/.test(type ?? '') ||
    !Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(key)
  )
    return bytes
  return new TextEncoder().encode(scrubKeys(new TextDecoder().decode(bytes), [key]))
}

/** An `Accept` value msw lets through unanswered, and strips its mark from before sending. */
const passThrough = (accept: string | undefined) =>
  accept === undefined ? 'msw/passthrough' : `${accept}, msw/passthrough`

/** The query with every `api_key` value (any spelling of the name) replaced by `key`. */
function withKey(search: string, key: string): string {
  if (search.length <= 1) return `?api_key=${encodeURIComponent(key)}`
  let found = false
  const parts = search
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=')
      const raw = eq < 0 ? part : part.slice(0, eq)
      const name =
        raw.includes('%') || raw.includes('+') ? new URLSearchParams(`${raw}=`).keys().next().value : raw
      if (name !== 'api_key') return part
      found = true
      return `api_key=${encodeURIComponent(key)}`
    })
  if (!found) parts.push(`api_key=${encodeURIComponent(key)}`)
  return `?${parts.join('&')}`
}
