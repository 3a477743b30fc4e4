import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, afterEach, vi } from 'vitest'
import { startTmapsHttpsServer, type TmapsHttpsServer } from '../../src/runtimes/server/https-server.ts'

type Options = Parameters<typeof startTmapsHttpsServer>[0]

/**
 * `tmaps-mock serve`'s server for a test file: `start(options)` runs one on a free port (empty
 * state, this file's seed, one certificate folder for the file) and gives it with an undici agent
 * that trusts its CA and `call(path, init)`, which reads the answer as text. Every server is
 * closed after its test, the certificates after the file.
 * @example const start = httpsServers('security'); const { call } = await start()
 */
export function httpsServers(seed: string) {
  const certDir = mkdtempSync(join(tmpdir(), `tmaps-${seed}-`))
  const servers: TmapsHttpsServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
    vi.restoreAllMocks()
  })
  afterAll(() => rmSync(certDir, { recursive: true, force: true }))
  return async function start(options: Options = {}, agentOptions: Agent.Options = {}) {
    const server = await startTmapsHttpsServer({ port: 0, state: 'empty', seed, certDir, ...options })
    servers.push(server)
    const agent = new Agent({ ...agentOptions, connect: { ca: server.ca! } })
    const call = async (path: string, init: Parameters<typeof request>[1] = {}) => {
      const response = await request(`${server.url}${path}`, { dispatcher: agent, ...init })
      const text = await response.body.text()
      return { status: response.statusCode, headers: response.headers, text, json: () => JSON.parse(text) }
    }
    return { server, agent, call, certDir }
  }
}
