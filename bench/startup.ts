/**
 * Start and idle memory of `tmaps-mock serve`, as a user starts it (the CLI, demo state, the
 * certificate already made), against a bare `node:https` server with the same certificate, in
 * alternating rounds: time from spawning the process to its first answer (a 401), its resident
 * memory once it listens and before any request, and, for the mock, the time its first geocode
 * takes (the geocoder loads on first use), then its resident memory idle after 100 geocodes
 * (the bare server after 100 answers). Targets: first answer <= 500 ms, idle after
 * 100 geocodes <= 120 MB.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Agent, request } from 'undici'
import { IDLE_COLLECTED_AFTER_MS } from '../src/cli/heap.ts'
import { localCertificate } from '../src/runtimes/server/certificate.ts'
import { benchAgent, type Comparison } from './harness.ts'

const root = join(import.meta.dirname, '..')
const built = join(root, 'dist/cli/tmaps-mock.js')
/**
 * The built CLI (what `npx tmaps-mock serve` runs) when there is one, else the source;
 * `STARTUP_CLI`: another build's `cli/tmaps-mock.js`, to compare builds.
 */
const cli = process.env.STARTUP_CLI ?? (existsSync(built) ? built : join(root, 'src/cli/tmaps-mock.ts'))
const ROUNDS = Number(process.env.STARTUP_ROUNDS ?? 5)
const BARE = `
const { createServer } = require('node:https')
const { readFileSync } = require('node:fs')
const dir = process.argv[1]
const server = createServer({ cert: readFileSync(dir + '/localhost.pem'), key: readFileSync(dir + '/localhost-key.pem') }, (req, res) => {
  res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"unauthorized"}')
})
server.listen(0, '127.0.0.1', () => console.log('listening at https://localhost:' + server.address().port))
`

/** Resident memory of a process, in MB (`VmRSS` in /proc/<pid>/status). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kb) / 1024
}

/** Spawns a server and resolves with its port once it prints its URL. */
function listening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const port = /https:\/\/localhost:(\d+)/.exec(out)?.[1]
      if (port) resolve(Number(port))
    })
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening: ${out}`)))
  })
}

interface Start {
  firstAnswerMs: number
  idleMb: number
  /** Resident memory idle after 100 geocodes (bare: 100 answers), in MB. */
  warmMb: number
  firstGeocodeMs?: number
}

const TOWNS = [
  'Sfax',
  'Sousse',
  'Djerba',
  'Kairouan',
  'Bizerte',
  'Gabès',
  'Nabeul',
  'Monastir',
  'Tunis',
  'Tozeur',
]

/** Resident memory of an idle server after `count` requests to `url(i)` (each a 200 or a 401). */
async function warmMb(pid: number, count: number, url: (i: number) => string, agent: Agent): Promise<number> {
  for (let i = 0; i < count; i++) {
    const answer = await request(url(i), { dispatcher: agent })
    await answer.body.dump()
    if (answer.statusCode !== 200 && answer.statusCode !== 401)
      throw new Error(`expected a 200 or a 401, got ${answer.statusCode}`)
  }
  // Idle: 4.5 s after the last answer (the CLI gives memory back after two quiet seconds
  // following work, 2-3 s after it: src/cli/heap.ts; the bare server has nothing of the kind).
  await new Promise((resolve) => setTimeout(resolve, IDLE_COLLECTED_AFTER_MS))
  // An API-only user pays nothing for the render pool (its child processes).
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
  )
  if (children.length > 0) throw new Error('a render process started without any picture asked for')
  return rssMb(pid)
}

export async function startupRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const cache = mkdtempSync(join(tmpdir(), 'tmaps-startup-'))
  const certDir = join(cache, 'tmaps-mock')
  const { ca } = await localCertificate(certDir)
  const agent = benchAgent(ca!)
  const unknownKey = `ak_${'0'.repeat(32)}`

  const start = async (kind: 'tmaps' | 'bare'): Promise<Start> => {
    const began = performance.now()
    const child =
      kind === 'tmaps'
        ? spawn(process.execPath, [cli, 'serve', '--port', '0', '--quiet', '--seed', 'bench'], {
            env: { ...process.env, XDG_CACHE_HOME: cache },
            stdio: ['ignore', 'pipe', 'inherit'],
          })
        : spawn(process.execPath, ['-e', BARE, certDir], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const port = await listening(child)
      const idleMb = rssMb(child.pid!)
      const first = await request(
        `https://localhost:${port}/geocoding/forward?q=Sfax&api_key=${unknownKey}`,
        {
          dispatcher: agent,
        },
      )
      await first.body.dump()
      const firstAnswerMs = performance.now() - began
      if (first.statusCode !== 401) throw new Error(`expected a 401, got ${first.statusCode}`)
      if (kind === 'bare') {
        const url = (i: number) => `https://localhost:${port}/geocoding/forward?q=${i}&api_key=${unknownKey}`
        return { firstAnswerMs, idleMb, warmMb: await warmMb(child.pid!, 99, url, agent) }
      }
      // A server-side key made through the control API (its value is shown once, on creation).
      const created = await request(`https://localhost:${port}/__console/keys`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench' }),
      })
      const { value } = (await created.body.json()) as { value: string }
      const t = performance.now()
      const geocode = await request(`https://localhost:${port}/geocoding/forward?q=Sfax&api_key=${value}`, {
        dispatcher: agent,
      })
      await geocode.body.dump()
      if (geocode.statusCode !== 200) throw new Error(`expected a 200, got ${geocode.statusCode}`)
      const firstGeocodeMs = performance.now() - t
      // 99 more, each a new address (answered by the geocoder, not from the answer cache).
      const url = (i: number) =>
        `https://localhost:${port}/geocoding/forward?q=${encodeURIComponent(`${i} Avenue Habib Bourguiba, ${TOWNS[i % TOWNS.length]}`)}&api_key=${value}`
      return { firstAnswerMs, idleMb, warmMb: await warmMb(child.pid!, 99, url, agent), firstGeocodeMs }
    } finally {
      child.kill()
    }
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
  const runs: Record<'tmaps' | 'bare', Start[]> = { tmaps: [], bare: [] }
  try {
    await start('tmaps') // warm the disk cache for both
    await start('bare')
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? (['tmaps', 'bare'] as const) : (['bare', 'tmaps'] as const))
        runs[kind].push(await start(kind))
    }
  } finally {
    await agent.close()
    rmSync(cache, { recursive: true, force: true })
  }
  const first = {
    a: median(runs.tmaps.map((r) => r.firstAnswerMs)),
    b: median(runs.bare.map((r) => r.firstAnswerMs)),
  }
  const idle = { a: median(runs.tmaps.map((r) => r.idleMb)), b: median(runs.bare.map((r) => r.idleMb)) }
  const warm = { a: median(runs.tmaps.map((r) => r.warmMb)), b: median(runs.bare.map((r) => r.warmMb)) }
  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`
  const geocodes = runs.tmaps.flatMap((r) => (r.firstGeocodeMs === undefined ? [] : [r.firstGeocodeMs]))
  const from = cli.endsWith('.js') ? 'dist/' : 'the sources (run npm run build to measure what users run)'
  return {
    rows: [
      {
        label: `start to first answer (a 401): tmaps-mock serve from ${cli.endsWith('.js') ? 'dist/' : 'source'}, demo state`,
        a: 'tmaps-mock serve',
        b: 'bare node:https process',
        aMicros: first.a * 1000,
        bMicros: first.b * 1000,
        ratio: first.a / first.b,
        target: null,
        budgetMs: 500,
      },
    ],
    notes: [
      `Start (tmaps-mock serve from ${from}, ${ROUNDS} rounds): first answer after ${first.a.toFixed(0)} ms vs ${first.b.toFixed(0)} ms bare; ` +
        `idle memory ${idle.a.toFixed(0)} MB RSS vs ${idle.b.toFixed(0)} MB bare before any request; ` +
        `idle after 100 geocodes ${warm.a.toFixed(0)} MB (${range(runs.tmaps.map((r) => r.warmMb))}) vs ${warm.b.toFixed(0)} MB bare after 100 answers, ` +
        `${(warm.a / warm.b).toFixed(2)}x (target <= 120 MB: ${warm.a <= 120 ? 'met' : 'NOT MET'}; no render process started); ` +
        (geocodes.length > 0
          ? `the first geocode then takes ${median(geocodes).toFixed(0)} ms (the geocoder loads on first use).`
          : 'the first geocode was not measured (no key value readable from the control API).'),
    ],
  }
}
