import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { CONTROL_PREFIX } from './node-request.ts'

/** Who may drive the control API: the machine's own user, and the browser origins they allow. */
export interface ControlAccessOptions {
  /** Browser origins allowed to call the control API (`--console-origin`), e.g. `http://localhost:5173`. */
  origins?: readonly string[]
  /** Required in `Authorization: Bearer <token>` (or `X-TMaps-Console-Token`) when set. */
  token?: string
  /** Host names the server answers to besides loopback (the `--host` it listens on). */
  hosts?: readonly string[]
  /**
   * The token of the pages the server serves itself (the console page carries it), required in
   * `X-TMaps-Console-Page` of every browser request of the server's own origin. Without it, such a
   * request is refused (the page's own navigation aside).
   */
  pageToken?: string
}

/** The header in which a page served by the server itself (the console page) sends its page token. */
const CONSOLE_PAGE_HEADER = 'X-TMaps-Console-Page'

/** What the access checks and the page route read of a request: Hono's `c.req` is one. */
interface RequestFacts {
  readonly method: string
  header(name: string): string | undefined
}

/**
 * Whether a request may be given the console page: a browser's top-level navigation
 * (`Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`), or a client that sends no Fetch
 * Metadata (curl, Node), asking for HTML. A script's `fetch` (`cors`) or a frame (`iframe`) never
 * is, so no script reads the page token out of the page; a window a script opens is a top-level
 * navigation, which the page's `Cross-Origin-Opener-Policy: same-origin` cuts off from its opener.
 * @example isPageNavigation(c.req) // true for a tab opened on https://localhost:8443/__console/
 */
export function isPageNavigation(req: RequestFacts): boolean {
  if (req.method !== 'GET' || !req.header('accept')?.includes('text/html')) return false
  const mode = req.header('sec-fetch-mode')
  return mode === undefined || (mode === 'navigate' && req.header('sec-fetch-dest') === 'document')
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const refuse = (status: 401 | 403 | 415, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers })

type Context = Parameters<MiddlewareHandler>[0]

/**
 * The console token's rule for its two headers (`X-TMaps-Console-Token`, `Authorization: Bearer`):
 * at least one is sent, and every one sent is right. A wrong credential beside a right one still
 * refuses (a client that sends a stale token is told so).
 */
function tokenOk(c: Context, token: string | undefined): boolean {
  const header = c.req.header('x-tmaps-console-token')
  const authorization = c.req.header('authorization')
  const bearer = authorization?.match(/^Bearer\s+(.*)$/i)?.[1]
  if (token === undefined || (header === undefined && authorization === undefined)) return false
  return (
    (header === undefined || sameSecret(header, token)) &&
    (authorization === undefined || (bearer !== undefined && sameSecret(bearer, token)))
  )
}

/**
 * The page token's part of the access checks. A browser request of the server's own origin
 * (`Sec-Fetch-Site: same-origin`, or its `Origin`) is `'page'` (it may go on) with the page's
 * token or as the navigation to the page itself, and refused otherwise: a script that reached
 * this origin (a document made of an answer) is same-origin with the console, and only the
 * page's token tells the page apart. A wrong token is refused wherever it comes from; any other
 * request is `undefined`, for the origin checks that follow.
 */
function pageCheck(c: Context, pageToken: string | undefined): Response | 'page' | undefined {
  const page = c.req.header(CONSOLE_PAGE_HEADER)
  const pageOk = page !== undefined && pageToken !== undefined && sameSecret(page, pageToken)
  const own = new URL(c.req.url).origin
  if (c.req.header('sec-fetch-site') === 'same-origin' || c.req.header('origin') === own) {
    if (pageOk || (isPageNavigation(c.req) && isPagePath(c.req.path))) return 'page'
    const remedy =
      page === undefined
        ? `Open ${own}${CONTROL_PREFIX}/ in the browser, or call the API from a terminal.`
        : `The ${CONSOLE_PAGE_HEADER} sent is not this server's: reload the console page (the server restarted?).`
    return refuse(
      403,
      `The control API answers a script of its own origin (${own}) only from the console page, which sends its token in ${CONSOLE_PAGE_HEADER}: no other script that reached this origin may read or change the keys. ${remedy}`,
    )
  }
  if (page !== undefined && !pageOk)
    return refuse(
      403,
      `${CONSOLE_PAGE_HEADER} is not this server's page token: send none from a terminal or script (they need none), or reload the console page.`,
    )
  return undefined
}

/** `/__console` or `/__console/`: where the console page is. */
const isPagePath = (path: string) => path === CONTROL_PREFIX || path === `${CONTROL_PREFIX}/`

function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The guard in front of the control API, as trusted local dev servers do it (Vite's
 * `server.allowedHosts` and CORS defaults, Jupyter's token), as Hono middleware run before any
 * route: a `Host` that is not this machine is refused (DNS rebinding); a browser request of the
 * server's own origin (`Sec-Fetch-Site: same-origin`, or its `Origin`) must come from the console
 * page, with its page token (no other script that reached the origin may act), the page's own
 * navigation aside; an `Origin` that was not allowed or a navigation from another site
 * (`Sec-Fetch-Site: cross-site`) is refused (no website the developer visits may read or change
 * the state); then Hono's `cors` answers preflights and marks answers for the allowed origins
 * only, then the token is required when one is set, and a write must be JSON (no "simple"
 * cross-site POST). Clients that send no Fetch Metadata and no `Origin` (curl, Node) pass as before.
 * @example app.use(...controlAccess({ origins: ['http://localhost:5173'] }))
 */
export function controlAccess({
  origins = [],
  token,
  hosts = [],
  pageToken,
}: ControlAccessOptions): MiddlewareHandler[] {
  const allowedOrigins = new Set(origins.map((o) => new URL(o).origin))
  const allowedHosts = new Set([...LOOPBACK, ...hosts.map((h) => h.toLowerCase())])
  const callers: MiddlewareHandler = async (c, next) => {
    const hostHeader = c.req.header('host') ?? ''
    if (!allowedHosts.has(hostHeader.replace(/:\d+$/, '').toLowerCase()) && !tokenOk(c, token))
      return refuse(
        403,
        `The control API answers only to this machine (Host ${JSON.stringify(hostHeader)} is not localhost, 127.0.0.1 or [::1]): this stops DNS rebinding. Call it on https://localhost, or send the console token.`,
      )
    const page = pageCheck(c, pageToken)
    if (page instanceof Response) return page
    if (page === 'page') return next()
    const origin = c.req.header('origin')
    if (origin !== undefined && !allowedOrigins.has(origin))
      return refuse(
        403,
        `The control API does not answer pages of ${origin}: a website you visit must not read or change the mock's keys. Allow that origin with --console-origin ${origin} (consoleOrigins) if it is yours.`,
      )
    // A page of another site reaches the control API by navigation (an iframe, a link) with no
    // Origin header: the browser still says where it came from. Allowed origins may, over http too.
    if (c.req.header('sec-fetch-site') === 'cross-site' && origin === undefined)
      return refuse(
        403,
        'The control API does not answer requests from other sites (Sec-Fetch-Site: cross-site): call it from a terminal or the page of an allowed --console-origin.',
      )
    await next()
  }

  const writes: MiddlewareHandler = async (c, next) => {
    // Hono's `cors` ran first: its headers are on `c.res` and Hono keeps them on this refusal.
    if (token !== undefined && !tokenOk(c, token))
      return refuse(
        401,
        'The control API needs the console token (printed once when the server started): send it as Authorization: Bearer <token>.',
        { 'WWW-Authenticate': 'Bearer realm="tmaps-mock console"' },
      )
    const type = c.req.header('content-type')
    const hasBody =
      Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined
    if (
      WRITES.has(c.req.method) &&
      (hasBody || type !== undefined) &&
      !/^application\/json\s*(;|$)/i.test(type ?? '')
    )
      return refuse(
        415,
        `A control API write must send JSON: Content-Type: application/json (got ${type === undefined ? 'none' : JSON.stringify(type)}).`,
      )
    await next()
  }

  return [
    callers,
    cors({
      origin: (origin) => (allowedOrigins.has(origin) ? origin : null),
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Authorization', 'X-TMaps-Console-Token'],
      maxAge: 600,
    }),
    writes,
  ]
}
