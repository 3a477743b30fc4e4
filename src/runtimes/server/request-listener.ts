import type { IncomingMessage, ServerResponse } from 'node:http'
import { maskQuery } from '../../console/request-log.ts'
import { maskSecrets } from '../../contract/key-format.ts'
import type { TmapsAnswer } from '../../core/answers.ts'
import type { TmapsMockCore } from '../../core/create-core.ts'
import { PathTarget } from '../../core/request-target.ts'
import { CONTROL_BODY_LIMIT, CONTROL_PREFIX, nodeRequestView } from './node-request.ts'
import type { RequestLine } from './request-line.ts'
import { SECURITY_HEADERS } from './security-headers.ts'

/** What the request listener is given: the mock, its scheme, the control API's listener, the line printer. */
interface RequestListenerOptions {
  mock: TmapsMockCore
  /** The HTTPS listener (`true`) or the plain-HTTP one, where every request gets the contract's 403. */
  secure: boolean
  /** The control API under `/__console/` (HTTPS only): a listener that writes its answer and status. */
  control?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<number>
  onRequest?: (line: RequestLine) => void
}

/**
 * The server's request listener, for `node:https` (and the plain-HTTP one): `/__console/...` goes
 * to the control API's listener; any other path is a TMaps request, decided on the TMaps host its
 * path routes to (the mock routes it: the tiles' for `/r-tile/...`), answered through the mock's
 * one door and written back by `writeAnswer`. A remembered answer is written in the turn the
 * request was read and the listener returns nothing; otherwise it returns a promise that settles
 * once the answer is written (what `trackConnections` waits for). Never throws or rejects: a bug is a 500
 * `{"error":"internal error"}`, said on stderr.
 * @example createServer(tls).on('request', tmapsRequestListener({ mock, secure: true }))
 */
export function tmapsRequestListener({ mock, secure, control, onRequest }: RequestListenerOptions) {
  const scheme = secure ? 'https:' : 'http:'
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    if (req.socket.destroyed) return // the client left
    console.error('tmaps-mock: the server failed (this is a bug in tmaps-mock, please report it):', error)
    if (!res.headersSent)
      res.writeHead(500, 'Internal Server Error', { 'Content-Type': 'application/json', ...SECURITY_HEADERS })
    res.end('{"error":"internal error"}')
  }
  const writeAndLog = (req: IncomingMessage, res: ServerResponse, answer: TmapsAnswer, started: number) => {
    writeAnswer(req, res, answer)
    if (!onRequest) return
    const status = answer.network ? 0 : answer.status
    onRequest(line(req.method, req.url ?? '/', status, answer.rule ?? '', started, answer.source))
  }
  return (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    // The line's duration: the clock is read only when a line is printed.
    const started = onRequest ? performance.now() : 0
    const path = req.url ?? '/'
    try {
      if (control && isControlPath(path)) {
        return control(req, res, path)
          .then((status) => onRequest?.(line(req.method, path, status, 'control-api', started)))
          .catch((error: unknown) => failed(req, res, error))
      }
      // A person who opens the server's root in a browser gets the console page, not TMaps's 401.
      if (control && path === '/' && req.method === 'GET' && req.headers.accept?.includes('text/html')) {
        res
          .writeHead(303, 'See Other', {
            Location: `${CONTROL_PREFIX}/`,
            'Content-Length': '0',
            ...SECURITY_HEADERS,
          })
          .end()
        onRequest?.(line(req.method, path, 303, 'console-page', started))
        return undefined
      }
      // The mock routes the path to its TMaps host, and splits it only if it decides: a remembered
      // request is found by its path as it came.
      const target = new PathTarget(scheme, path)
      const view = nodeRequestView(req, target, CONTROL_BODY_LIMIT)
      // The log shows the host the client asked. From the raw headers: `req.headers` is built when read.
      const host = view.headers.get('host')
      // One door: a remembered answer comes at once and is written in this same turn, as a bare
      // node:https handler would (a turn of promises per request is a cost the bench sees).
      const answered = mock.answer(view, host === null ? { url: target } : { url: target, host })
      if (!(answered instanceof Promise)) return void writeAndLog(req, res, answered, started)
      return answered
        .then((answer) => writeAndLog(req, res, answer, started))
        .catch((error: unknown) => failed(req, res, error))
    } catch (error) {
      failed(req, res, error)
      return undefined
    }
  }
}

/**
 * An answer's headers with `SECURITY_HEADERS`, made once per headers object: a remembered answer
 * (the same headers object each time) is written with no new object, and in one `writeHead`
 * (a `setHeader` each before it costs more).
 */
const secured = new WeakMap<TmapsAnswer['headers'], Record<string, string>>()
function securedHeaders(headers: TmapsAnswer['headers']): Record<string, string> {
  let all = secured.get(headers)
  if (all === undefined) {
    all = { ...headers, ...SECURITY_HEADERS }
    secured.set(headers, all)
  }
  return all
}

/**
 * The Node server's write-back: the answer's status line, its headers and `SECURITY_HEADERS`, and
 * its bytes, or a reset connection (an injected fault).
 */
function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: TmapsAnswer): void {
  if (answer.network === 'reset') {
    req.socket.destroy()
    return
  }
  if (res.destroyed) return // the client left
  res.writeHead(answer.status, answer.statusText, securedHeaders(answer.headers))
  res.end(answer.body ?? undefined)
}

/** `/__console`, `/__console/...` or `/__console?...`: the control API's paths. */
function isControlPath(path: string): boolean {
  if (!path.startsWith(CONTROL_PREFIX)) return false
  const next = path.charCodeAt(CONTROL_PREFIX.length)
  return Number.isNaN(next) || next === 0x2f || next === 0x3f // end, '/', '?'
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

/**
 * A request's path and query as the log shows them: every `api_key` value masked whatever its shape, and
 * anything key-shaped.
 */
function maskedPath(path: string): string {
  const at = path.indexOf('?')
  return at < 0 ? maskSecrets(path) : maskSecrets(path.slice(0, at)) + maskQuery(path.slice(at))
}
