import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { FastResponse, type Server, type ServerRequest, serve } from 'srvx'
import type { CreatedKey } from '../../src/console/create-console.ts'
import { maskSecrets } from '../../src/contract/key-format.ts'
import { CONTROL_BODY_LIMIT, CONTROL_PREFIX, createControlApi } from '../../src/control/control-api.ts'
import type { TmapsMockOptions } from '../../src/core/create-core.ts'
import { hostOfPath } from '../../src/endpoints/registry.ts'
import { createTmapsMock, type TmapsMock } from '../create-tmaps-mock.ts'
import { localCertificate } from './certificate.ts'
import { createControlGate } from './control-gate.ts'

export interface TmapsServerOptions extends TmapsMockOptions {
  /**
   * Address to listen on. Default `localhost`: both `127.0.0.1` and `::1`, this machine only.
   * Any other address exposes the server; the control API then requires a token.
   */
  host?: string
  /** HTTPS port; `0` picks a free one. Default 8443. */
  port?: number
  /** Also listen on plain HTTP here, where every request gets the contract's 403 (no control API). */
  httpPort?: number
  /** Your own certificate and key (PEM text or file paths); default: the mock's local CA. */
  cert?: string
  key?: string
  /** Where the generated CA and certificate are kept. Default `~/.cache/tmaps-mock`. */
  certDir?: string
  /** Serve this mock instead of creating one (its handlers, console and log). */
  mock?: TmapsMock
  /** Browser origins allowed to call the control API (CORS); default none. */
  consoleOrigins?: string[]
  /**
   * The control API's token (`Authorization: Bearer <token>`). Default: none on loopback; a
   * random one when `host` exposes the server, returned as `consoleToken`.
   */
  consoleToken?: string
  /** Called after every answer with one line's facts (the CLI prints them). */
  onRequest?: (line: RequestLine) => void
}

/** One answered request, as a dev server prints it. The path's key is masked. */
export interface RequestLine {
  time: Date
  method: string
  /** Path and query, any key masked (`?api_key=ak_1a2b…`). */
  path: string
  /** 0 for a connection reset on purpose (an injected fault). */
  status: number
  rule: string
  ms: number
}

export interface TmapsServer {
  readonly mock: TmapsMock
  /** `https://localhost:<port>` */
  readonly url: string
  /** `http://localhost:<httpPort>` when `httpPort` was given. */
  readonly httpUrl?: string
  /** The CA that signed the certificate (PEM) and its file, unless you brought your own. */
  readonly ca?: string
  readonly caPath?: string
  /** The keys the initial state created, with their full values (shown once, as the console does). */
  readonly createdKeys: CreatedKey[]
  /** The control API's token, when one is required (shown once, like a new key). */
  readonly consoleToken?: string
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}

/** The largest request body the server reads (TMaps bodies are small; a snapshot of ~40,000 keys fits). */
export const SERVER_BODY_LIMIT = CONTROL_BODY_LIMIT
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1'])

/**
 * The TMaps mock on real sockets: one HTTPS origin answers the API paths and the tile paths
 * (`/r-tile/...`) through the contract pipeline the MSW handlers wrap (`mock.answer`; going
 * through msw's `getResponse` as well costs a third of the throughput and decides nothing
 * differently), with the control API under `/__console/` behind its gate (this machine only,
 * allowed origins only, JSON writes, a token when exposed). Real clients send real `Origin` and
 * `Referer` headers; CORS is answered as the contract says.
 * @example const server = await startTmapsServer({ port: 0, state: 'empty' }); await server.close()
 */
export async function startTmapsServer(options: TmapsServerOptions = {}): Promise<TmapsServer> {
  const {
    host = 'localhost',
    port = 8443,
    httpPort,
    cert,
    key,
    certDir,
    mock: given,
    consoleOrigins = [],
    consoleToken,
    onRequest,
    ...mockOptions
  } = options
  checkPort('port', port)
  if (httpPort !== undefined) checkPort('httpPort', httpPort)
  if ((cert === undefined) !== (key === undefined)) {
    throw new TypeError(
      'Failed to start the TMaps server: give both cert and key, or neither (a local CA is used).',
    )
  }
  for (const origin of consoleOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
      throw new TypeError(
        `Failed to start the TMaps server: console origin ${JSON.stringify(origin)} is not an origin. Write it as scheme://host[:port], e.g. http://localhost:5173.`,
      )
    }
  }
  const exposed = !LOOPBACK_HOSTS.has(host)
  const token = consoleToken ?? (exposed ? randomBytes(16).toString('hex') : undefined)
  const tls =
    cert && key ? { cert: pem(cert, 'cert'), key: pem(key, 'key') } : await localCertificate(certDir)
  const mock = given ?? createTmapsMock(mockOptions)
  const { createdKeys } = await mock.ready
  const control = createControlApi(mock)
  const gate = createControlGate({
    origins: consoleOrigins,
    ...(token !== undefined && { token }),
    hosts: exposed && isIP(host) === 0 ? [host] : [],
  })
  const api = new URL(mock.options.baseUrl).host
  const tiles = new URL(mock.options.tilesUrl).host

  const controlAnswer = async (request: Request): Promise<Response> => {
    const verdict = gate(request)
    if ('refusal' in verdict) return verdict.refusal
    const response = await control(request)
    for (const [name, value] of Object.entries(verdict.cors)) response.headers.set(name, value)
    return response
  }

  /** Every request of either listener: the control API (HTTPS only), else the TMaps host its path belongs to. */
  const fetch = async (request: ServerRequest): Promise<Response> => {
    const started = performance.now()
    const url = new URL(request.url)
    const isControl = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)
    let response: Response
    let rule = 'control-api'
    if (isControl && url.protocol === 'https:') {
      response = await controlAnswer(request)
    } else {
      // The TMaps host this path belongs to, same scheme: the contract decides on that URL.
      const target = `${url.protocol}//${hostOfPath(url.pathname) === 'tiles' ? tiles : api}${url.pathname}${url.search}`
      const answer = await mock.answer(request, { url: target })
      rule = answer.rule ?? ''
      if (answer.network === 'reset') {
        // An injected network fault: no answer at all, the connection just fails.
        request.runtime?.node?.res?.destroy()
        request.runtime?.node?.req.socket.destroy()
      }
      response = new FastResponse(answer.body, {
        status: answer.network === 'reset' ? 500 : answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      })
      if (answer.network === 'reset') {
        onRequest?.(line(request, url, 0, rule, started))
        return response
      }
    }
    onRequest?.(line(request, url, response.status, rule, started))
    return response
  }

  const listeners: Server[] = []
  const listen = async (protocol: 'https' | 'http', onPort: number, hostname: string) => {
    const server = serve({
      fetch,
      hostname,
      port: onPort,
      protocol,
      ...(protocol === 'https' && { tls: { cert: tls.cert, key: tls.key } }),
      silent: true,
      gracefulShutdown: false,
      maxRequestBodySize: SERVER_BODY_LIMIT,
      // HTTP/1.1 over TLS, as most API clients speak it (srvx would offer HTTP/2 on TLS).
      node: { http2: false },
    })
    listeners.push(server)
    await server.ready()
    return server
  }
  /** `localhost` is both loopbacks: IPv4 first (its port is the one), then IPv6 when the machine has it. */
  const listenAll = async (protocol: 'https' | 'http', onPort: number) => {
    const first = await listen(protocol, onPort, host === 'localhost' ? '127.0.0.1' : host)
    if (host === 'localhost') {
      await listen(protocol, Number(new URL(first.url!).port), '::1').catch(
        (error: NodeJS.ErrnoException) => {
          listeners.pop()
          if (error.code !== 'EADDRNOTAVAIL' && error.code !== 'EAFNOSUPPORT') throw error
        },
      )
    }
    return first
  }
  try {
    const secure = await listenAll('https', port)
    const plain = httpPort === undefined ? undefined : await listenAll('http', httpPort)
    const shown = isIP(host) === 0 ? host : host === '127.0.0.1' || host === '::1' ? 'localhost' : host
    const portOf = (server: Server) => new URL(server.url!).port
    return {
      mock,
      createdKeys,
      url: `https://${shown}:${portOf(secure)}`,
      ...(plain && { httpUrl: `http://${shown}:${portOf(plain)}` }),
      ...('ca' in tls && tls.ca && { ca: tls.ca, caPath: tls.caPath }),
      ...(token !== undefined && { consoleToken: token }),
      async close() {
        // Requests in flight finish; connections a client keeps open idle are closed after 5 s.
        const graceful = Promise.all(listeners.map((l) => l.close()))
        const timer = setTimeout(() => void Promise.all(listeners.map((l) => l.close(true))), 5000)
        await graceful
        clearTimeout(timer)
      },
    }
  } catch (error) {
    await Promise.all(listeners.map((l) => l.close(true).catch(() => undefined)))
    throw error
  }
}

function line(request: Request, url: URL, status: number, rule: string, started: number): RequestLine {
  return {
    time: new Date(),
    method: request.method,
    path: maskSecrets(`${url.pathname}${url.search}`),
    status,
    rule,
    ms: performance.now() - started,
  }
}

function checkPort(name: string, port: number) {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(
      `Failed to start the TMaps server: ${name} must be an integer from 0 to 65535, got ${port}.`,
    )
  }
}

/** PEM text as given, or read from the file it names. */
function pem(value: string, name: string): string {
  if (value.includes('-----BEGIN')) return value
  try {
    return readFileSync(value, 'utf8')
  } catch (error) {
    throw new TypeError(
      `Failed to start the TMaps server: cannot read the ${name} file ${value} (${(error as Error).message}).`,
    )
  }
}
