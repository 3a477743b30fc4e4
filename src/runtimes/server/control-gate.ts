import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'

/** Who may drive the control API: the machine's own user, and the browser origins they allow. */
export interface ControlGateOptions {
  /** Browser origins allowed to call the control API (`--console-origin`), e.g. `http://localhost:5173`. */
  origins?: readonly string[]
  /** Required in `Authorization: Bearer <token>` (or `X-TMaps-Console-Token`) when set. */
  token?: string
  /** Host names the server answers to besides loopback (the `--host` it listens on). */
  hosts?: readonly string[]
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const refuse = (status: 401 | 403 | 415, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers })

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The guard in front of the control API, as trusted local dev servers do it (Vite's
 * `server.allowedHosts` and CORS defaults, Jupyter's token), as Hono middleware run before any
 * route: a `Host` that is not this machine is refused (DNS rebinding), an `Origin` that was not
 * allowed or a navigation from another site (`Sec-Fetch-Site: cross-site`) is refused (no
 * website the developer visits may read or change the state), then Hono's `cors` answers
 * preflights and marks answers for the allowed origins only, then the token is required when one
 * is set, and a write must be JSON (no "simple" cross-site POST).
 * @example app.use(...controlGate({ origins: ['http://localhost:5173'] }))
 */
export function controlGate({ origins = [], token, hosts = [] }: ControlGateOptions): MiddlewareHandler[] {
  const allowedOrigins = new Set(origins.map((o) => new URL(o).origin))
  const allowedHosts = new Set([...LOOPBACK, ...hosts.map((h) => h.toLowerCase())])
  // One rule for the two headers: at least one is sent, and every one sent is right. A wrong
  // credential beside a right one still refuses (a client that sends a stale token is told so).
  const tokenOk = (c: Parameters<MiddlewareHandler>[0]) => {
    const header = c.req.header('x-tmaps-console-token')
    const authorization = c.req.header('authorization')
    const bearer = authorization?.match(/^Bearer\s+(.*)$/i)?.[1]
    if (token === undefined || (header === undefined && authorization === undefined)) return false
    return (
      (header === undefined || sameSecret(header, token)) &&
      (authorization === undefined || (bearer !== undefined && sameSecret(bearer, token)))
    )
  }

  const callers: MiddlewareHandler = async (c, next) => {
    const hostHeader = c.req.header('host') ?? ''
    if (!allowedHosts.has(hostHeader.replace(/:\d+$/, '').toLowerCase()) && !tokenOk(c))
      return refuse(
        403,
        `The control API answers only to this machine (Host ${JSON.stringify(hostHeader)} is not localhost, 127.0.0.1 or [::1]): this stops DNS rebinding. Call it on https://localhost, or send the console token.`,
      )
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
    if (token !== undefined && !tokenOk(c))
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
