/**
 * Memory part of `npm run bench` (`BENCH_ONLY=memory`): `tmaps-mock serve` as a user runs it
 * (the CLI, from dist/ when built), under mixed load for 5 minutes (`MIXED_LOAD_SECONDS`), then
 * idle for 30 s (`MIXED_IDLE_SECONDS`). Eight clients send what a team's dev server sees, each
 * request new (none answered from a cache): geocodes (a few long ones), reverse and nearby
 * searches, tiles at every zoom over the country, static maps up to 1280 x 1280, directions,
 * tours, isochrones and matrices. Target: resident memory (the whole process, its render
 * threads included) at most 150 MB after the idle spell; the peak during the load is printed.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { localCertificate } from '../src/runtimes/server/certificate.ts'
import { benchAgent, type Comparison } from './harness.ts'

const root = join(import.meta.dirname, '..')
const built = join(root, 'dist/cli/tmaps-mock.js')
const cli = existsSync(built) ? built : join(root, 'src/cli/tmaps-mock.ts')
const LOAD_SECONDS = Number(process.env.MIXED_LOAD_SECONDS ?? 300)
const IDLE_SECONDS = Number(process.env.MIXED_IDLE_SECONDS ?? 30)
const CLIENTS = 8
/** The budget: serve's RSS after the load and the idle spell. */
export const IDLE_RSS_BUDGET_MB = 150

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024
/** The resident memory of a process's children (the render processes), in MB. */
const childrenMb = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(' ')
    .filter(Boolean)
    .reduce((sum, child) => {
      try {
        return sum + rssMb(Number(child))
      } catch {
        return sum // ended meanwhile
      }
    }, 0)

const TOWNS = [
  'Tunis',
  'Sfax',
  'Sousse',
  'Kairouan',
  'Bizerte',
  'Gabès',
  'Nabeul',
  'Monastir',
  'Tozeur',
  'Djerba',
]
/** Inland points of eight towns: offsets of up to ~4 km from them stay on land. */
const CITIES: Array<[number, number]> = [
  [36.8, 10.1],
  [34.74, 10.7],
  [35.8, 10.58],
  [35.68, 10.08],
  [36.72, 9.18],
  [33.88, 10.05],
  [36.45, 10.68],
  [35.17, 8.83],
]
const stops = (count: number, n: number) =>
  Array.from({ length: count }, (_, i) => {
    const [lat, lng] = CITIES[(n + i) % CITIES.length]!
    return { lat: lat + ((i * 7 + n) % 13) * 0.003, lng: lng - ((i * 5 + n) % 11) * 0.003 }
  })

/** The `n`th request of the mix: [path, JSON body of a POST]. */
export function mixed(n: number): [string, unknown?] {
  const [lat, lng] = CITIES[n % CITIES.length]!
  const near = (k: number) =>
    `${(lat + (k % 97) * 0.0004).toFixed(5)},${(lng - (k % 89) * 0.0004).toFixed(5)}`
  const slot = n % 20
  if (slot < 6)
    return [`/geocoding/forward?q=${encodeURIComponent(`${n} Avenue Habib Bourguiba ${TOWNS[n % 10]}`)}`]
  if (slot === 6)
    return [
      `/geocoding/forward?q=${encodeURIComponent(`residence ${n} rue de la liberte ${TOWNS[n % 10]} `.repeat(3))}`,
    ]
  if (slot === 7) return [`/geocoding/reverse?lat=${near(n).split(',')[0]}&lng=${near(n).split(',')[1]}`]
  if (slot === 8)
    return [
      `/geocoding/nearby?lat=${near(n).split(',')[0]}&lng=${near(n).split(',')[1]}&radius=1000&category=cafe`,
    ]
  if (slot < 14) {
    const z = 6 + (n % 11)
    const x = Math.floor(((lng + 180) / 360) * 2 ** z) + (n % 3)
    const rad = (lat * Math.PI) / 180
    const y =
      Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z) + ((n >> 2) % 3)
    return [`/r-tile/${z}/${x}/${y}`]
  }
  if (slot === 14) {
    const size = [400, 800, 1280][n % 3]
    return [`/maps/static?center=${near(n)}&zoom=${11 + (n % 5)}&size=${size}x${size}&marker=${near(n + 1)}`]
  }
  if (slot < 17) return [`/routing/direction?from=${near(n)}&to=${near(n + 40)}&steps=true`]
  if (slot === 17) return ['/routing/direction', { waypoints: stops(8, n), steps: true, alternatives: true }]
  if (slot === 18) return ['/distance-matrix', { origins: stops(10, n), destinations: stops(10, n + 3) }]
  return n % 2
    ? ['/routing/isochrone', { origin: stops(1, n)[0], contours: [{ time: 10 }, { time: 20 }] }]
    : ['/routing/optimized', { waypoints: stops(12, n), steps: true }]
}

export async function memoryRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const cache = mkdtempSync(join(tmpdir(), 'tmaps-memory-'))
  const { ca } = await localCertificate(join(cache, 'tmaps-mock'))
  const agent = benchAgent(ca!, { connections: CLIENTS })
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--port', '0', '--quiet', '--seed', 'bench', '--state', 'empty'],
    {
      env: { ...process.env, XDG_CACHE_HOME: cache },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      child.stdout!.on('data', (chunk) => {
        out += chunk
        const found = /https:\/\/localhost:(\d+)/.exec(out)?.[1]
        if (found) resolve(Number(found))
      })
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
    })
    const base = `https://localhost:${port}`
    const created = await request(`${base}/__console/keys`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'memory bench' }),
    })
    const { value } = (await created.body.json()) as { value: string }
    const freshMb = rssMb(child.pid!)
    const statuses = new Map<number, number>()
    let peakMb = freshMb
    let peakChildrenMb = 0
    const sampler = setInterval(() => {
      peakMb = Math.max(peakMb, rssMb(child.pid!))
      peakChildrenMb = Math.max(peakChildrenMb, childrenMb(child.pid!))
    }, 1000)
    const until = performance.now() + LOAD_SECONDS * 1000
    let n = 0
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < until) {
          const [path, body] = mixed(n++)
          let status = 0
          try {
            const answer = await request(`${base}${path}${path.includes('?') ? '&' : '?'}api_key=${value}`, {
              dispatcher: agent,
              ...(body !== undefined && { method: 'POST', body: JSON.stringify(body) }),
            })
            await answer.body.dump()
            status = answer.statusCode
          } catch {}
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }
      }),
    )
    clearInterval(sampler)
    const loadedMb = rssMb(child.pid!)
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
    const idleMb = rssMb(child.pid!)
    const idleChildrenMb = childrenMb(child.pid!)
    const answered = [...statuses].map(([status, count]) => `${count} x ${status}`).join(', ')
    return {
      rows: [
        {
          label: `tmaps-mock serve RSS after ${LOAD_SECONDS} s of mixed load and ${IDLE_SECONDS} s idle (${cli.endsWith('.js') ? 'dist/' : 'source'})`,
          a: 'resident memory, MB',
          b: 'budget, MB',
          aMicros: idleMb,
          bMicros: IDLE_RSS_BUDGET_MB,
          ratio: idleMb / IDLE_RSS_BUDGET_MB,
          target: 1,
        },
      ],
      notes: [
        `Mixed load (${CLIENTS} clients, ${LOAD_SECONDS} s, ${n} requests: ${answered}): RSS ${freshMb.toFixed(0)} MB fresh, ` +
          `peak ${peakMb.toFixed(0)} MB, ${loadedMb.toFixed(0)} MB at the end of the load, ${idleMb.toFixed(0)} MB after ${IDLE_SECONDS} s idle (budget ${IDLE_RSS_BUDGET_MB} MB); ` +
          `its render processes: peak ${peakChildrenMb.toFixed(0)} MB, ${idleChildrenMb.toFixed(0)} MB after the idle spell (they end after 15 s without a job).`,
      ],
    }
  } finally {
    child.kill()
    await agent.close()
    rmSync(cache, { recursive: true, force: true })
  }
}
