import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTmapsHttpsServer } from '../src/runtimes/server/https-server.ts'

/**
 * `close()` (what `tmaps-mock serve` does on SIGTERM and Ctrl-C) answers every request already
 * sent. The load comes from another process, as clients do: 200 mixed requests (geocode,
 * matrix, tiles, static maps), each on a new connection, then the server is closed while they
 * are still arriving and being drawn.
 */
const certDir = mkdtempSync(join(tmpdir(), 'tmaps-shutdown-'))
afterAll(() => rmSync(certDir, { recursive: true, force: true }))
const node = resolve(import.meta.dirname, '../node_modules/.bin/node')

/**
 * The client process: opens a connection per request and sends it; once every connection is
 * established (the server's machine has it, whether or not the server has read it yet), says
 * "connected"; then prints each outcome.
 */
const CLIENT = `
import { request } from 'node:https'
const { url, ca, requests } = JSON.parse(process.argv[1])
let connected = 0
const outcomes = await new Promise((done) => {
  const all = requests.map(([path, body]) => new Promise((resolve) => {
    const req = request(url + path, {
      ca, agent: false, method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'application/json' } : {},
    }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
      res.on('error', (e) => resolve(e.code ?? e.message))
    })
    req.on('error', (e) => resolve(e.code ?? e.message))
    req.on('socket', (socket) => socket.once('connect', () => {
      if (++connected === requests.length) process.stdout.write('connected\\n')
    }))
    req.end(body ? JSON.stringify(body) : undefined)
  }))
  Promise.all(all).then(done)
})
process.stdout.write(JSON.stringify(outcomes) + '\\n')
`

/** 200 mixed requests: geocodes, matrices, tiles and static maps, with this key. */
function mixedRequests(value: string): Array<[string, unknown?]> {
  const key = `api_key=${value}`
  const requests: Array<[string, unknown?]> = []
  for (let i = 0; i < 50; i++) {
    requests.push([`/geocoding/forward?q=Sfax&limit=${1 + (i % 5)}&${key}`])
    requests.push([
      `/distance-matrix?${key}`,
      { origins: [{ lat: 36.8, lng: 10.18 }], destinations: [{ lat: 35.67 + i / 2000, lng: 10.1 }] }, // around Kairouan, inland
    ])
    requests.push([`/r-tile/12/${2160 + (i % 10)}/${1590 + Math.floor(i / 10)}?${key}`])
    requests.push([`/maps/static?center=36.8,10.18&zoom=${10 + (i % 4)}&size=${200 + i}x200&${key}`])
  }
  return requests
}

/** Starts the client process; resolves once all its connections are established, and with its outcomes at its exit. */
async function load(url: string, ca: string, requests: Array<[string, unknown?]>) {
  const client = spawn(node, ['--input-type=module', '-e', CLIENT, JSON.stringify({ url, ca, requests })])
  let out = ''
  client.stdout.on('data', (chunk) => {
    out += chunk
  })
  await new Promise<void>((done) => client.stdout.on('data', () => out.startsWith('connected') && done()))
  const outcomes = new Promise<Array<number | string>>((done) =>
    client.once('exit', () => done(JSON.parse(out.split('\n')[1]!))),
  )
  return { outcomes }
}

it.each([50, 300])(
  'answers all of 200 mixed requests on fresh connections when it is closed %i ms after they connected',
  async (afterMs) => {
    const server = await startTmapsHttpsServer({ port: 0, state: 'empty', seed: 'shutdown', certDir })
    const { value } = await server.mock.console.createKey({ name: 'Load' })
    const requests = mixedRequests(value)
    const { outcomes: answered } = await load(
      server.url.replace('localhost', '127.0.0.1'),
      server.ca!,
      requests,
    )
    await new Promise((done) => setTimeout(done, afterMs))
    await server.close()
    const outcomes = await answered
    expect(outcomes.filter((o) => o !== 200)).toEqual([])
    expect(outcomes).toHaveLength(200)
  },
  60_000,
)

it.each([50, 300])(
  'SIGTERM to a real `tmaps-mock serve` %i ms after 200 fresh connections connected: every one answered, then --save, then exit 0',
  async (afterMs) => {
    const cli = resolve(import.meta.dirname, '../src/cli/tmaps-mock.ts')
    const save = join(certDir, `saved-${afterMs}.json`)
    const child = spawn(
      node,
      [cli, 'serve', '--port', '0', '--seed', 'shutdown', '--quiet', '--save', save],
      {
        env: { ...process.env, XDG_CACHE_HOME: certDir },
      },
    )
    let banner = ''
    child.stdout.on('data', (chunk) => {
      banner += chunk
    })
    await new Promise<void>((done) =>
      child.stdout.on('data', () => banner.includes('Ctrl-C to stop') && done()),
    )
    const url = banner
      .match(/serving the TMaps API at (https:\/\/\S+)/)![1]!
      .replace('localhost', '127.0.0.1')
    const ca = readFileSync(banner.match(/--cacert (\S+)/)![1]!, 'utf8')
    const key = banner.match(/Backend \(server-side\)\s+enabled\s+(ak_[0-9a-f]{32})/)![1]!
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    const { outcomes } = await load(url, ca, mixedRequests(key))
    await new Promise((done) => setTimeout(done, afterMs))
    child.kill('SIGTERM')
    const answered = await outcomes
    expect(answered.filter((o) => o !== 200)).toEqual([])
    expect(answered).toHaveLength(200)
    expect(await exited).toBe(0)
    expect(JSON.parse(readFileSync(save, 'utf8')).format).toBe('tmaps-mock/snapshot')
  },
  90_000,
)
