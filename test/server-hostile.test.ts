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
  /** One request as raw bytes on its own TLS connection; the status, headers and body as read back. */
  const raw = (head: string) =>
    new Promise<{ status: number; headers: Record<string, string>; text: string }>((resolve, reject) => {
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
        const [head = '', ...body] = received.split('\r\n\r\n')
        const [statusLine = '', ...fields] = head.split('\r\n')
        const headers = Object.fromEntries(
          fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]),
        )
        resolve({ status: Number(statusLine.split(' ')[1]), headers, text: body.join('\r\n\r\n') })
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

describe('issue #45: what got through', () => {
  it.each([
    ['an API path', '/geocoding/forward?q=Sfax'],
    ['the control API', '/__console/keys'],
  ])(
    'answers a 60 KB Origin on %s with 431 and the mock’s JSON error body, CORS headers on',
    async (_, path) => {
      const { raw, call } = await start()
      const answer = await raw(
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nOrigin: https://${'a'.repeat(60_000)}.tn`,
      )
      expect(answer.status).toBe(431)
      expect(answer.headers['content-type']).toBe('application/json')
      expect(answer.headers['access-control-allow-origin']).toBe('*')
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
      expect(answer.headers.connection).toBe('close')
      expect(JSON.parse(answer.text)).toEqual({ error: 'request header fields too large' })
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text))
      expect((await call('/geocoding/forward?q=Sfax')).status).toBe(401) // and it keeps answering
    },
  )

  it('answers a request Node cannot parse with 400 and the mock’s JSON error body', async () => {
    const { raw } = await start()
    const answer = await raw('GET /geocoding/forward?q=Sfax HTTP/1.1\r\nHost: localhost\r\nBad Header: x')
    expect(answer.status).toBe(400)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers['access-control-allow-origin']).toBe('*')
    expect(JSON.parse(answer.text)).toEqual({ error: 'bad request' })
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

describe('issue #34: hostile inputs that got through', () => {
  it('refuses an empty or short console token at start (an unset variable), saying what to do', async () => {
    for (const consoleToken of ['', 'short', 'has spaces in it!!']) {
      await expect(start({ consoleToken, host: '127.0.0.2' })).rejects.toThrow(
        /the console token must be at least 16 visible characters, with no spaces .*an unset shell variable gives an empty one/,
      )
    }
  })

  it('masks a key-shaped query name in the log entry’s warnings, and a double-encoded or ak- key in the terminal line', async () => {
    const { call, lines, server } = await start()
    const key = await server.mock.console.createKey({ name: 'K' })
    const secret = KEY_TAIL
    await call(`/geocoding/forward?q=Sfax&api_key=${key.value}&ak_f00d${secret}=1`)
    await call(`/geocoding/forward?q=Sfax&api_key=%2561%256b%255f${key.value.slice(3)}`)
    await call(`/geocoding/forward?q=Sfax&x=ak-f00d${secret}`)
    const written = JSON.stringify([lines, server.mock.log.entries()])
    expect(written).not.toContain(secret)
    expect(written).not.toContain(key.value.slice(7))
    expect(server.mock.log.entries().at(-1)?.warnings?.[0]).toMatch(/ak_f00d…/)
  })

  it('masks key-shaped text echoed by any control-API error: fault ids and fields, override fields, key actions', async () => {
    const { call } = await start()
    const secret = `ak_${KEY_TAIL}f00d`
    const json = { 'content-type': 'application/json' }
    const answers = await Promise.all([
      call(`/__console/faults/${secret}`, { method: 'DELETE' }),
      call('/__console/faults', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ endpoint: secret, status: 500 }),
      }),
      call('/__console/faults', { method: 'POST', headers: json, body: JSON.stringify({ [secret]: 1 }) }),
      call('/__console/overrides', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ endpoint: secret }),
      }),
      call('/__console/overrides', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ endpoint: 'geocoding/forward', scenario: secret }),
      }),
      call(`/__console/keys/${secret}/disable`, { method: 'POST' }),
    ])
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(answer.text).not.toContain(KEY_TAIL)
    }
  })

  it('refuses a control-API body nested deeper than 64 levels with 400, and keeps answering', async () => {
    const { call } = await start()
    // 20,000 levels (120 kB): JSON.stringify of it would overflow the stack, so it is written out.
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`
    const json = { 'content-type': 'application/json' }
    const answer = await call('/__console/overrides', {
      method: 'POST',
      headers: json,
      body: `{"endpoint":"geocoding/forward","answer":{"body":${deep}}}`,
    })
    expect(answer.status).toBe(400)
    expect(answer.json()).toEqual({
      error: 'The request body is nested deeper than 64 levels; no console action needs that.',
    })
    expect((await call('/__console/overrides')).status).toBe(200)
  })

  it('refuses snapshots whose usage counters or key ids are not what the console makes', async () => {
    const { call } = await start()
    const base = {
      format: 'tmaps-mock/snapshot',
      version: 1,
      keys: [
        {
          id: 'key_1',
          name: 'A',
          value: `ak_${KEY_TAIL}0000`,
          status: 'enabled',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      domains: [],
      links: [],
    }
    const day = (byEndpoint: Record<string, number>, byStatus: Record<string, number> = { 200: 1 }) => ({
      date: '2026-01-01',
      total: 1,
      byStatus,
      byEndpoint,
    })
    const put = (snapshot: unknown) =>
      call('/__console/snapshot', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(snapshot),
      })
    for (const [bad, message] of [
      [{ ...base, usage: { key_1: [day({ constructor: 5 })] } }, /not an endpoint name/],
      [{ ...base, usage: { key_1: [day({ 'geocoding/forward': 1 }, { toString: 1 })] } }, /not a status/],
      [
        { ...base, keys: [{ ...base.keys[0], id: `ak_${'1'.repeat(32)}` }] },
        /must not look like a key value/,
      ],
      [{ ...base, keys: [{ ...base.keys[0], id: 'key\u001b[31m' }] }, /not a key id/],
      [{ ...base, keys: [{ ...base.keys[0], id: 'key\n2' }] }, /not a key id/],
    ] as const) {
      const answer = await put(bad)
      expect(answer.status).toBe(400)
      expect(answer.text).toMatch(message)
    }
    expect((await put({ ...base, usage: { key_1: [day({ 'geocoding/forward': 1 })] } })).status).toBe(204)
  })
})
