import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { isIP } from 'node:net'
import type { CreatedKey } from '../../console/create-console.ts'
import { maskQuery } from '../../console/request-log.ts'
import { maskSecrets } from '../../contract/key-format.ts'
import { STATUS_TEXT, type TmapsAnswer } from '../../core/answers.ts'
import { createCore, type TmapsMockCore, type TmapsMockOptions } from '../../core/create-core.ts'
import { hostOfPath } from '../../endpoints/registry.ts'
import { sharedRenderPool } from '../node/render-pool.ts'
import { localCertificate } from './certificate.ts'
import { trackConnections } from './drain.ts'
import {
  BodyTooLargeError,
  CONTROL_BODY_LIMIT,
  CONTROL_PREFIX,
  controlRequestProblem,
  nodeRequestView,
  splitTarget,
  toFetchRequest,
} from './node-request.ts'

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
 * The server's `upstream` option (`tmaps-mock serve --upstream`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsUpstreamOptions } from 'tmaps-mock/server'
 *
 * const upstream: TmapsUpstreamOptions = {
 *   api: 'https://api.tmaps.tn', // the defaults
 *   tiles: 'https://tiles.tmaps.tn',
 *   key: process.env.TMAPS_KEY ?? '', // the real key: from the environment, never from code
 *   record: 'tmaps.har', // optional: every exchange, keys replaced by {{api_key}}
 *   timeoutMs: 15_000,
 * }
 * assert.equal(upstream.browserHeaders, undefined) // default: Origin and Referer forwarded
 * ```
 */
export interface TmapsUpstreamOptions {
  /** The real API's origin. Default `https://api.tmaps.tn`. */
  api?: string
  /** The real tiles' origin. Default `https://tiles.tmaps.tn`. */
  tiles?: string
  /** The real key. Never printed, logged or recorded. */
  key: string
  /** A certificate authority (PEM text or file) to trust besides the system's. */
  ca?: string
  /** TMaps slower than this (ms) gets a 504 `{"error":"upstream timeout"}`. Default 15000. */
  timeoutMs?: number
  /** `false`: send no `Origin`/`Referer` to TMaps, as a server-side caller. Default `true`: as the app sent them. */
  browserHeaders?: boolean
  /** A HAR file to record every exchange to (`0600`, rewritten atomically after each). */
  record?: string
}

/**
 * One answered request, as a dev server prints it; the path's key is masked.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { get } from 'node:https'
 * import { type RequestLine, startTmapsHttpsServer } from 'tmaps-mock/server'
 *
 * const lines: RequestLine[] = []
 * const server = await startTmapsHttpsServer({
 *   port: 0,
 *   state: 'empty',
 *   onRequest: (line) => lines.push(line),
 * })
 * await new Promise((resolve, reject) => {
 *   get(
 *     `${server.url}/geocoding/forward?q=Sfax&api_key=ak_${'0'.repeat(32)}`,
 *     { ca: server.ca },
 *     (response) => response.resume().on('end', resolve),
 *   ).on('error', reject)
 * })
 * await server.close()
 * assert.equal(lines[0]?.status, 401)
 * assert.equal(lines[0]?.path, '/geocoding/forward?q=Sfax&api_key=ak_0000…') // the key masked
 * ```
 */
export interface RequestLine {
  time: Date
  method: string
  /** Path and query, any key masked (`?api_key=ak_1a2b…`). */
  path: string
  /** 0 for a connection reset on purpose (an injected fault). */
  status: number
  rule: string
  ms: number
  /** `upstream`, `replay` or `replay-miss` when the answer did not come from the mock. */
  source?: 'upstream' | 'replay' | 'replay-miss'
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
 * MSW handlers; the control API under `/__console/` sits behind its gate (this machine only,
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
    mock: given,
    consoleOrigins = [],
    consoleToken,
    onRequest,
    upstream,
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
  if (
    consoleToken !== undefined &&
    (typeof consoleToken !== 'string' ||
      consoleToken.length < MIN_TOKEN_LENGTH ||
      !/^[\x21-\x7e]+$/.test(consoleToken))
  )
    throw new TypeError(
      `Failed to start the TMaps server: the console token must be at least ${MIN_TOKEN_LENGTH} visible characters, with no spaces (got ${typeof consoleToken === 'string' ? `${consoleToken.length} characters` : typeof consoleToken}; an unset shell variable gives an empty one). Leave it out to have one made, or use e.g. $(openssl rand -hex 16).`,
    )
  const exposed = !LOOPBACK_HOSTS.has(host)
  const token = consoleToken ?? (exposed ? randomBytes(16).toString('hex') : undefined)
  const tls =
    cert && key ? { cert: pem(cert, 'cert'), key: pem(key, 'key') } : await localCertificate(certDir)
  // The runtime-free core: msw is not loaded by the server at all (it starts faster, idles smaller).
  // Pictures drawn in worker threads: the answering thread only decides, queues and sends.
  if (upstream && given)
    throw new TypeError(
      'Failed to start the TMaps server: give upstream or mock, not both (upstream makes its own mock).',
    )
  let keyName = (_id: string | null): string | null => null
  const forward = upstream && (await startUpstream(upstream, (id) => keyName(id)))
  const mock: TmapsMockCore =
    given ??
    createCore({ renderer: sharedRenderPool(), ...mockOptions }, forward ? { source: forward.source } : {})
  keyName = (id) => (id === null ? null : (mock.console.getKey({ id })?.name ?? null))
  const { createdKeys } = await mock.ready
  const gate = {
    origins: consoleOrigins,
    ...(token !== undefined && { token }),
    hosts: exposed && isIP(host) === 0 ? [host] : [],
  }
  // The control API (on Hono) loads with its first request: an API-only server never pays for it.
  let control: Promise<(request: Request) => Promise<Response>> | undefined
  const controlAnswer = async (request: Request): Promise<Response> => {
    control ??= import('./control-api.ts').then(({ createControlApi }) => createControlApi(mock, gate))
    return (await control)(request)
  }
  const api = new URL(mock.options.baseUrl).host
  const tiles = new URL(mock.options.tilesUrl).host

  /** Every request of either listener: the control API (HTTPS only), else the TMaps host its path belongs to. */
  const handle = (secure: boolean) => async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now()
    const path = req.url ?? '/'
    const query = path.indexOf('?')
    const pathname = query < 0 ? path : path.slice(0, query)
    const scheme = secure ? 'https:' : 'http:'
    try {
      if (secure && (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`))) {
        let response: Response
        const problem = controlRequestProblem(req.method, req.headers.host)
        try {
          response = problem
            ? Response.json(
                { error: problem.error },
                {
                  status: problem.status,
                  statusText: STATUS_TEXT[problem.status],
                  headers: problem.headers ?? {},
                },
              )
            : await controlAnswer(
                await toFetchRequest(req, res, `https://${req.headers.host}${path}`, SERVER_BODY_LIMIT),
              )
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error
          response = Response.json(
            { error: `The request body is larger than ${SERVER_BODY_LIMIT / 1024 / 1024} MB.` },
            { status: 413, statusText: 'Content Too Large' },
          )
        }
        await writeResponse(res, response)
        onRequest?.(line(req.method, path, response.status, 'control-api', started))
        return
      }
      // The TMaps host this path belongs to, same scheme: the contract decides on that URL.
      const target = splitTarget(scheme, hostOfPath(pathname) === 'tiles' ? tiles : api, path)
      const view = nodeRequestView(req, target.href, SERVER_BODY_LIMIT)
      // One door: a remembered answer comes at once and is written in this same turn, as a bare
      // node:https handler would (issue #22: a turn of promises per cached request was ~3% of CPU).
      const given = mock.answer(view, { url: target })
      const answer = given instanceof Promise ? await given : given
      writeAnswer(req, res, answer)
      onRequest?.(
        line(req.method, path, answer.network ? 0 : answer.status, answer.rule ?? '', started, answer.source),
      )
    } catch (error) {
      if (req.socket.destroyed) return // the client left
      console.error('tmaps-mock: the server failed (this is a bug in tmaps-mock, please report it):', error)
      if (!res.headersSent)
        res.writeHead(500, 'Internal Server Error', { 'Content-Type': 'application/json' })
      res.end('{"error":"internal error"}')
    }
  }

  const listeners: Array<HttpServer | HttpsServer> = []
  const drain = trackConnections()
  const listen = async (secure: boolean, onPort: number, hostname: string) => {
    const server = secure ? createHttpsServer({ cert: tls.cert, key: tls.key }) : createHttpServer()
    drain.watch(server) // first: it sees each request before its answer is written
    server.on('request', handle(secure))
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
      ...(forward?.recorder && { recorded: () => forward.recorder!.size }),
    }
  } catch (error) {
    for (const l of listeners) {
      l.closeAllConnections()
      l.close()
    }
    throw error
  }
}

/** The Node server's write-back: the answer's status line, headers and bytes, or a reset connection (an injected fault). */
export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: TmapsAnswer): void {
  if (answer.network === 'reset') {
    req.socket.destroy()
    return
  }
  if (res.destroyed) return // the client left
  res.writeHead(answer.status, answer.statusText, answer.headers)
  res.end(answer.body ?? undefined)
}

/** Writes a fetch `Response` (the control API's) to Node, streaming its body with backpressure. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const reason = response.statusText || (STATUS_TEXT[response.status] ?? '')
  res.writeHead(response.status, reason, Object.fromEntries(response.headers))
  if (response.body === null) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  res.once('close', () => void reader.cancel().catch(() => undefined))
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
    if (done || res.destroyed) break
    if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve))
  }
  res.end()
}

function line(
  method: string | undefined,
  path: string,
  status: number,
  rule: string,
  started: number,
  source?: RequestLine['source'],
): RequestLine {
  return {
    time: new Date(),
    method: method ?? 'GET',
    path: maskedPath(path),
    status,
    rule,
    ms: performance.now() - started,
    ...(source && { source }),
  }
}

/** A request's path and query as the log shows them: every `api_key` value masked whatever its shape, and anything key-shaped. */
function maskedPath(path: string): string {
  const at = path.indexOf('?')
  return at < 0 ? maskSecrets(path) : maskSecrets(path.slice(0, at)) + maskQuery(path.slice(at))
}

/** The upstream source and its recorder, checked before anything listens. */
async function startUpstream(options: TmapsUpstreamOptions, keyName: (id: string | null) => string | null) {
  const fail = (why: string): never => {
    throw new TypeError(`Failed to start the TMaps server: upstream ${why}.`)
  }
  const origin = (name: string, value: string) => {
    if (!URL.canParse(value)) fail(`${name} ${JSON.stringify(value)} is not a URL; write it as https://host`)
    const url = new URL(value)
    if (url.protocol !== 'https:')
      fail(`${name} must be https:// (TMaps refuses plain HTTP), got ${url.protocol}`)
    return url.origin
  }
  if (typeof options.key !== 'string' || options.key.trim() === '')
    fail('key is empty: give the real key (from an environment variable, e.g. --upstream-key-env TMAPS_KEY)')
  const api = origin('api', options.api ?? 'https://api.tmaps.tn')
  const tiles = origin('tiles', options.tiles ?? 'https://tiles.tmaps.tn')
  const ca = options.ca === undefined ? undefined : pem(options.ca, 'upstream CA')
  const { createHarRecorder } = await import('../../upstream/recorder.ts')
  const { createUpstream } = await import('../../upstream/forward.ts')
  let recorder: ReturnType<typeof createHarRecorder> | undefined
  if (options.record !== undefined) {
    try {
      recorder = createHarRecorder({
        path: options.record,
        mockVersion: packageVersion(),
        secrets: () => [options.key],
        keyName,
      })
    } catch (error) {
      fail(`cannot write the recording ${options.record} (${(error as Error).message})`)
    }
  }
  const source = createUpstream({
    api,
    tiles,
    key: options.key,
    ...(ca !== undefined && { ca }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.browserHeaders !== undefined && { browserHeaders: options.browserHeaders }),
    ...(recorder && { onExchange: (exchange) => void recorder.add(exchange) }),
  })
  return { source, recorder }
}

/** This package's version, for a recording's `_tmaps.mockVersion`. */
function packageVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        version: string
      }
    ).version
  } catch {
    return 'unknown'
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
