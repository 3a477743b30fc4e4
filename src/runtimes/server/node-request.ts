import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestLike, RequestTarget } from '../../core/create-core.ts'

/** Where the control API lives on the server. */
export const CONTROL_PREFIX = '/__console'

/** The largest request body the control API reads: 8 MB (a snapshot of about 40,000 keys). */
export const CONTROL_BODY_LIMIT = 8 * 1024 * 1024

/** A body larger than the limit: answered 413 (`status` is read by the pipeline's body reader). */
export class BodyTooLargeError extends Error {
  readonly status = 413
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`)
  }
}

/**
 * Reads a Node request's body, at most `limit` bytes: a larger one rejects with a 413 error (a
 * declared `Content-Length` above the limit is refused before reading), and a client that leaves
 * mid-upload rejects too.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume()
      reject(new BodyTooLargeError(limit))
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const finish = (error?: Error) => {
      if (settled) return
      settled = true
      if (error) reject(error)
      else resolve(Buffer.concat(chunks, size))
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.resume()
        finish(new BodyTooLargeError(limit))
      } else if (!settled) chunks.push(chunk)
    })
    req.on('end', () => finish())
    req.on('error', (error) => finish(error))
    req.on('close', () => {
      if (!req.complete) finish(new Error('The client closed the connection before its body arrived.'))
    })
  })
}

/**
 * The request as the TMaps pipeline reads it, straight from Node's `IncomingMessage`: no
 * `Request` or `Headers` objects are built (they cost more than the whole pipeline), and headers
 * are read from `rawHeaders` (Node builds `req.headers` on first access, a cost per request).
 */
class NodeRequestView implements RequestLike {
  readonly method: string
  readonly headers = this
  readonly #req: IncomingMessage
  readonly #target: string | RequestTarget
  readonly #limit: number
  constructor(req: IncomingMessage, target: string | RequestTarget, limit: number) {
    this.#req = req
    this.#target = target
    this.#limit = limit
    this.method = req.method ?? 'GET'
  }
  /** The URL, made when read (the memo finds a remembered request without it). */
  get url(): string {
    return typeof this.#target === 'string' ? this.#target : this.#target.href
  }
  /** A header's value, repeated ones joined with `, ` as `Headers.get` does (names are lower case). */
  get(name: string): string | null {
    const raw = this.#req.rawHeaders
    let value: string | null = null
    // Name, value, name, value...: below `length`, `?? ''` is never taken.
    for (let i = 0; i < raw.length; i += 2) {
      if (!sameName(raw[i] ?? '', name)) continue
      const fieldValue = raw[i + 1] ?? ''
      value = value === null ? fieldValue : `${value}, ${fieldValue}`
    }
    return value
  }
  async text(): Promise<string> {
    return (await readNodeBody(this.#req, this.#limit)).toString('utf8')
  }
}

/**
 * Whether a header field is `name` whatever its case, without a lower-cased copy of each field
 * a request: setting bit 5 lower-cases an upper-case letter; for `name`'s other characters
 * (lower-case letters, digits, `-`, as `get` is asked) the byte 32 below is a control character
 * Node's parser never lets into a field name.
 */
function sameName(field: string, name: string): boolean {
  if (field.length !== name.length) return false
  for (let i = 0; i < name.length; i++) {
    const c = field.charCodeAt(i)
    const n = name.charCodeAt(i)
    if (c !== n && (c | 0x20) !== n) return false
  }
  return true
}

/** A pipeline view of a Node request (see `NodeRequestView`), on its URL as text or as a target. */
export function nodeRequestView(
  req: IncomingMessage,
  url: string | RequestTarget,
  limit: number,
): RequestLike {
  return new NodeRequestView(req, url, limit)
}

/**
 * A fetch `Request` of a Node request, its body read first within the limit (for the control API).
 * Its signal aborts when the answer is done or the client leaves (`res` closes): a listener per
 * answer, not per request on a keep-alive socket, so 50,000 requests on one socket add none.
 */
export async function toFetchRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  limit: number,
): Promise<Request> {
  const method = req.method ?? 'GET'
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  }
  const body = method === 'GET' || method === 'HEAD' ? null : await readNodeBody(req, limit)
  const abort = new AbortController()
  res.once('close', () => abort.abort())
  return new Request(url, {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : null,
    signal: abort.signal,
  })
}

/** The methods the control API knows; `new Request` refuses others such as TRACE and CONNECT. */
const CONTROL_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * What is wrong with a control API request before a fetch `Request` can even be made of it (its
 * constructor throws on these): a method it does not take (405) or a `Host` that is no host
 * (400: `localhost:99999`, `a b`, `[::1`, `x@evil.com`). `undefined` when it can go on.
 * @example controlRequestProblem('TRACE', 'localhost:8443') // { status: 405, ... }
 */
export function controlRequestProblem(
  method: string | undefined,
  host: string | undefined,
): { status: 400 | 405; error: string; headers?: Record<string, string> } | undefined {
  if (!method || !CONTROL_METHODS.has(method))
    return {
      status: 405,
      error: `The control API does not take ${String(method).slice(0, 20)} requests.`,
      headers: { Allow: [...CONTROL_METHODS].join(', ') },
    }
  const hostHeader = host ?? ''
  let parsed: URL | undefined
  try {
    parsed = new URL(`https://${hostHeader}/`)
  } catch {
    // not a host
  }
  if (!parsed || parsed.host !== hostHeader.toLowerCase() || parsed.username !== '' || parsed.password !== '')
    return {
      status: 400,
      error: `The Host header ${JSON.stringify(hostHeader.slice(0, 80))} is not a host[:port]. Call the control API as https://localhost:<port>/__console/.`,
    }
  return undefined
}
