import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { FastResponse, type Server, serve } from 'srvx'
import type { CreatedKey } from '../../src/console/create-console.ts'
import { CONTROL_PREFIX, createControlApi } from '../../src/control/control-api.ts'
import type { TmapsMockOptions } from '../../src/core/create-core.ts'
import { hostOfPath } from '../../src/endpoints/registry.ts'
import { createTmapsMock, type TmapsMock } from '../create-tmaps-mock.ts'
import { localCertificate } from './certificate.ts'

export interface TmapsServerOptions extends TmapsMockOptions {
  /** Address to listen on. Default `127.0.0.1` (loopback only). */
  host?: string
  /** HTTPS port; `0` picks a free one. Default 8443. */
  port?: number
  /** Also listen on plain HTTP here, where every request gets the contract's 403. */
  httpPort?: number
  /** Your own certificate and key (PEM text or file paths); default: the mock's local CA. */
  cert?: string
  key?: string
  /** Where the generated CA and certificate are kept. Default `~/.cache/tmaps-mock`. */
  certDir?: string
  /** Serve this mock instead of creating one (its handlers, console and log). */
  mock?: TmapsMock
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
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}

/**
 * The TMaps mock on real sockets: one HTTPS origin answers the API paths and the tile paths
 * (`/r-tile/...`) through the contract pipeline the MSW handlers wrap (`mock.fetch`; going
 * through msw's `getResponse` as well costs a third of the throughput and decides nothing
 * differently), with the control API under `/__console/`. Real clients send real `Origin` and
 * `Referer` headers; CORS is answered.
 * @example const server = await startTmapsServer({ port: 0, state: 'empty' }); await server.close()
 */
export async function startTmapsServer(options: TmapsServerOptions = {}): Promise<TmapsServer> {
  const {
    host = '127.0.0.1',
    port = 8443,
    httpPort,
    cert,
    key,
    certDir,
    mock: given,
    ...mockOptions
  } = options
  checkPort('port', port)
  if (httpPort !== undefined) checkPort('httpPort', httpPort)
  if ((cert === undefined) !== (key === undefined)) {
    throw new TypeError(
      'Failed to start the TMaps server: give both cert and key, or neither (a local CA is used).',
    )
  }
  const tls =
    cert && key ? { cert: pem(cert, 'cert'), key: pem(key, 'key') } : await localCertificate(certDir)
  const mock = given ?? createTmapsMock(mockOptions)
  const { createdKeys } = await mock.ready
  const control = createControlApi(mock)
  const api = new URL(mock.options.baseUrl).host
  const tiles = new URL(mock.options.tilesUrl).host

  /** Every request of either listener: the control API, else the TMaps host its path belongs to. */
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      if (request.method === 'OPTIONS') {
        const preflight = new Headers({
          'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
          'Access-Control-Allow-Headers':
            request.headers.get('access-control-request-headers') ?? 'Content-Type',
        })
        return withCors(request, new Response(null, { status: 204, headers: preflight }))
      }
      return withCors(request, await control(request))
    }
    // The TMaps host this path belongs to, same scheme: the contract decides on that URL.
    const target = `${url.protocol}//${hostOfPath(url.pathname) === 'tiles' ? tiles : api}${url.pathname}${url.search}`
    const { status, headers, body } = await mock.answer(request, { url: target })
    return new FastResponse(body, { status, headers })
  }

  const listeners: Server[] = []
  const listen = async (protocol: 'https' | 'http', onPort: number) => {
    const server = serve({
      fetch,
      hostname: host,
      port: onPort,
      protocol,
      ...(protocol === 'https' && { tls: { cert: tls.cert, key: tls.key } }),
      silent: true,
      gracefulShutdown: false,
      // HTTP/1.1 over TLS, as most API clients speak it (srvx would offer HTTP/2 on TLS).
      node: { http2: false },
    })
    listeners.push(server)
    await server.ready()
    return server
  }
  try {
    const secure = await listen('https', port)
    const plain = httpPort === undefined ? undefined : await listen('http', httpPort)
    const shown = isIP(host) === 0 ? host : host === '127.0.0.1' || host === '::1' ? 'localhost' : host
    const portOf = (server: Server) => new URL(server.url!).port
    return {
      mock,
      createdKeys,
      url: `https://${shown}:${portOf(secure)}`,
      ...(plain && { httpUrl: `http://${shown}:${portOf(plain)}` }),
      ...('ca' in tls && tls.ca && { ca: tls.ca, caPath: tls.caPath }),
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

/** The control API answers browsers on any origin too (it is served on loopback by default). */
function withCors(request: Request, response: Response): Response {
  const headers = new Headers(response.headers)
  headers.set('Access-Control-Allow-Origin', request.headers.get('origin') ?? '*')
  headers.set('Vary', 'Origin')
  return new Response(response.body, { status: response.status, headers })
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
