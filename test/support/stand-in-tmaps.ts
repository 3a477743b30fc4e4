import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTmapsCore } from '../../src/core/create-core.ts'
import { localCertificate } from '../../src/runtimes/server/certificate.ts'
import { readNodeBody } from '../../src/runtimes/server/node-request.ts'

/** The stand-in's "real" key (a TMaps key the stand-in's console has, linked to APP_ORIGIN). */
export const REAL_KEY = `ak_${'c0ffee42'.repeat(4)}`
/** The origin REAL_KEY is linked to at the stand-in (localhost too, as a developer's real key is). */
export const APP_ORIGIN = 'https://app.example.tn'

/**
 * What the stand-in may drift to, on `geocoding/forward` (every other endpoint stays faithful),
 * or for every request (`slow`, `reset`, `rate-limited` once per request path).
 */
export type Drift =
  | 'none'
  | 'renamed-field'
  | 'missing-required'
  | 'extra-field'
  | 'changed-403'
  | 'bare-list'
  | 'content-type'
  | 'rate-limited'
  | 'server-error'
  | 'maintenance'
  | 'slow'
  | 'reset'

/** A request the stand-in received, as it arrived (the real key in it). */
export interface SeenRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A stand-in TMaps on a real HTTPS socket with its own certificate authority: it answers as TMaps
 * would (the mock's own answers, behind a console that holds REAL_KEY linked to APP_ORIGIN), the
 * API and the tiles on one origin, and drifts on demand. Nothing here reaches the internet.
 */
export async function startStandIn({ drift = 'none' as Drift, slowMs = 3000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-stand-in-'))
  const tls = await localCertificate(dir)
  const core = createTmapsCore({
    state: 'empty',
    seed: 'stand-in',
    keys: [{ value: REAL_KEY, name: 'Real key', domains: ['app.example.tn', 'localhost'] }],
  })
  const seen: SeenRequest[] = []
  const limited = new Set<string>()
  let current: Drift = drift
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, async (req, res) => {
    const path = req.url ?? '/'
    const body = (await readNodeBody(req, 1 << 20)).toString('utf8')
    seen.push({ method: req.method ?? 'GET', path, headers: { ...req.headers }, body })
    const pathname = path.split('?')[0]!
    const forward = pathname === '/geocoding/forward'
    if (current === 'reset') {
      req.socket.destroy()
      return
    }
    if (current === 'slow') await new Promise((resolve) => setTimeout(resolve, slowMs))
    if (current === 'rate-limited' && !limited.has(path)) {
      limited.add(path)
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' })
      res.end('{"error":"rate limited"}')
      return
    }
    if (current === 'maintenance' && forward) {
      // A gateway's maintenance page, with 200: what a recording must not take for an answer.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end('<!doctype html><title>Maintenance</title><h1>Back soon</h1>')
      return
    }
    if (current === 'server-error' && forward) {
      res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end('{"error":"internal error"}')
      return
    }
    // One origin for both TMaps hosts, as the mock's server: the tiles' paths are theirs.
    const host = pathname.startsWith('/r-tile/') ? 'tiles.tmaps.tn' : 'api.tmaps.tn'
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !name.startsWith(':') && name !== 'host') headers.set(name, value)
    const answer = await core.answer({
      method: req.method ?? 'GET',
      url: `https://${host}${path}`,
      headers,
      text: () => Promise.resolve(body),
    })
    let bytes = answer.body
    const out = { ...answer.headers }
    if (forward && bytes !== null && answer.status === 200) bytes = drifted(current, bytes)
    if (current === 'changed-403' && answer.status === 403)
      bytes = new TextEncoder().encode('{"error":"origin not allowed"}')
    if (current === 'content-type' && forward && answer.status === 200) out['Content-Type'] = 'text/json'
    if (bytes !== null) out['Content-Length'] = String(bytes.byteLength)
    res.writeHead(answer.status, out)
    res.end(bytes ?? undefined)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `https://localhost:${(server.address() as AddressInfo).port}`
  return {
    url,
    ca: tls.ca!,
    caPath: tls.caPath!,
    /** Every request received, newest last. */
    seen,
    drift(to: Drift) {
      current = to
      limited.clear()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type StandIn = Awaited<ReturnType<typeof startStandIn>>

/** A forward geocoding answer, drifted. */
function drifted(drift: Drift, bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const body = JSON.parse(new TextDecoder().decode(bytes)) as {
    query: string
    results: Array<Record<string, unknown>>
  }
  if (drift === 'renamed-field')
    for (const result of body.results) {
      result.formatted_address = result.formatted
      delete result.formatted
    }
  else if (drift === 'missing-required') delete (body as Partial<typeof body>).query
  else if (drift === 'extra-field') for (const result of body.results) result.place_id = 'ChIJ-stand-in'
  else if (drift === 'bare-list') return new TextEncoder().encode(JSON.stringify(body.results))
  else return bytes
  return new TextEncoder().encode(JSON.stringify(body))
}
