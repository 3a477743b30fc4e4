import { connect } from 'node:tls'
import { describe, expect, it, vi } from 'vitest'
import type { RequestLine } from '../src/runtimes/server/https-server.ts'
import { httpsServers } from './support/https-servers.ts'

/**
 * Hostile callers of `tmaps-mock serve` get a 4xx that says why, never a 500 or a leak: the
 * probes of the server's security review (docs/server.md lists each with its answer), over a
 * real TLS socket, raw where a client library would refuse to send the request.
 */
const startServer = httpsServers('hostile')
const KEY_TAIL = '0123456789abcdef0123456789abcdef'.slice(4)

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const lines: RequestLine[] = []
  const { server, agent, call } = await startServer({ onRequest: (line) => lines.push(line), ...options })
  /** One request as raw bytes on its own TLS connection; the status line and body as read back. */
  const raw = (head: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const socket = connect({
        host: '127.0.0.1',
        port: Number(new URL(server.url).port),
        ca: server.ca!,
        servername: 'localhost',
      })
      let received = ''
      socket.on('secureConnect', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`))
      socket.on('data', (chunk) => {
        received += chunk
      })
      socket.on('end', () => {
        const [statusLine = '', ...rest] = received.split('\r\n')
        resolve({
          status: Number(statusLine.split(' ')[1]),
          text: rest.join('\r\n').split('\r\n\r\n').slice(1).join(''),
        })
      })
      socket.on('error', reject)
    })
  return { server, call, raw, lines, agent }
}

describe('hostile callers of the control API get a 4xx, never a 500', () => {
  it.each(['localhost:99999', 'a b', '[::1', 'x@evil.com'])('answers a Host of %j with 400', async (host) => {
    const { raw } = await start()
    const error = vi.spyOn(console, 'error')
    const answer = await raw(`GET /__console/keys HTTP/1.1\r\nHost: ${host}`)
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('is not a host[:port]')
    expect(answer.text).not.toMatch(/bug|stack|at /)
    expect(error).not.toHaveBeenCalled()
  })

  it('answers TRACE with 405 and the methods it takes', async () => {
    const { raw } = await start()
    const answer = await raw('TRACE /__console/keys HTTP/1.1\r\nHost: localhost')
    expect(answer.status).toBe(405)
    expect(answer.text).toContain('does not take TRACE requests')
  })

  it('refuses a cross-site navigation (no Origin) to the log stream, but not an allowed origin', async () => {
    const { call } = await start({ consoleOrigins: ['http://localhost:5173'] })
    const framed = await call('/__console/log/stream', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
    })
    expect(framed.status).toBe(403)
    expect(framed.text).toContain('Sec-Fetch-Site: cross-site')
    const allowed = await call('/__console/keys', {
      headers: { origin: 'http://localhost:5173', 'sec-fetch-site': 'cross-site' },
    })
    expect(allowed.status).toBe(200)
  })

  it.each([['toString'], ['constructor'], ['429']])(
    'refuses a fault with status %j (400), then answers as usual',
    async (status) => {
      const { call, server } = await start()
      const added = await call('/__console/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status }),
      })
      expect(added.status).toBe(400)
      expect(JSON.parse(added.text).error).toContain('status must be one of the numbers')
      expect(server.mock.faults.list()).toEqual([])
      expect((await call('/geocoding/forward?q=Sfax')).status).toBe(401)
    },
  )

  it('masks a key in the path of its 404 and 405 answers, percent-encoded too', async () => {
    const { call } = await start()
    for (const path of [
      `/__console/nope/ak_abcd${KEY_TAIL}`,
      `/__console/nope/%61k_abcd${KEY_TAIL}`,
      `/__console/nope/ak%5Fabcd${KEY_TAIL}`,
    ]) {
      const answer = await call(path)
      expect(answer.status).toBe(404)
      expect(answer.text).not.toContain(KEY_TAIL)
      expect(answer.text).toContain('ak_abcd…')
    }
    const wrongMethod = await call(`/__console/keys/ak_abcd${KEY_TAIL}/domains`, { method: 'PATCH' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.text).not.toContain(KEY_TAIL)
  })

  it('cuts the echo of a 2 MB hostname short', async () => {
    const { call } = await start()
    const answer = await call('/__console/domains', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hostname: `${'a'.repeat(2 * 1024 * 1024)}.tn` }),
    })
    expect(answer.status).toBe(400)
    expect(answer.text.length).toBeLessThan(500)
    expect(JSON.parse(answer.text).error).toMatch(
      /the domain is 2097155 characters long; a hostname has at most 253/,
    )
  })

  it('refuses a key linked to more than 1,000 domains, by its domain list or a snapshot, and keeps the state', async () => {
    const { call } = await start({ state: 'empty' })
    const json = (method: string, body: unknown) => ({
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const created = await call('/__console/keys', json('POST', { name: 'Many', domains: ['app.example.tn'] }))
    expect(created.status).toBe(201)
    const { id } = JSON.parse(created.text) as { id: string }
    const hosts = Array.from({ length: 1001 }, (_, i) => `app${i}.example.tn`)
    const tooMany = await call(`/__console/keys/${id}/domains`, json('PUT', { domains: hosts }))
    expect(tooMany.status).toBe(400)
    expect(JSON.parse(tooMany.text).error).toMatch(/at most 1000 domains \(this would make 1001\)/)
    const snapshot = JSON.parse((await call('/__console/snapshot')).text)
    // The snapshot as taken, its one domain and link copied for 1,001 hosts.
    const big = {
      ...snapshot,
      domains: hosts.map((hostname) => ({ ...snapshot.domains[0], hostname })),
      links: hosts.map((hostname) => ({ ...snapshot.links[0], hostname })),
    }
    const refused = await call('/__console/snapshot', json('PUT', big))
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(/more than 1000 domains, the most one key may have/)
    // Nothing was changed by either: the key keeps its one domain.
    const key = JSON.parse((await call(`/__console/keys/${id}`)).text) as { domains: string[] }
    expect(key.domains).toEqual(['app.example.tn'])
  })

  it('adds no listener per request on a keep-alive socket (50 requests, no MaxListenersExceededWarning)', async () => {
    const { call } = await start()
    const warnings: string[] = []
    const onWarning = (warning: Error) => void warnings.push(warning.name)
    process.on('warning', onWarning)
    for (let i = 0; i < 50; i++) expect((await call('/__console/keys')).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 50))
    process.off('warning', onWarning)
    expect(warnings).toEqual([])
  })
})

describe('a percent-encoded key is masked everywhere it is written', () => {
  it('in the terminal line, the log and the log stream', async () => {
    const { call, lines, server } = await start()
    const key = await server.mock.console.createKey({ name: 'K' })
    const tail = key.value.slice(7)
    const encoded = `%61k_${key.value.slice(3)}`
    const answer = await call(`/geocoding/forward?q=Sfax&api_key=${encoded}`, {
      headers: { referer: `https://evil.tn/?k=ak%5F${key.value.slice(3)}` },
    })
    expect(answer.status).toBe(403) // decoded: a known key, from a foreign page
    const logged = JSON.stringify([lines, server.mock.log.entries()])
    expect(logged).not.toContain(tail)
    expect(logged).toContain(key.value.slice(0, 7))
    const pathKey = await call(`/geocoding/ak%5F${key.value.slice(3)}`)
    expect(pathKey.status).toBe(401) // no api_key: refused before the path is looked at
    expect(JSON.stringify([lines, server.mock.log.entries()])).not.toContain(tail)
  })
})
