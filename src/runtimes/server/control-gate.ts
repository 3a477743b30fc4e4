import { timingSafeEqual } from 'node:crypto'
import { STATUS_TEXT } from '../../core/answers.ts'

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

const refuse = (status: number, error: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error }), {
    status,
    statusText: STATUS_TEXT[status] ?? '',
    headers: { 'Content-Type': 'application/json', ...headers },
  })

function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given)
  const b = new TextEncoder().encode(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The guard in front of the control API, as trusted local dev servers do it (Vite's
 * `server.allowedHosts` and CORS defaults, Jupyter's token): a `Host` that is not this machine
 * is refused (DNS rebinding), an `Origin` that was not allowed is refused (no website the
 * developer visits may read or change the state), a write must be JSON (no "simple" cross-site
 * POST), and a token is required when one is set. Answers the refusal, or the CORS headers to
 * put on the answer.
 * @example const gate = createControlGate({ origins: ['http://localhost:5173'] }); gate(request)
 */
export function createControlGate({ origins = [], token, hosts = [] }: ControlGateOptions) {
  const allowedOrigins = new Set(origins.map((o) => new URL(o).origin))
  const allowedHosts = new Set([...LOOPBACK, ...hosts.map((h) => h.toLowerCase())])

  return function gate(request: Request): { refusal: Response } | { cors: Record<string, string> } {
    const origin = request.headers.get('origin')
    const cors: Record<string, string> =
      origin !== null && allowedOrigins.has(origin)
        ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
        : {}

    const hostHeader = request.headers.get('host') ?? ''
    const hostname = hostHeader.replace(/:\d+$/, '').toLowerCase()
    const presented =
      request.headers.get('x-tmaps-console-token') ??
      request.headers.get('authorization')?.replace(/^Bearer\s+/i, '')
    const tokenOk =
      token !== undefined && presented !== undefined && presented !== null && sameSecret(presented, token)
    if (!allowedHosts.has(hostname) && !tokenOk) {
      return {
        refusal: refuse(
          403,
          `The control API answers only to this machine (Host ${JSON.stringify(hostHeader)} is not localhost, 127.0.0.1 or [::1]): this stops DNS rebinding. Call it on https://localhost, or send the console token.`,
        ),
      }
    }
    if (origin !== null && !allowedOrigins.has(origin)) {
      return {
        refusal: refuse(
          403,
          `The control API does not answer pages of ${origin}: a website you visit must not read or change the mock's keys. Allow that origin with --console-origin ${origin} (consoleOrigins) if it is yours.`,
        ),
      }
    }
    // A page of another site reaches the control API by navigation (an iframe, a link) with no
    // Origin header: the browser still says where it came from. Allowed origins may, over http too.
    if (
      request.headers.get('sec-fetch-site') === 'cross-site' &&
      (origin === null || !allowedOrigins.has(origin))
    ) {
      return {
        refusal: refuse(
          403,
          'The control API does not answer requests from other sites (Sec-Fetch-Site: cross-site): call it from a terminal or the page of an allowed --console-origin.',
        ),
      }
    }
    if (request.method === 'OPTIONS') {
      return {
        refusal: new Response(null, {
          status: 204,
          statusText: 'No Content',
          headers: {
            ...cors,
            'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
            'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-TMaps-Console-Token',
            'Access-Control-Max-Age': '600',
          },
        }),
      }
    }
    if (token !== undefined && !tokenOk) {
      return {
        refusal: refuse(
          401,
          'The control API needs the console token (printed once when the server started): send it as Authorization: Bearer <token>.',
          { 'WWW-Authenticate': 'Bearer realm="tmaps-mock console"', ...cors },
        ),
      }
    }
    const type = request.headers.get('content-type')
    const hasBody =
      Number(request.headers.get('content-length') ?? 0) > 0 || request.headers.has('transfer-encoding')
    if (
      WRITES.has(request.method) &&
      (hasBody || type !== null) &&
      !/^application\/json\s*(;|$)/i.test(type ?? '')
    ) {
      return {
        refusal: refuse(
          415,
          `A control API write must send JSON: Content-Type: application/json (got ${type === null ? 'none' : JSON.stringify(type)}).`,
          cors,
        ),
      }
    }
    return { cors }
  }
}
