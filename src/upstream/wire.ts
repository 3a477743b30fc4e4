import type { SourceAnswer, SourceMiss, SourceRequest } from './answer-source.ts'
import { harBody, toBase64 } from './har.ts'

/**
 * A request and its answer as they cross from a Vitest browser-mode page to the Vitest process
 * (a browser command's arguments and result: JSON only), where `tmapsRecorder()` forwards and
 * records. Runtime-free: the page's side and the process's side both use it.
 */

/** The request headers TMaps is sent (the upstream's own list, the browser's `Origin` and `Referer`). */
const CARRIED_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'if-none-match',
  'user-agent',
  'origin',
  'referer',
] as const

/** The most of a request body that crosses (TMaps's own limit on a JSON body is far below). */
const BODY_LIMIT = 1024 * 1024

/** An accepted request, as it crosses. */
export interface WireRequest {
  method: string
  url: string
  endpoint: string
  body?: string
  headers: Record<string, string>
  keyId: string | null
  /** The local key's name (the recording's `keyName`: the page's console knows it, the process does not). */
  keyName: string | null
}

/** A source's answer (its body base64), or a miss, as it crosses back. */
export type WireAnswer =
  | { miss: true; reason: string }
  | (Omit<SourceAnswer, 'body'> & { body: string | null })

export function toWireRequest(request: SourceRequest, keyName: string | null): WireRequest {
  const headers: Record<string, string> = {}
  for (const name of CARRIED_HEADERS) {
    const value = request.headers.get(name)
    if (value !== null) headers[name] = value
  }
  return {
    method: request.method,
    url: request.url.href,
    endpoint: request.endpoint,
    ...(request.body !== undefined && { body: request.body }),
    headers,
    keyId: request.keyId,
    keyName,
  }
}

/**
 * A request from a page, checked (the page is a test's, yet the process holds the real key): a
 * GET or POST on an https URL, a body of at most 1 MB, text headers of the carried list only.
 * Throws a TypeError naming what is wrong.
 */
export function fromWireRequest(wire: unknown): SourceRequest & { keyName: string | null } {
  const fail = (why: string): never => {
    throw new TypeError(`Failed to record a TMaps request from the page: ${why}.`)
  }
  const w = wire as Partial<WireRequest> | null
  if (w === null || typeof w !== 'object') return fail('it is not an object')
  if (w.method !== 'GET' && w.method !== 'POST') fail(`method ${JSON.stringify(w.method)} is not GET or POST`)
  if (typeof w.url !== 'string' || !URL.canParse(w.url) || !w.url.startsWith('https://'))
    fail('url is not an https URL')
  if (typeof w.endpoint !== 'string') fail('endpoint is not text')
  if (w.body !== undefined && (typeof w.body !== 'string' || w.body.length > BODY_LIMIT))
    fail(`body is not text of at most ${BODY_LIMIT} characters`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(w.headers ?? {}))
    if ((CARRIED_HEADERS as readonly string[]).includes(name) && typeof value === 'string')
      headers.set(name, value)
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  return {
    method: w.method as string,
    url: new URL(w.url as string),
    endpoint: w.endpoint as string,
    body: w.body,
    headers,
    keyId: text(w.keyId),
    keyName: text(w.keyName),
  }
}

export function toWireAnswer(answer: SourceAnswer | SourceMiss): WireAnswer {
  if ('miss' in answer) return answer
  return { ...answer, body: answer.body === null ? null : toBase64(answer.body) }
}

export function fromWireAnswer(wire: WireAnswer): SourceAnswer | SourceMiss {
  if ('miss' in wire) return wire
  return {
    ...wire,
    body:
      wire.body === null
        ? null
        : harBody({ size: 0, mimeType: wire.contentType, text: wire.body, encoding: 'base64' }),
  }
}
