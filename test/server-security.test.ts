import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpsRequest, createServer as httpsServer } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from 'node:tls'
import { promisify } from 'node:util'
import { generate } from 'selfsigned'
import { Agent, request } from 'undici'
import { describe, expect, it, vi } from 'vitest'
import { localCertificate } from '../src/runtimes/server/certificate.ts'
import type { RequestLine } from '../src/runtimes/server/https-server.ts'
import { httpsServers } from './support/https-servers.ts'

const run = promisify(execFile)
const start = httpsServers('security')

describe('the HTTPS server of tmaps-mock serve', () => {
  it('sends the reason phrase in the status line (fetch().statusText is not blank)', async () => {
    const { server } = await start()
    const statusLine = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(`${server.url}/geocoding/forward?q=Sfax`, { ca: server.ca }, (res) => {
        res.resume()
        resolve(`${res.statusCode} ${res.statusMessage}`)
      })
      req.on('error', reject)
      req.end()
    })
    expect(statusLine).toBe('401 Unauthorized')
  })

  it('listens on localhost for IPv4 and IPv6 alike', async () => {
    const { server, agent } = await start()
    const port = new URL(server.url).port
    for (const host of ['127.0.0.1', '[::1]']) {
      const response = await request(`https://${host}:${port}/geocoding/forward?q=Sfax`, {
        dispatcher: agent,
      })
      await response.body.text()
      expect(response.statusCode, host).toBe(401)
    }
    // The log names the host as the client asked it, not TMaps's: a remembered answer too.
    expect(server.mock.log.entries().map((e) => e.host)).toEqual([`[::1]:${port}`, `127.0.0.1:${port}`])
  })

  it('serves no control API over plain HTTP: every request there gets the contract 403', async () => {
    const { server } = await start({ httpPort: 0 })
    const response = await request(`${server.httpUrl}/__console/snapshot`)
    expect(response.statusCode).toBe(403)
    expect(await response.body.json()).toEqual({ error: 'domain not authorized' })
  })

  it('refuses a request body above the limit with 413 JSON, on the API and on the control API', async () => {
    const { call, server } = await start()
    const key = await server.mock.console.createKey({ name: 'K' })
    const dir = mkdtempSync(join(tmpdir(), 'tmaps-big-'))
    const big = join(dir, 'big.json')
    writeFileSync(big, 'x'.repeat(9 * 1024 * 1024))
    // curl, as a user would send it: it reads the early 413 while uploading (undici would see a reset).
    const curl = async (method: string, path: string) => {
      const { stdout } = await run('curl', [
        ...['-s', '--cacert', server.caPath!, '-X', method, '-H', 'Content-Type: application/json'],
        ...['--data-binary', `@${big}`, '-w', '\n%{http_code}', `${server.url}${path}`],
      ])
      const [body, status] = stdout.split('\n')
      return { status: Number(status), body: JSON.parse(body!) }
    }
    try {
      expect(await curl('POST', `/routing/optimized?api_key=${key.value}`)).toEqual({
        status: 413,
        body: { error: 'payload too large' },
      })
      const control = await curl('PUT', '/__console/snapshot')
      expect(control.status).toBe(413)
      expect(control.body.error).toMatch(/larger than 8 MB/)
      expect((await call('/__console/keys')).status).toBe(200)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('logs an upload the client aborts as 499, not as a bug of the mock', async () => {
    const { server } = await start()
    const key = await server.mock.console.createKey({ name: 'K' })
    const errors = vi.spyOn(console, 'error')
    await new Promise<void>((resolve) => {
      const req = httpsRequest(
        `${server.url}/routing/optimized?api_key=${key.value}`,
        {
          method: 'POST',
          ca: server.ca,
          headers: { 'content-type': 'application/json', 'content-length': 10_000 },
        },
        () => undefined,
      )
      req.on('error', () => resolve())
      req.write('{"origin":')
      setTimeout(() => req.destroy(), 100)
    })
    await vi.waitFor(() => expect(server.mock.log.entries()[0]?.status).toBe(499))
    expect(server.mock.log.entries()[0]?.rule).toBe('client-closed')
    expect(errors).not.toHaveBeenCalled()
  })

  it('resets the connection for a network fault: the client sees a socket error, not an answer', async () => {
    const { server, call } = await start()
    server.mock.faults.add({ network: 'reset', times: 1 })
    await expect(call('/geocoding/forward?q=Sfax')).rejects.toThrow()
    expect((await call('/geocoding/forward?q=Sfax')).status).toBe(401)
  })

  it('reports one line per request with the key masked, the status, the rule and the time', async () => {
    const lines: RequestLine[] = []
    const { server, call } = await start({ onRequest: (line) => lines.push(line) })
    const key = await server.mock.console.createKey({ name: 'K' })
    await call(`/geocoding/forward?q=Sfax&api_key=${key.value}`)
    expect(lines).toEqual([
      {
        time: expect.any(Date),
        method: 'GET',
        path: `/geocoding/forward?q=Sfax&api_key=${key.value.slice(0, 7)}…`,
        status: 200,
        rule: 'no-browser-headers',
        ms: expect.any(Number),
      },
    ])
  })

  it('requires the console token when it listens beyond loopback, and prints it once', async () => {
    const { server, agent } = await start({ host: '127.0.0.2' })
    expect(server.consoleToken).toMatch(/^[0-9a-f]{32}$/)
    const url = `https://127.0.0.2:${new URL(server.url).port}/__console/keys`
    const connectOptions = {
      dispatcher: new Agent({ connect: { ca: server.ca!, rejectUnauthorized: false } }),
    }
    const refused = await request(url, connectOptions)
    expect(refused.statusCode).toBe(403)
    await refused.body.text()
    const allowed = await request(url, {
      ...connectOptions,
      headers: { authorization: `Bearer ${server.consoleToken}` },
    })
    expect(allowed.statusCode).toBe(200)
    expect(await allowed.body.json()).toEqual([])
    await agent.close()
  })
})

describe('answers no script can act on (issue #45)', () => {
  const SANDBOX = "default-src 'none'; frame-ancestors 'none'; sandbox"

  it('sends nosniff and a policy that runs nothing with every answer but the console page', async () => {
    const { server, call } = await start()
    const key = await server.mock.console.createKey({ name: 'K' })
    const answers = {
      '401 of the API': await call('/geocoding/forward?q=Sfax'),
      '200 of the API': await call(`/geocoding/forward?q=Sfax&limit=1&api_key=${key.value}`),
      preflight: await call('/geocoding/forward', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      }),
      'control API 200': await call('/__console/keys'),
      'control API 404': await call('/__console/nothing'),
      'control API 405': await call('/__console/keys', { method: 'DELETE' }),
      'redirect to the page': await call('/', { headers: { accept: 'text/html' } }),
    }
    expect(
      Object.fromEntries(
        Object.entries(answers).map(([what, a]) => [
          what,
          [a.status, a.headers['x-content-type-options'], a.headers['content-security-policy']],
        ]),
      ),
    ).toEqual({
      '401 of the API': [401, 'nosniff', SANDBOX],
      '200 of the API': [200, 'nosniff', SANDBOX],
      preflight: [204, 'nosniff', SANDBOX],
      'control API 200': [200, 'nosniff', SANDBOX],
      'control API 404': [404, 'nosniff', SANDBOX],
      'control API 405': [405, 'nosniff', SANDBOX],
      'redirect to the page': [303, 'nosniff', SANDBOX],
    })
    expect(answers['401 of the API'].headers['content-type']).toBe('application/json')
    expect(answers['401 of the API'].json()).toEqual({ error: 'missing api_key' })
    expect(answers['control API 200'].json()).toEqual([expect.objectContaining({ name: 'K' })])
    const page = await call('/__console/', {
      headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    })
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=UTF-8')
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self' 'nonce-/)
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(page.text).toContain('<meta name="tmaps-console-page" content="')
  })

  it('answers a script of its own origin only with the console page’s token, over the socket', async () => {
    const { server, call } = await start()
    const script = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }
    const refused = await call('/__console/snapshot', { headers: script })
    expect(refused.status).toBe(403)
    expect(refused.headers['content-type']).toBe('application/json')
    expect(refused.json().error).toContain('only from the console page')
    expect(refused.text).not.toMatch(/ak_[0-9a-f]{32}/)
    const page = await call('/__console/', {
      headers: {
        accept: 'text/html',
        'sec-fetch-site': 'none',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
      },
    })
    const token = /<meta name="tmaps-console-page" content="([^"]+)">/.exec(page.text)![1]!
    const read = await call('/__console/snapshot', { headers: { ...script, 'x-tmaps-console-page': token } })
    expect(read.status).toBe(200)
    expect(read.headers['content-type']).toBe('application/json')
    expect(read.json()).toEqual(JSON.parse(JSON.stringify(server.mock.snapshot())))
    expect((await call('/__console/snapshot')).status).toBe(200) // curl, Node: as before
  })
})

describe('the local certificate authority', () => {
  it('can vouch only for localhost, 127.0.0.1 and ::1 (name constraints)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tmaps-ca-'))
    try {
      const { ca } = await localCertificate(dir)
      const caKey = readFileSync(join(dir, 'tmaps-mock-ca-key.pem'), 'utf8')
      // A certificate for another site, signed with the CA's own key: a client must refuse it.
      const evil = await generate([{ name: 'commonName', value: 'bank.example' }], {
        keySize: 2048,
        ca: { cert: ca!, key: caKey },
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'bank.example' }] }],
      })
      const server = httpsServer({ cert: evil.cert, key: evil.private }, (_req, res) => res.end('ok'))
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
      const port = (server.address() as { port: number }).port
      const error = await new Promise<Error | null>((resolve) => {
        const socket = connect({
          host: '127.0.0.1',
          port,
          servername: 'bank.example',
          ca,
          checkServerIdentity: () => undefined,
        })
        socket.on('secureConnect', () => {
          socket.destroy()
          resolve(null)
        })
        socket.on('error', resolve)
      })
      server.close()
      expect(error?.message).toMatch(/permitted subtree violation|name constraint/i)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
