import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { KEEP_ALIVE_GRACE_MS, trackConnections } from './drain.ts'

/**
 * The drain over plain HTTP, one raw keep-alive connection at a time, so the test sees each
 * answer's `Connection` header and the moment the server ends the connection.
 */
type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections()
})

/** A drained server with this listener, listening on 127.0.0.1. */
async function drained(listener: Listener) {
  const drain = trackConnections()
  const server = createServer()
  servers.push(server)
  drain.watch(server)
  server.on('request', drain.counted(listener))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as { port: number }).port
  /** Begins `close()`; resolves once the server stopped listening (the graces have begun), with its end. */
  const beginClose = async () => {
    const closed = drain.close()
    while (server.listening) await new Promise((done) => setImmediate(done))
    return { closed }
  }
  return { port, beginClose }
}

/** A raw connection: `ask` sends a GET, resolves with its whole answer; `ended`: when the server ended it. */
async function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  await new Promise((done) => socket.once('connect', done))
  let buffered = ''
  let waiting: (() => void) | undefined
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    buffered += chunk
    waiting?.()
  })
  const ended = new Promise<number>((done) => socket.once('end', () => done(performance.now())))
  /** The next whole answer (head and `Content-Length` bytes of body) off the buffer. */
  const answer = () =>
    new Promise<{ head: string; body: string }>((done, fail) => {
      const take = () => {
        const headEnd = buffered.indexOf('\r\n\r\n')
        if (headEnd < 0) return false
        const head = buffered.slice(0, headEnd)
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
        if (buffered.length < headEnd + 4 + length) return false
        done({ head, body: buffered.slice(headEnd + 4, headEnd + 4 + length) })
        buffered = buffered.slice(headEnd + 4 + length)
        return true
      }
      if (take()) return
      waiting = () => {
        if (take()) waiting = undefined
      }
      socket.once('close', () => fail(new Error(`connection closed before a whole answer: ${buffered}`)))
    })
  const ask = (path: string) => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    return answer()
  }
  return { ask, ended, socket }
}

const ok: Listener = (_req, res) => {
  res.setHeader('Content-Length', 2)
  res.end('ok')
  return undefined
}

it('answers a request on an idle keep-alive connection after close() with Connection: close', async () => {
  const { port, beginClose } = await drained(ok)
  const client = await rawConnection(port)
  expect((await client.ask('/first')).head).toMatch(/^connection: keep-alive$/im)
  const { closed } = await beginClose()
  // Ending the connection here would reset this request: Node's client does not retry it.
  const next = await client.ask('/next')
  expect(next.head).toMatch(/^HTTP\/1.1 200/)
  expect(next.head).toMatch(/^connection: close$/im)
  expect(next.body).toBe('ok')
  await client.ended
  await closed
})

it('ends an idle keep-alive connection once KEEP_ALIVE_GRACE_MS passed without a request', async () => {
  const { port, beginClose } = await drained(ok)
  const client = await rawConnection(port)
  await client.ask('/first')
  const closeBegan = performance.now()
  const { closed } = await beginClose()
  // A timer never fires early; 2 ms for the clock's rounding.
  expect((await client.ended) - closeBegan).toBeGreaterThanOrEqual(KEEP_ALIVE_GRACE_MS - 2)
  await closed
})

it('says Connection: close on an answer still being prepared when close() begins', async () => {
  let release = () => {}
  let called = () => {}
  const listening = new Promise<void>((done) => {
    called = done
  })
  const { port, beginClose } = await drained(async (_req, res) => {
    called()
    await new Promise<void>((done) => {
      release = done
    })
    res.setHeader('Content-Length', 4)
    res.end('late')
  })
  const client = await rawConnection(port)
  const answered = client.ask('/slow')
  await listening
  const { closed } = await beginClose()
  release()
  const { head, body } = await answered
  expect(head).toMatch(/^connection: close$/im)
  expect(body).toBe('late')
  await client.ended
  await closed
})

it('keeps a connection whose answer said keep-alive before close() began for its next request', async () => {
  let finish = () => {}
  let headSent = () => {}
  const begun = new Promise<void>((done) => {
    headSent = done
  })
  let asked = 0
  const { port, beginClose } = await drained((_req, res) => {
    if (++asked > 1) return ok(_req, res)
    res.writeHead(200, { 'Content-Length': 4 })
    res.write('ha')
    headSent()
    return new Promise<void>((done) => {
      finish = () => {
        res.end('lf')
        done()
      }
    })
  })
  const client = await rawConnection(port)
  const first = client.ask('/half')
  await begun
  const { closed } = await beginClose()
  finish()
  // Its head told the client keep-alive: ending the connection right after it would cut the next request.
  const { head, body } = await first
  expect(head).toMatch(/^connection: keep-alive$/im)
  expect(body).toBe('half')
  const next = await client.ask('/next')
  expect(next.head).toMatch(/^connection: close$/im)
  expect(next.body).toBe('ok')
  await client.ended
  await closed
})
