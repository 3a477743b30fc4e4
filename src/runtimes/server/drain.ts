import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { Socket } from 'node:net'

/** How long `close()` waits for requests already received to be answered, at most. */
const CLOSE_GRACE_MS = 10_000
/**
 * After `close()` is called, connections keep being accepted until none has come for this long
 * (and for `QUIET_TURNS` turns of the event loop): the kernel's accept queue may still hold
 * hundreds that connected before the signal, and a turn accepts only part of it.
 */
const QUIET_MS = 100
const QUIET_TURNS = 50
/** The longest `close()` keeps accepting, whatever keeps arriving. */
const ACCEPT_WINDOW_MS = 10_000
/** How long a connection accepted before `close()` may take to send its first request. */
const FIRST_REQUEST_GRACE_MS = 5_000
/**
 * How long a keep-alive connection that is idle once `close()` has begun stays open: its client,
 * told keep-alive a moment before, may be sending its next request, which is then answered with
 * `Connection: close`. Node's client does not retry a request on a reused socket the server ended.
 */
export const KEEP_ALIVE_GRACE_MS = 1_000

interface Tracked {
  /** Requests read and not yet answered. */
  inFlight: number
  /** Requests ever read on it (none: it may still be sending its first). */
  requests: number
  /** The answers of the requests in flight, to say `Connection: close` on those not begun at `close()`. */
  answers: Set<ServerResponse>
}

/**
 * Graceful stop for Node servers: every request already received is answered, pictures
 * included, then its connection closes. Node's own `server.close()` also closes connections
 * it sees as idle, which includes one accepted a moment ago whose request is still on its way
 * (a client then gets a reset for a request it did send); and connections still in the kernel's
 * accept queue are reset when the listening socket closes. So: one more turn of the event loop
 * accepts what is queued, the listener stops, answers in flight finish with `Connection: close`,
 * connections that never sent a request get `FIRST_REQUEST_GRACE_MS` to send one, idle
 * keep-alive connections get `KEEP_ALIVE_GRACE_MS` to send their next one (ending them at once
 * resets the request their client is sending), and whatever is left after `graceMs` is closed.
 * @example
 * const drain = trackConnections()
 * drain.watch(server)
 * server.on('request', drain.counted(listener))
 * await drain.close()
 */
export function trackConnections() {
  const servers: Array<HttpServer | HttpsServer> = []
  /** Every TCP connection, TLS or not, from the moment it is accepted. */
  const connections = new Set<Socket>()
  /** The sockets requests arrive on (the TLS socket once its handshake is done). */
  const ready = new Map<Socket, Tracked>()
  let closing = false
  let accepted = 0

  /**
   * Tracks the connections of one more server: call it before the server listens; give it its
   * request listener through `counted`.
   */
  const watch = (server: HttpServer | HttpsServer) => {
    servers.push(server)
    server.on('connection', (socket: Socket) => {
      accepted++
      connections.add(socket)
      socket.once('close', () => connections.delete(socket))
    })
    const secure = 'setSecureContext' in server
    server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
      const state: Tracked = { inFlight: 0, requests: 0, answers: new Set() }
      ready.set(socket, state)
      socket.once('close', () => ready.delete(socket))
      if (closing) awaitNextRequest(socket, state, FIRST_REQUEST_GRACE_MS)
    })
  }

  /**
   * A request listener that is counted: while it has not settled (it returns a promise) its
   * connection is in flight, and once `close()` has begun the answer says `Connection: close` and
   * the connection ends after it. A listener that answered at once returns nothing: nothing is
   * added per request (no listener on the response, no promise).
   */
  const counted =
    (listener: (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined) =>
    (req: IncomingMessage, res: ServerResponse): void => {
      const state = ready.get(req.socket)
      if (state === undefined) return void listener(req, res)
      state.requests++
      if (closing) res.setHeader('Connection', 'close')
      state.inFlight++
      state.answers.add(res)
      const answering = listener(req, res)
      if (answering === undefined) settle(req.socket, state, res)
      else void answering.finally(() => settle(req.socket, state, res))
    }
  const settle = (socket: Socket, state: Tracked, res: ServerResponse) => {
    state.inFlight--
    state.answers.delete(res)
    if (!closing || state.inFlight > 0) return
    // An answer whose head went out before `close()` told its client keep-alive: the client
    // may send again, so the connection waits like an idle one instead of ending under it.
    // (When the client itself asked to close, Node ends the connection after the answer.)
    if (res.getHeader('connection') === 'close') socket.end()
    else awaitNextRequest(socket, state, KEEP_ALIVE_GRACE_MS)
  }

  return {
    watch,
    counted,
    /** Stops accepting, answers what was received, closes every connection; resolves when all are closed. */
    async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
      if (closing) return
      closing = true
      await acceptWhatIsQueued(() => accepted) // what the kernel already queued
      const stopped = stopListening(servers)
      for (const [socket, state] of ready) {
        if (state.inFlight > 0) {
          // Ends once answered; an answer not begun yet says so (one begun said keep-alive).
          for (const res of state.answers) if (!res.headersSent) res.setHeader('Connection', 'close')
        } else if (state.requests > 0) awaitNextRequest(socket, state, KEEP_ALIVE_GRACE_MS)
        else awaitNextRequest(socket, state, FIRST_REQUEST_GRACE_MS)
      }
      const hardStop = setTimeout(() => {
        for (const socket of connections) socket.destroy()
      }, graceMs)
      await stopped
      clearTimeout(hardStop)
    },
  }
}

/**
 * A connection with no request in flight gets `ms` to send one (answered with `Connection:
 * close`, after which it ends); if none came, it is closed: ended (FIN) when it was answered
 * before, destroyed when it never sent anything.
 */
function awaitNextRequest(socket: Socket, state: Tracked, ms: number): void {
  const requestsBefore = state.requests
  // Checked after a poll phase: on a busy event loop the timer fires before the socket's
  // waiting bytes (its request) are read.
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (state.requests !== requestsBefore) return // answered with `Connection: close`, which ends it
        if (requestsBefore === 0) socket.destroy()
        else socket.end()
      }),
    ms,
  )
  socket.once('close', () => clearTimeout(timer))
}

/**
 * Stops the servers' listening and resolves once every connection is gone. Node's `close()` would
 * also end the connections it thinks idle, a new one still sending its request among them: the
 * drain decides instead.
 */
function stopListening(servers: ReadonlyArray<HttpServer | HttpsServer>): Promise<unknown> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((done) => {
          server.closeIdleConnections = () => undefined
          server.close(() => done())
        }),
    ),
  )
}

/**
 * Turns of the event loop's poll phase until none has accepted anything (`accepted()` did not
 * move) for `QUIET_MS` and `QUIET_TURNS` turns both, at most `ACCEPT_WINDOW_MS`: the kernel may
 * still queue hundreds of connections that came before the signal, a turn may take one of them,
 * and a signal handler runs in the same pass as the accept: one idle turn proves nothing; a
 * descheduled process passes time without turns: time alone neither.
 */
async function acceptWhatIsQueued(accepted: () => number): Promise<void> {
  const started = performance.now()
  let acceptedCount = accepted()
  let quietSince = started
  let quietTurns = 0
  while (performance.now() - started < ACCEPT_WINDOW_MS) {
    await new Promise((resolve) => setImmediate(resolve))
    if (accepted() !== acceptedCount) {
      acceptedCount = accepted()
      quietSince = performance.now()
      quietTurns = 0
    } else if (++quietTurns >= QUIET_TURNS && performance.now() - quietSince >= QUIET_MS) return
  }
}
