import type { IncomingMessage } from 'node:http'
import type { RequestLike } from '../../src/core/create-core.ts'

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
    let done = false
    const finish = (error?: Error) => {
      if (done) return
      done = true
      if (error) reject(error)
      else resolve(Buffer.concat(chunks, size))
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.resume()
        finish(new BodyTooLargeError(limit))
      } else if (!done) chunks.push(chunk)
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
 * `Request` or `Headers` objects are built (they cost more than the whole pipeline).
 */
class NodeRequestView implements RequestLike {
  readonly method: string
  readonly headers = this
  readonly url: string
  readonly #req: IncomingMessage
  readonly #limit: number
  constructor(req: IncomingMessage, url: string, limit: number) {
    this.#req = req
    this.url = url
    this.#limit = limit
    this.method = req.method ?? 'GET'
  }
  get(name: string): string | null {
    const value = this.#req.headers[name.toLowerCase()]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }
  async text(): Promise<string> {
    return (await readNodeBody(this.#req, this.#limit)).toString('utf8')
  }
}

/** A pipeline view of a Node request (see `NodeRequestView`). */
export function nodeRequestView(req: IncomingMessage, url: string, limit: number): RequestLike {
  return new NodeRequestView(req, url, limit)
}

/** A fetch `Request` of a Node request, its body read first within the limit (for the control API). */
export async function toFetchRequest(req: IncomingMessage, url: string, limit: number): Promise<Request> {
  const method = req.method ?? 'GET'
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  }
  const body = method === 'GET' || method === 'HEAD' ? null : await readNodeBody(req, limit)
  const abort = new AbortController()
  req.socket.once('close', () => abort.abort())
  return new Request(url, {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : null,
    signal: abort.signal,
  })
}
