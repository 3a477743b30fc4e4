import type { IncomingMessage, ServerResponse } from 'node:http'
import { STATUS_TEXT } from '../../core/answers.ts'
import type { TmapsMockCore } from '../../core/create-core.ts'
import { answerPlaygroundFile, builtPlayground } from '../playground/files.ts'
import type { ConsolePageOptions } from './console-page.ts'
import type { ControlAccessOptions } from './control-access.ts'
import { BodyTooLargeError, CONTROL_PREFIX, controlRequestProblem, toFetchRequest } from './node-request.ts'
import { SECURITY_HEADERS } from './security-headers.ts'

/**
 * `SECURITY_HEADERS` named as a `Headers` object names them (lower case): a page's own policy replaces the
 * CSP.
 */
const SECURITY_DEFAULTS = Object.fromEntries(
  Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
)

/**
 * The control API's request listener on the Node server: a request no Host or method could make
 * valid is refused before anything is read; any other becomes a fetch `Request` (its body within
 * `limit`: a larger one is 413) for the Hono app, loaded with the first request (an API-only
 * server never pays for it), whose `Response` is streamed back. Resolves with the status written.
 */
export function controlListener(
  mock: TmapsMockCore,
  access: ControlAccessOptions,
  limit: number,
  page: ConsolePageOptions = {},
) {
  let app: Promise<(request: Request) => Promise<Response>> | undefined
  const answer = async (request: Request): Promise<Response> => {
    app ??= import('./control-api.ts').then(({ createControlApi }) => createControlApi(mock, access, page))
    return (await app)(request)
  }
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<number> => {
    // The console page's own files (the package's, as `npm i` installed them: no state, no
    // secret) need no access check: a module script or a stylesheet cannot send the page token.
    if (path.startsWith(ASSETS)) return pageFile(req, res, path.slice(CONTROL_PREFIX.length))
    const problem = controlRequestProblem(req.method, req.headers.host)
    let response: Response
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
        : await answer(await toFetchRequest(req, res, `https://${req.headers.host}${path}`, limit))
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error
      response = Response.json(
        { error: `The request body is larger than ${limit / 1024 / 1024} MB.` },
        { status: 413, statusText: 'Content Too Large' },
      )
    }
    await writeResponse(res, response)
    return response.status
  }
}

/**
 * Writes a fetch `Response` (the control API's) to Node, streaming its body with backpressure,
 * with `SECURITY_HEADERS` unless it has its own (the console page's policy).
 */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const reason = response.statusText || (STATUS_TEXT[response.status] ?? '')
  res.writeHead(response.status, reason, { ...SECURITY_DEFAULTS, ...Object.fromEntries(response.headers) })
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

/** Where the console page's files are: `/__console/assets/…`, beside the page at `/__console/`. */
const ASSETS = `${CONTROL_PREFIX}/assets/`

/** One of the console page's files (`/assets/x.js`), or 404; answers with its status. */
function pageFile(req: IncomingMessage, res: ServerResponse, path: string): number {
  let root: string
  let decoded: string
  try {
    root = builtPlayground()
    decoded = decodeURIComponent(path.split('?')[0] ?? '')
  } catch {
    res
      .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
      .end('Not found.\n')
    return 404
  }
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value)
  answerPlaygroundFile(req, res, decoded, { root, page: '' })
  return res.statusCode
}
