import type { ClientRequest } from 'node:http'
import { type Agent, request as httpsRequest } from 'node:https'

/** What TMaps answered, read whole; or why there is no answer (`TIMEOUT`, `TOO_LARGE`, a Node error code). */
type Exchanged =
  | { status: number; statusText: string; headers: Record<string, string>; bytes: Uint8Array<ArrayBuffer> }
  | { error: string; code: string }

/**
 * One HTTPS request to the real TMaps, its answer read whole (at most `limit` bytes) within
 * `timeoutMs`; never rejects. The one transport of `verify` and of `serve --upstream`.
 */
export function httpsExchange(
  url: string,
  {
    method,
    headers,
    body,
    agent,
    timeoutMs,
    limit,
  }: {
    method: string
    headers: Record<string, string>
    body: string | undefined
    agent: Agent
    timeoutMs: number
    limit: number
  },
): Promise<Exchanged> {
  return new Promise((resolve) => {
    let done = false
    let outgoing: ClientRequest | undefined
    const finish = (value: Exchanged) => {
      if (done) return
      done = true
      clearTimeout(timer)
      if ('error' in value) outgoing?.destroy()
      resolve(value)
    }
    const timer = setTimeout(
      () => finish({ error: `no answer within ${timeoutMs} ms`, code: 'TIMEOUT' }),
      timeoutMs,
    )
    const send = (retried: boolean) => {
      const sent = httpsRequest(url, { method, headers, agent }, (incoming) => {
        const chunks: Buffer[] = []
        let size = 0
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > limit) finish({ error: `its answer is larger than ${limit} bytes`, code: 'TOO_LARGE' })
          else chunks.push(chunk)
        })
        incoming.on('error', (error: NodeJS.ErrnoException) =>
          finish({ error: error.message, code: error.code ?? 'ERROR' }),
        )
        incoming.on('aborted', () =>
          finish({ error: 'the connection closed before the answer ended', code: 'ECONNRESET' }),
        )
        incoming.on('end', () => {
          const flat: Record<string, string> = {}
          for (const [name, value] of Object.entries(incoming.headers))
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
          finish({
            status: incoming.statusCode ?? 0,
            statusText: incoming.statusMessage ?? '',
            headers: flat,
            bytes: new Uint8Array(Buffer.concat(chunks)),
          })
        })
      })
      sent.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed while idle fails at once: sent again, once,
        // on a new connection (Node's own advice), before it counts as TMaps unreachable.
        if (!retried && !done && sent.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE'))
          return send(true)
        finish({ error: `${error.code ?? ''} ${error.message}`.trim(), code: error.code ?? 'ERROR' })
      })
      outgoing = sent
      sent.end(body)
    }
    send(false)
  })
}
