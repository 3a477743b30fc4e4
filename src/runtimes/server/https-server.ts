import { randomBytes } from 'node:crypto'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { isIP } from 'node:net'
import type { CreatedKey } from '../../console/create-console.ts'
import { createCore, type TmapsMockCore, type TmapsMockOptions } from '../../core/create-core.ts'
import { sharedRenderPool } from '../../offload/render-pool.ts'
import { startUpstream, type TmapsUpstreamOptions } from '../../upstream/upstream-options.ts'
import { localCertificate, pem } from './certificate.ts'
import { answerClientError } from './client-error.ts'
import { controlListener } from './control-listener.ts'
import { trackConnections } from './drain.ts'
import { CONTROL_BODY_LIMIT } from './node-request.ts'
import type { RequestLine } from './request-line.ts'
import { tmapsRequestListener } from './request-listener.ts'

export type { TmapsUpstreamOptions } from '../../upstream/upstream-options.ts'
export type { RequestLine } from './request-line.ts'

/**
 * The options of `startTmapsHttpsServer()`: every `createTmapsMock` option, plus the server's own.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { startTmapsHttpsServer, type TmapsHttpsServerOptions } from 'tmaps-mock/server'
 *
 * const options: TmapsHttpsServerOptions = {
 *   port: 0, // default 8443
 *   host: 'localhost', // the default: this machine only
 *   consoleOrigins: ['http://localhost:5173'], // a page there may drive /__console/
 *   state: 'empty', // and every other createTmapsMock option
 * }
 * const server = await startTmapsHttpsServer(options)
 * await server.close()
 * assert.match(server.url, /^https:\/\/localhost:\d+$/)
 * ```
 */
export interface TmapsHttpsServerOptions extends TmapsMockOptions {
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
  mock?: TmapsMockCore
  /** Browser origins allowed to call the control API (CORS); default none. */
  consoleOrigins?: string[]
  /**
   * The control API's token (`Authorization: Bearer <token>`). Default: none on loopback; a
   * random one when `host` exposes the server, returned as `consoleToken`.
   */
  consoleToken?: string
  /** Called after every answer with one line's facts (the CLI prints them). */
  onRequest?: (line: RequestLine) => void
  /**
   * A checking proxy: each request the local contract accepts (the local console's keys and
   * domains) is forwarded to the real TMaps with `key` in place of the local key, and TMaps's
   * answer comes back as it is, logged `upstream`; `record` writes every exchange to a HAR file,
   * keys replaced by `{{api_key}}`. See docs/upstream.md.
   */
  upstream?: TmapsUpstreamOptions
}

/**
 * A running HTTPS mock: its URL, its mock, its CA and `close()`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { startTmapsHttpsServer, type TmapsHttpsServer } from 'tmaps-mock/server'
 *
 * const server: TmapsHttpsServer = await startTmapsHttpsServer({ port: 0 }) // the demo console
 * await server.close()
 * assert.ok(server.createdKeys.every((key) => key.value.startsWith('ak_'))) // shown this once
 * // Trust it once: NODE_EXTRA_CA_CERTS=<caPath> for Node, curl --cacert <caPath>.
 * assert.ok(server.caPath?.endsWith('tmaps-mock-ca.pem'))
 * ```
 */
export interface TmapsHttpsServer {
  /** The mock it serves: its console, log, usage and faults (no MSW handlers: the server needs none). */
  readonly mock: TmapsMockCore
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
  /** With `upstream.record`: how many exchanges the file holds. */
  readonly recorded?: () => number
}

/**
 * The largest request body the server reads (8 MiB); a larger one is answered 413.
 *
 * TMaps bodies are small; a snapshot of ~40,000 keys fits.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { request } from 'node:https'
 * import { SERVER_BODY_LIMIT, startTmapsHttpsServer } from 'tmaps-mock/server'
 *
 * const server = await startTmapsHttpsServer({ port: 0, state: 'empty' })
 * const key = await server.mock.console.createKey({ name: 'Backend' })
 * const status = await new Promise((resolve, reject) => {
 *   const upload = request(`${server.url}/distance-matrix?api_key=${key.value}`, {
 *     method: 'POST',
 *     ca: server.ca,
 *   })
 *   upload.on('error', reject).on('response', (response) => {
 *     resolve(response.statusCode)
 *     upload.destroy() // refused on its Content-Length: stop sending the rest
 *   })
 *   upload.end(Buffer.alloc(SERVER_BODY_LIMIT + 1)) // one byte too many
 * })
 * await server.close()
 * assert.equal(status, 413)
 * ```
 */
export const SERVER_BODY_LIMIT = CONTROL_BODY_LIMIT
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1'])
/** The shortest console token the server takes: a guessable one would open every key to the network. */
const MIN_TOKEN_LENGTH = 16

/**
 * Starts the TMaps mock on real sockets: one HTTPS origin for the API, the tiles and the control API.
 *
 * The API paths and the tile paths (`/r-tile/...`) go through the same contract pipeline as the
 * MSW handlers; the control API under `/__console/` sits behind its access checks (this machine only,
 * allowed origins only, JSON writes, a token when exposed). Real clients send real `Origin` and
 * `Referer` headers; CORS is answered as the contract says. Options: those of
 * `createTmapsMock`, plus `host` `localhost`, `port` 8443 (`0`: a free one), `httpPort` off,
 * `cert`/`key` the local CA's, `certDir` `~/.cache/tmaps-mock`, `mock` a new one,
 * `consoleOrigins` none, `consoleToken` none on loopback, `onRequest` none. Close it with
 * `close()`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { get } from 'node:https'
 * import { startTmapsHttpsServer } from 'tmaps-mock/server'
 *
 * const server = await startTmapsHttpsServer({ port: 0, state: 'empty' }) // port 0: a free one
 * const key = await server.mock.console.createKey({ name: 'Mobile app' })
 * const status = await new Promise((resolve, reject) => {
 *   // Trust the mock's CA: here by `ca`; for any Node client, NODE_EXTRA_CA_CERTS=<caPath>.
 *   get(
 *     `${server.url}/geocoding/forward?q=Sfax&api_key=${key.value}`,
 *     { ca: server.ca },
 *     (response) => resolve(response.resume().statusCode),
 *   ).on('error', reject)
 * })
 * await server.close()
 * assert.equal(status, 200)
 * ```
 */
export async function startTmapsHttpsServer(
  options: TmapsHttpsServerOptions = {},
): Promise<TmapsHttpsServer> {
  const {
    host = 'localhost',
    port = 8443,
    httpPort,
    cert,
    key,
    certDir,
    mock: userMock,
    consoleOrigins = [],
    consoleToken,
    onRequest,
    upstream,
    ...mockOptions
  } = options
  checkOptions(options)
  const exposed = !LOOPBACK_HOSTS.has(host)
  const token = consoleToken ?? (exposed ? randomBytes(16).toString('hex') : undefined)
  const tls =
    cert && key ? { cert: pem(cert, 'cert'), key: pem(key, 'key') } : await localCertificate(certDir)
  // The runtime-free core: msw is not loaded by the server at all (it starts faster, idles smaller).
  // Pictures and heavy JSON made in render processes: the answering thread only decides, queues and sends.
  let keyName = (_id: string | null): string | null => null
  const forward = upstream && (await startUpstream(upstream, (id) => keyName(id)))
  const recorder = forward?.recorder
  const mock: TmapsMockCore =
    userMock ??
    createCore({ renderer: sharedRenderPool(), ...mockOptions }, forward ? { source: forward.source } : {})
  keyName = (id) => (id === null ? null : (mock.console.getKey({ id })?.name ?? null))
  const { createdKeys } = await mock.ready
  const access = {
    origins: consoleOrigins,
    ...(token !== undefined && { token }),
    hosts: exposed && isIP(host) === 0 ? [host] : [],
  }
  const control = controlListener(
    mock,
    access,
    SERVER_BODY_LIMIT,
    'caPath' in tls && tls.caPath ? { caPath: tls.caPath } : {},
  )
  const listenerOf = (secure: boolean) =>
    tmapsRequestListener({ mock, secure, ...(secure && { control }), ...(onRequest && { onRequest }) })

  const listeners: Array<HttpServer | HttpsServer> = []
  const drain = trackConnections()
  const listen = async (secure: boolean, onPort: number, hostname: string) => {
    const server = secure ? createHttpsServer({ cert: tls.cert, key: tls.key }) : createHttpServer()
    drain.watch(server)
    server.on('request', drain.counted(listenerOf(secure)))
    server.on('clientError', answerClientError)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(onPort, hostname, () => {
        server.off('error', reject)
        resolve()
      })
    })
    listeners.push(server)
    return server
  }
  const portOf = (server: HttpServer | HttpsServer) => (server.address() as AddressInfo).port
  /** `localhost` is both loopbacks: IPv4 first (its port is the one), then IPv6 when the machine has it. */
  const listenAll = async (secure: boolean, onPort: number) => {
    const first = await listen(secure, onPort, host === 'localhost' ? '127.0.0.1' : host)
    if (host === 'localhost') {
      await listen(secure, portOf(first), '::1').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRNOTAVAIL' && error.code !== 'EAFNOSUPPORT') throw error
      })
    }
    return first
  }
  try {
    const secure = await listenAll(true, port)
    const plain = httpPort === undefined ? undefined : await listenAll(false, httpPort)
    const shown = isIP(host) === 0 ? host : host === '127.0.0.1' || host === '::1' ? 'localhost' : host
    return {
      mock,
      createdKeys,
      url: `https://${shown}:${portOf(secure)}`,
      ...(plain && { httpUrl: `http://${shown}:${portOf(plain)}` }),
      ...('ca' in tls && tls.ca && { ca: tls.ca, caPath: tls.caPath }),
      ...(token !== undefined && { consoleToken: token }),
      // Every request already received is answered (within CLOSE_GRACE_MS), then the server stops.
      close: async () => {
        await drain.close()
        forward?.source.close()
      },
      ...(recorder && { recorded: () => recorder.size }),
    }
  } catch (error) {
    for (const l of listeners) {
      l.closeAllConnections()
      l.close()
    }
    throw error
  }
}

/** The server's own options, checked before anything starts: each bad one says how to fix it. */
function checkOptions(options: TmapsHttpsServerOptions): void {
  const { port = 8443, httpPort, cert, key, consoleOrigins = [], consoleToken, upstream, mock } = options
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
  if (
    consoleToken !== undefined &&
    (typeof consoleToken !== 'string' ||
      consoleToken.length < MIN_TOKEN_LENGTH ||
      !/^[\x21-\x7e]+$/.test(consoleToken))
  )
    throw new TypeError(
      `Failed to start the TMaps server: the console token must be at least ${MIN_TOKEN_LENGTH} visible characters, with no spaces (got ${typeof consoleToken === 'string' ? `${consoleToken.length} characters` : typeof consoleToken}; an unset shell variable gives an empty one). Leave it out to have one made, or use e.g. $(openssl rand -hex 16).`,
    )
  if (upstream && mock)
    throw new TypeError(
      'Failed to start the TMaps server: give upstream or mock, not both (upstream makes its own mock).',
    )
}

function checkPort(name: string, port: number) {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(
      `Failed to start the TMaps server: ${name} must be an integer from 0 to 65535, got ${port}.`,
    )
  }
}

/**
 * The old name of {@link startTmapsHttpsServer}.
 * @deprecated Renamed {@link startTmapsHttpsServer} in 0.2.0; this alias goes in 0.3.0.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { startTmapsHttpsServer, startTmapsServer } from 'tmaps-mock/server'
 *
 * assert.equal(startTmapsServer, startTmapsHttpsServer) // the same function under its new name
 * ```
 */
export const startTmapsServer: typeof startTmapsHttpsServer = startTmapsHttpsServer
/**
 * The old name of {@link TmapsHttpsServer}.
 * @deprecated Renamed {@link TmapsHttpsServer} in 0.2.0; this alias goes in 0.3.0.
 * @example
 * ```ts
 * import {
 *   startTmapsHttpsServer,
 *   type TmapsHttpsServer,
 *   type TmapsServer,
 * } from 'tmaps-mock/server'
 *
 * const server: TmapsServer = await startTmapsHttpsServer({ port: 0, state: 'empty' })
 * const renamed: TmapsHttpsServer = server // the same type under its new name
 * await renamed.close()
 * ```
 */
export type TmapsServer = TmapsHttpsServer
/**
 * The old name of {@link TmapsHttpsServerOptions}.
 * @deprecated Renamed {@link TmapsHttpsServerOptions} in 0.2.0; this alias goes in 0.3.0.
 * @example
 * ```ts
 * import {
 *   startTmapsHttpsServer,
 *   type TmapsHttpsServerOptions,
 *   type TmapsServerOptions,
 * } from 'tmaps-mock/server'
 *
 * const options: TmapsServerOptions = { port: 0, state: 'empty' }
 * const renamed: TmapsHttpsServerOptions = options // the same type under its new name
 * await (await startTmapsHttpsServer(renamed)).close()
 * ```
 */
export type TmapsServerOptions = TmapsHttpsServerOptions
