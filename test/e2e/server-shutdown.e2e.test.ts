import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTmapsHttpsServer } from '../../src/runtimes/server/https-server.ts'

/**
 * `close()` (what `tmaps-mock serve` does on SIGTERM and Ctrl-C) answers every request already
 * sent. The load comes from another process, as clients do: 200 mixed requests (geocode,
 * matrix, tiles, static maps), each on a new connection, then the server is closed while they
 * are still arriving and being drawn; and 200 keep-alive clients asking in a loop, then SIGTERM.
 */
const certDir = mkdtempSync(join(tmpdir(), 'tmaps-shutdown-'))
afterAll(() => rmSync(certDir, { recursive: true, force: true }))
const node = resolve(import.meta.dirname, '../../node_modules/.bin/node')

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
      // Destinations around Kairouan, inland.
      { origins: [{ lat: 36.8, lng: 10.18 }], destinations: [{ lat: 35.67 + i / 2000, lng: 10.1 }] },
    ])
    requests.push([`/r-tile/12/${2160 + (i % 10)}/${1590 + Math.floor(i / 10)}?${key}`])
    requests.push([`/maps/static?center=36.8,10.18&zoom=${10 + (i % 4)}&size=${200 + i}x200&${key}`])
  }
  return requests
}

/** Starts the client process; resolves once all its connections are established; then, its outcomes. */
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

/** Starts a real `tmaps-mock serve` (the CLI, a child process) with `--save`: its URL, CA, key and exit. */
async function serve(save: string) {
  const cli = resolve(import.meta.dirname, '../../src/cli/tmaps-mock.ts')
  const child = spawn(node, [cli, 'serve', '--port', '0', '--seed', 'shutdown', '--quiet', '--save', save], {
    env: { ...process.env, XDG_CACHE_HOME: certDir },
  })
  let banner = ''
  child.stdout.on('data', (chunk) => {
    banner += chunk
  })
  await new Promise<void>((done) =>
    child.stdout.on('data', () => banner.includes('Ctrl-C to stop') && done()),
  )
  const url = banner.match(/serving the TMaps API at (https:\/\/\S+)/)![1]!.replace('localhost', '127.0.0.1')
  const ca = readFileSync(banner.match(/--cacert (\S+)/)![1]!, 'utf8')
  const key = banner.match(/Backend \(server-side\)\s+enabled\s+(ak_[0-9a-f]{32})/)![1]!
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return { child, url, ca, key, exited }
}

it.each([50, 300])(
  'SIGTERM to a real `tmaps-mock serve` %i ms after 200 fresh connections: all answered, then --save, exit 0',
  async (afterMs) => {
    const save = join(certDir, `saved-${afterMs}.json`)
    const { child, url, ca, key, exited } = await serve(save)
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

/**
 * The keep-alive client process: `clients` clients, each with its own keep-alive agent of one
 * socket, ask in a loop (geocode, route, tile, reverse). A client stops at its first answer that
 * says `Connection: close`, at its first error, or after `limitMs` whatever happens (the loop ends
 * by itself). Says "running" once every client has had an answer, then prints one outcome per
 * client: its statuses, how it ended, and whether each answer arrived whole.
 */
const KEEP_ALIVE_CLIENT = `
import { Agent, request } from 'node:https'
const { url, ca, key, clients, limitMs } = JSON.parse(process.argv[1])
const deadline = Date.now() + limitMs
const asks = (i) => [
  ['/geocoding/forward?q=Sfax&limit=' + (1 + (i % 5)) + '&api_key=' + key],
  ['/routing/direction?api_key=' + key,
    { waypoints: [{ lat: 36.8002, lng: 10.1815 }, { lat: 36.8528 + (i % 10) / 1000, lng: 10.3261 }] }],
  ['/r-tile/12/' + (2160 + (i % 10)) + '/' + (1590 + (i % 7)) + '?api_key=' + key],
  ['/geocoding/reverse?lat=' + (36.8 + (i % 10) / 1000) + '&lng=10.18&api_key=' + key],
]
const ask = (agent, [path, body]) => new Promise((done) => {
  const req = request(url + path, {
    agent, method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {},
  }, (res) => {
    res.resume()
    const close = res.headers.connection === 'close'
    res.on('end', () => done({ status: res.statusCode, close, whole: res.complete }))
    res.on('error', (e) => done({ error: e.code ?? e.message, reused: req.reusedSocket }))
  })
  req.on('error', (e) => done({ error: e.code ?? e.message, reused: req.reusedSocket }))
  req.end(body ? JSON.stringify(body) : undefined)
})
let started = 0
const client = async (i) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca })
  const seen = { answers: 0, statuses: [], broken: 0, end: 'limit', reused: undefined }
  for (let n = 0; Date.now() < deadline; n++) {
    const outcome = await ask(agent, asks(i)[(i + n) % 4])
    if (outcome.error) {
      seen.end = outcome.error
      seen.reused = outcome.reused
      break
    }
    if (++seen.answers === 1 && ++started === clients) process.stdout.write('running\\n')
    if (outcome.status !== 200) seen.statuses.push(outcome.status)
    if (!outcome.whole) seen.broken++
    if (outcome.close) {
      seen.end = 'close'
      break
    }
  }
  agent.destroy()
  return seen
}
const outcomes = await Promise.all(Array.from({ length: clients }, (_, i) => client(i)))
process.stdout.write(JSON.stringify(outcomes) + '\\n')
`

interface KeepAliveOutcome {
  /** Answers received (the last one included). */
  answers: number
  /** Statuses other than 200. */
  statuses: number[]
  /** Answers cut before their end. */
  broken: number
  /** `close` (an answer said `Connection: close`), an error code, or `limit` (never told to close). */
  end: string
  /** For an error: whether the request went on a reused keep-alive socket. */
  reused?: boolean
}

it('SIGTERM amid 200 keep-alive clients: each ends on Connection: close, at most 4 resets', async () => {
  const save = join(certDir, 'saved-keep-alive.json')
  const { child, url, ca, key, exited } = await serve(save)
  const clients = 200
  const client = spawn(node, [
    '--input-type=module',
    '-e',
    KEEP_ALIVE_CLIENT,
    JSON.stringify({ url, ca, key, clients, limitMs: 60_000 }),
  ])
  let out = ''
  client.stdout.on('data', (chunk) => {
    out += chunk
  })
  const ended = new Promise<KeepAliveOutcome[]>((done) =>
    client.once('exit', () => done(JSON.parse(out.split('\n').at(-2)!))),
  )
  // Every client has had an answer (its socket is in the agent's pool), then 2 s of load.
  await new Promise<void>((done) => client.stdout.on('data', () => out.startsWith('running') && done()))
  await new Promise((done) => setTimeout(done, 2_000))
  child.kill('SIGTERM')
  const outcomes = await ended

  expect(outcomes).toHaveLength(clients)
  // Every answer whole and 200, before the signal and after it.
  expect(outcomes.flatMap((o) => o.statuses)).toEqual([])
  expect(outcomes.reduce((sum, o) => sum + o.broken, 0)).toBe(0)
  // A client ends on an answer that says `Connection: close` (the server's next answer on that
  // connection after the signal), or on a reset. A reset is allowed to a few: a keep-alive
  // connection left idle through the whole grace is ended, and a client that sends its request
  // while that FIN is in flight gets ECONNRESET (Node's client does not retry a reused socket).
  const resets = outcomes.filter((o) => o.end !== 'close')
  expect(
    resets.every((o) => o.end === 'ECONNRESET' && o.reused),
    JSON.stringify(resets),
  ).toBe(true)
  expect(resets.length, JSON.stringify(resets)).toBeLessThanOrEqual(4)
  expect(await exited).toBe(0)
  expect(JSON.parse(readFileSync(save, 'utf8')).format).toBe('tmaps-mock/snapshot')
}, 120_000)
