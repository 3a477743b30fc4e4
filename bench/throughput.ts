/**
 * Throughput of `tmaps-mock serve` against a bare `node:https` server, measured honestly: each
 * server runs in its own process; the load comes from this one through a loader cheaper than
 * either server (bench/paired-load.ts: raw keep-alive TLS connections, no HTTP client), loading
 * the two in turn every 0.5 s; the report takes the median of the paired ratios and their
 * interquartile range, with each server's CPU time per request (/proc) and the loader's.
 * Rows: a cached forward geocode (200), a 401, a 403 and a cached tile; the geocode again after
 * the server idled and gave its memory back, and with the terminal's request lines. Targets: >= 0.90x
 * bare, >= 0.85x after an idle spell, the lines' row information.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { IDLE_COLLECTED_AFTER_MS } from '../src/cli/heap.ts'
import { localCertificate } from '../src/runtimes/server/certificate.ts'
import { benchAgent, type Comparison } from './harness.ts'
import { pairedLoad } from './paired-load.ts'

const node = process.execPath
const script = join(import.meta.dirname, 'server-process.ts')
const PAIRS = Number(process.env.THROUGHPUT_PAIRS ?? 30)
const CONNECTIONS = 16
/** `THROUGHPUT_ONLY=403` runs the rows whose label holds this text (while profiling one path). */
const ONLY = process.env.THROUGHPUT_ONLY
/**
 * the cached geocode, the 401, the 403 and the cached tile at least 0.90x of bare `node:https`.
 */
const TARGET = 0.9
/** The same geocode after an idle spell. */
const IDLE_TARGET = 0.85

interface Started {
  child: ChildProcess
  port: number
  pid: number
  info: Record<string, string>
}

/**
 * `THROUGHPUT_PROFILE=<dir>`: the mock's server and the bare one run with `--cpu-prof` into that folder
 * (written when the bench ends it); `node bench/profile-steps.ts <dir>/<file>.cpuprofile` then says what each
 * step of a request costs.
 */
const PROFILE = process.env.THROUGHPUT_PROFILE

function startProcess(args: string[]): Promise<Started> {
  const profile =
    PROFILE && (args[0] === 'tmaps' || args[0] === 'bare') ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []
  const flags =
    args[0] === 'tmaps' ? (process.env.THROUGHPUT_NODE_FLAGS?.split(' ').filter(Boolean) ?? []) : []
  const child = spawn(node, [...profile, ...flags, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n')[0]
      if (out.includes('\n')) {
        const info = JSON.parse(line!)
        resolve({ child, port: Number(info.port), pid: info.pid, info })
      }
    })
    child.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited with ${code}`)))
  })
}

export async function throughputRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const certDir = mkdtempSync(join(tmpdir(), 'tmaps-throughput-'))
  const { ca } = await localCertificate(certDir)
  const tmaps = await startProcess(['tmaps', certDir])
  const { backend, web } = tmaps.info as { backend: string; web: string }
  const cases = [
    {
      label: 'cached forward geocode (200)',
      path: `/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3&api_key=${backend}`,
    },
    { label: '401 (unknown key)', path: `/geocoding/forward?q=Sfax&api_key=ak_${'0'.repeat(32)}` },
    {
      label: '403 (foreign Origin)',
      path: `/geocoding/forward?q=Sfax&api_key=${web}`,
      origin: 'https://evil.example',
    },
    { label: 'cached raster tile', path: `/r-tile/12/2163/1597?api_key=${backend}` },
  ]
  // Record the mock's answers (warming its cache), then let the bare server answer the same
  // bytes: its headers as the mock wrote them (their names' case and order; Node lower-cases a
  // header name to check it unless it already is), all but those Node adds itself.
  const answers: Record<string, { status: number; headers: Record<string, string>; body: string }> = {}
  for (const c of cases) answers[c.path] = await recordAnswer(tmaps.port, ca!, c.path, c.origin)
  const answersFile = join(certDir, 'answers.json')
  writeFileSync(answersFile, JSON.stringify(answers))
  const bare = await startProcess(['bare', certDir, answersFile])

  const withLines = await startProcess(['tmaps-lines', certDir])
  /**
   * Warms a row's server with the row's request right before the row (its geocoder made, its
   * answer remembered). `idle`: then waits until the server, idle, has given its memory back
   * (src/cli/heap.ts: the young generation shrunk, to grow back under the load).
   */
  const warm = async (server: Started, path: string, idle = false) => {
    const agent = benchAgent(ca!)
    await (await request(`https://localhost:${server.port}${path}`, { dispatcher: agent })).body.dump()
    await agent.close()
    if (idle) await new Promise((resolve) => setTimeout(resolve, IDLE_COLLECTED_AFTER_MS))
  }
  const rows: Comparison[] = []
  const notes: string[] = []
  const runs = [
    ...cases.map((c) => ({ ...c, server: tmaps })),
    // A server that has worked, idled and given its memory back (as a dev server does between
    // page loads): the load after it as fast as before.
    {
      ...cases[0]!,
      label: `${cases[0]!.label} after an idle spell`,
      server: tmaps,
      idle: true,
      target: IDLE_TARGET,
    },
    // The same keys (the same seed): the bare server's recorded answers fit its paths too.
    // Information: what the lines cost (docs/performance.md).
    {
      ...cases[0]!,
      label: `${cases[0]!.label} with the terminal's request lines`,
      server: withLines,
      target: null,
    },
  ]
  try {
    for (const c of runs) {
      if (ONLY && !c.label.includes(ONLY)) continue
      await warm(c.server, c.path, 'idle' in c && c.idle)
      const raw = `GET ${c.path} HTTP/1.1\r\nHost: localhost\r\n${c.origin ? `Origin: ${c.origin}\r\n` : ''}\r\n`
      const result = await pairedLoad(c.server, bare, raw, {
        ca: ca!,
        connections: CONNECTIONS,
        pairs: PAIRS,
      })
      const label = `HTTPS ${c.label}, keep-alive, ${CONNECTIONS} connections, paired`
      rows.push({
        label,
        a: 'tmaps-mock serve (req/s)',
        b: 'bare node:https, same bytes',
        aMicros: 1e6 / result.aRps,
        bMicros: 1e6 / result.bRps,
        // The harness reads A/B as "A takes this many times longer": the inverse of the rps ratio.
        ratio: 1 / result.ratio,
        target: 'target' in c ? (c.target === null ? null : 1 / c.target) : 1 / TARGET,
      })
      notes.push(
        `${label}: ${Math.round(result.aRps)} vs ${Math.round(result.bRps)} req/s, median of ${result.pairs} paired ratios ` +
          `${result.ratio.toFixed(2)}x (IQR ${result.q1.toFixed(2)}-${result.q3.toFixed(2)}; target >= ${'target' in c ? (c.target ?? '-') : TARGET}x); ` +
          `server CPU ${result.aCpuMicros.toFixed(0)} vs ${result.bCpuMicros.toFixed(0)} µs a request, ` +
          `the loader's ${result.loaderCpuMicros.toFixed(0)} µs${result.errors > 0 ? `; ${result.errors} socket errors` : ''}`,
      )
    }
  } finally {
    tmaps.child.kill()
    withLines.child.kill()
    bare.child.kill()
    rmSync(certDir, { recursive: true, force: true })
  }
  return { rows, notes }
}

/**
 * One answer of the mock as it is on the wire: status, headers in their case and order (but `Date` and the
 * connection's), body.
 */
export function recordAnswer(
  port: number,
  ca: string,
  path: string,
  origin?: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    get(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port,
        path,
        ca,
        agent: false,
        headers: origin ? { origin } : {},
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const headers: Record<string, string> = {}
          const raw = response.rawHeaders
          for (let i = 0; i < raw.length; i += 2)
            if (!['date', 'connection', 'keep-alive'].includes(raw[i]!.toLowerCase()))
              headers[raw[i]!] = raw[i + 1]!
          resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks).toString('base64') })
        })
      },
    ).on('error', reject)
  })
}
