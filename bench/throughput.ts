/**
 * Throughput of `tmaps-mock serve` against a bare `node:https` server, measured honestly: each
 * server runs in its own process, the load generator (autocannon) in this one, A and B alternate
 * in rounds, and the report takes the median of the per-round ratios, the p99 latencies, and
 * each server's CPU time per request read from /proc. Rows: a cached forward geocode (200), a
 * 401, a 403 and a cached tile, with keep-alive and with a new TLS connection per request.
 * Target: >= 0.8x bare on the cached geocode, p99 <= 2x bare.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { Agent, request } from 'undici'
import { localCertificate } from '../src/server/certificate.ts'
import type { Comparison } from './harness.ts'

const node = process.execPath
const script = join(import.meta.dirname, 'server-process.ts')
const ROUNDS = Number(process.env.THROUGHPUT_ROUNDS ?? 6)
const SECONDS = Number(process.env.THROUGHPUT_SECONDS ?? 2)
const CONNECTIONS = 50
/** `THROUGHPUT_ONLY=403` runs the rows whose label holds this text (while profiling one path). */
const ONLY = process.env.THROUGHPUT_ONLY

interface Started {
  child: ChildProcess
  port: number
  pid: number
  info: Record<string, string>
}

function startProcess(args: string[]): Promise<Started> {
  const child = spawn(node, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
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

/** User + system CPU time of a process, in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

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
  // Record the mock's answers (warming its cache), then let the bare server answer the same bytes.
  const agent = new Agent({ connect: { ca: ca! } })
  const answers: Record<string, { status: number; headers: Record<string, string>; body: string }> = {}
  for (const c of cases) {
    const response = await request(`https://localhost:${tmaps.port}${c.path}`, {
      dispatcher: agent,
      ...(c.origin && { headers: { origin: c.origin } }),
    })
    const body = Buffer.from(await response.body.arrayBuffer())
    const headers = Object.fromEntries(
      Object.entries(response.headers).filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)),
    ) as Record<string, string>
    answers[c.path] = { status: response.statusCode, headers, body: body.toString('base64') }
  }
  await agent.close()
  const answersFile = join(certDir, 'answers.json')
  writeFileSync(answersFile, JSON.stringify(answers))
  const bare = await startProcess(['bare', certDir, answersFile])

  const rows: Comparison[] = []
  const notes: string[] = []
  const load = async (server: Started, path: string, origin: string | undefined, keepAlive: boolean) => {
    const before = cpuMicros(server.pid)
    const result = await autocannon({
      url: `https://localhost:${server.port}${path}`,
      connections: keepAlive ? CONNECTIONS : 10,
      duration: SECONDS,
      headers: { ...(origin && { origin }), ...(!keepAlive && { connection: 'close' }) },
    })
    const cpu = cpuMicros(server.pid) - before
    const total = result.requests.total
    return {
      rps: total / SECONDS,
      p99: result.latency.p99,
      cpuPerRequest: cpu / Math.max(1, total),
      errors: result.errors + result.non2xx * 0,
    }
  }
  try {
    for (const keepAlive of [true, false]) {
      for (const c of cases) {
        if (!keepAlive && c.label.startsWith('cached raster')) continue
        if (ONLY && !c.label.includes(ONLY)) continue
        await load(tmaps, c.path, c.origin, keepAlive) // warm-up both
        await load(bare, c.path, c.origin, keepAlive)
        const ratios: number[] = []
        const a = { rps: [] as number[], p99: [] as number[], cpu: [] as number[] }
        const b = { rps: [] as number[], p99: [] as number[], cpu: [] as number[] }
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)
          const got: Record<'a' | 'b', Awaited<ReturnType<typeof load>>> = {} as never
          for (const which of order)
            got[which] = await load(which === 'a' ? tmaps : bare, c.path, c.origin, keepAlive)
          ratios.push(got.a.rps / got.b.rps)
          for (const [slot, r] of [
            [a, got.a],
            [b, got.b],
          ] as const) {
            slot.rps.push(r.rps)
            slot.p99.push(r.p99)
            slot.cpu.push(r.cpuPerRequest)
          }
        }
        const ratio = median(ratios)
        const label = `HTTPS ${c.label}, ${keepAlive ? `keep-alive, ${CONNECTIONS} connections` : 'a new TLS connection per request'}`
        const primary = keepAlive && c.label.startsWith('cached forward')
        rows.push({
          label,
          a: 'tmaps-mock serve (req/s)',
          b: 'bare node:https, same bytes',
          aMicros: 1e6 / median(a.rps),
          bMicros: 1e6 / median(b.rps),
          // The harness reads A/B as "A takes this many times longer": the inverse of the rps ratio.
          ratio: 1 / ratio,
          target: primary ? 1 / 0.8 : null,
        })
        notes.push(
          `${label}: ${Math.round(median(a.rps))} vs ${Math.round(median(b.rps))} req/s (median of per-round ratios ${ratio.toFixed(2)}x` +
            `${primary ? '; target >= 0.8x' : ''}), p99 ${median(a.p99)} vs ${median(b.p99)} ms` +
            `${primary ? ` (${(median(a.p99) / Math.max(1, median(b.p99))).toFixed(1)}x; target <= 2x)` : ''}, ` +
            `server CPU ${median(a.cpu).toFixed(0)} vs ${median(b.cpu).toFixed(0)} µs a request`,
        )
      }
    }
  } finally {
    tmaps.child.kill()
    bare.child.kill()
    rmSync(certDir, { recursive: true, force: true })
  }
  return { rows, notes }
}
