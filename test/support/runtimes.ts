import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { getResponse } from 'msw'
import { setupServer } from 'msw/node'
import { Agent, fetch as undiciFetch } from 'undici'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { TmapsMock } from '../../src/runtimes/msw/create-tmaps-mock.ts'
import { startTmapsHttpsServer, type TmapsHttpsServer } from '../../src/runtimes/server/https-server.ts'

const execFileAsync = promisify(execFile)

/** One way of delivering a request to the mock, as a user of that runtime would. */
export interface Runtime {
  name: string
  send(mock: TmapsMock, url: string, init?: RequestInit): Promise<Response>
}

/**
 * The Node runtimes of the contract matrix: msw's `setupServer` with real `fetch` (undici
 * through msw's socket interceptor) and msw's `getResponse` (no interception). Call once per
 * test file, at top level.
 */
export function nodeRuntimes(): Runtime[] {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())
  return [
    {
      name: 'setupServer + fetch',
      send(mock, url, init) {
        server.resetHandlers(...mock.handlers)
        return fetch(url, init)
      },
    },
    {
      name: 'getResponse',
      async send(mock, url, init) {
        const response = await getResponse(mock.handlers, new Request(url, init))
        if (!response) throw new Error(`No handler answered ${url}`)
        return response
      },
    },
  ]
}

/**
 * The socket runtimes: the mock behind `startTmapsHttpsServer` (one HTTPS origin, plus plain HTTP),
 * called by undici with the generated CA trusted, and by `curl` as a separate process. Requests
 * to the TMaps hosts go to the server's origin, same path and query. Call once per test file, at
 * top level, in a file without `setupServer` (which would intercept these sockets too).
 */
export function socketRuntimes(): Runtime[] {
  const servers = new Map<TmapsMock, Promise<TmapsHttpsServer>>()
  const certDir = mkdtempSync(join(tmpdir(), 'tmaps-certs-'))
  afterEach(async () => {
    await Promise.all([...servers.values()].map(async (s) => (await s).close()))
    servers.clear()
  })
  afterAll(() => rmSync(certDir, { recursive: true, force: true }))
  const serverFor = (mock: TmapsMock) => {
    let server = servers.get(mock)
    if (!server) {
      server = startTmapsHttpsServer({ mock, port: 0, httpPort: 0, certDir })
      servers.set(mock, server)
    }
    return server
  }
  /** The server's URL for a request written against a TMaps host. */
  const target = async (mock: TmapsMock, url: string) => {
    const server = await serverFor(mock)
    const { protocol, pathname, search } = new URL(url)
    const base = protocol === 'http:' ? server.httpUrl! : server.url
    return { server, url: `${base}${pathname}${search}` }
  }
  return [
    {
      name: 'the HTTPS server + undici',
      async send(mock, url, init) {
        const { server, url: to } = await target(mock, url)
        const dispatcher = new Agent({ connect: { ca: server.ca } })
        const response = await undiciFetch(to, { ...(init as object), dispatcher })
        const body = new Uint8Array(await response.arrayBuffer())
        await dispatcher.close()
        return new Response(response.status === 204 || response.status === 304 ? null : body, {
          status: response.status,
          headers: [...response.headers],
        })
      },
    },
    {
      name: 'the HTTPS server + curl',
      async send(mock, url, init = {}) {
        const { server, url: to } = await target(mock, url)
        const args = ['-s', '-i', '--cacert', server.caPath!, '-X', init.method ?? 'GET']
        // curl drops "Name:" (empty value); "Name;" sends the header empty.
        for (const [name, value] of new Headers(init.headers))
          args.push('-H', value === '' ? `${name};` : `${name}: ${value}`)
        if (init.body !== undefined && init.body !== null) args.push('--data-binary', String(init.body))
        args.push(to)
        const { stdout } = await execFileAsync('curl', args, {
          encoding: 'buffer',
          maxBuffer: 64 * 1024 * 1024,
        })
        const split = stdout.indexOf('\r\n\r\n')
        const head = stdout.subarray(0, split).toString('latin1').split('\r\n')
        const status = Number(head[0]!.split(' ')[1])
        const headers = head.slice(1).map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as [string, string]
        })
        const body = stdout.subarray(split + 4)
        return new Response(status === 204 || status === 304 ? null : new Uint8Array(body), {
          status,
          headers,
        })
      },
    },
  ]
}
