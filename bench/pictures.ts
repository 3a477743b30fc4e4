/**
 * Pictures part of `npm run bench`: `tmaps-mock serve` draws tiles and static maps in worker
 * threads, so the answering thread stays free. Each server in its own process (bench/server-process.ts):
 * the default one (render pool) and one drawing in its answering thread, as before 0.3.
 * 1. A cached geocode's p99: 200 in a row alone, then one after another for as long as 8 costly
 *    static maps (1280 x 1280, 10 full-frame polygons) or 50 ordinary 1280 x 1280 maps are in
 *    flight. Target: <= 2x its p99 alone, with the pool.
 * 2. The same p99 while four clients send the heaviest valid JSON requests one after another for
 *    8 s (25-waypoint routes with steps and alternatives, 50-stop tours, four one-hour isochrone
 *    contours, 25 x 25 matrices, 200-character geocodes; each new, so none is cached). Target:
 *    <= 2x its p99 alone, with the pool (which computes them in its threads).
 * 3. Tiles per second: 400 distinct z14 tiles over 8 connections, pool against in-thread.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { localCertificate } from '../src/runtimes/server/certificate.ts'
import { benchAgent, type Comparison } from './harness.ts'

const script = join(import.meta.dirname, 'server-process.ts')

interface Server {
  child: ChildProcess
  base: string
  key: string
}

function start(kind: string, certDir: string): Promise<Server> {
  const child = spawn(process.execPath, [script, kind, certDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      if (!out.includes('\n')) return
      const info = JSON.parse(out.split('\n')[0]!)
      resolve({ child, base: `https://localhost:${info.port}`, key: info.backend })
    })
    child.once('exit', (code) => reject(new Error(`bench server ${kind} exited with ${code}`)))
  })
}

const quantile = (values: number[], q: number) =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))]!

const HEAVY_SECONDS = 8
const stops = (count: number, n: number) =>
  Array.from({ length: count }, (_, i) => ({
    lat: 35.6 + ((i * 7 + n) % 25) * 0.04,
    lng: 9.6 + ((i * 11 + n) % 25) * 0.03,
  }))
/** The `n`th heavy request: the heaviest of each kind the docs allow, new each time. */
function heavyRequest(n: number): [string, unknown?] {
  const at = { lat: 36.8 + (n % 97) * 0.001, lng: 10.18 }
  switch (n % 5) {
    case 0:
      return ['/routing/direction', { waypoints: stops(25, n), steps: true, alternatives: true }]
    case 1:
      return ['/routing/optimized', { origin: at, waypoints: stops(50, n), steps: true }]
    case 2:
      return ['/routing/isochrone', { origin: at, contours: [15, 30, 45, 60].map((time) => ({ time })) }]
    case 3:
      return ['/distance-matrix', { origins: stops(25, n), destinations: stops(25, n + 3) }]
    default:
      return [
        `/geocoding/forward?q=${encodeURIComponent(`rue ${n} de la liberte sfax `.repeat(8).slice(0, 200))}`,
      ]
  }
}

/** A p99 row: loaded against alone, at most 2x. */
function p99Row(label: string, a: string, { alone, loaded }: { alone: number; loaded: number }): Comparison {
  return {
    label,
    a,
    b: 'alone',
    aMicros: loaded * 1000,
    bMicros: alone * 1000,
    ratio: loaded / alone,
    target: 2,
  }
}

export async function pictureRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const certDir = mkdtempSync(join(tmpdir(), 'tmaps-pictures-'))
  const { ca } = await localCertificate(certDir)
  const agent = benchAgent(ca!, { connections: 64 })
  /** The status, or 0 when the request failed (counted in the notes, never a crash of the bench). */
  const get = async (server: Server, path: string, json?: unknown) => {
    try {
      const response = await request(
        `${server.base}${path}${path.includes('?') ? '&' : '?'}api_key=${server.key}`,
        {
          dispatcher: agent,
          ...(json !== undefined && { method: 'POST', body: JSON.stringify(json) }),
        },
      )
      await response.body.arrayBuffer()
      return response.statusCode
    } catch {
      return 0
    }
  }
  /** A cached geocode's p99: 500 in a row, or, with `during`, one after another until it settles. */
  const geocodeP99 = async (server: Server, during?: Promise<unknown>) => {
    const times: number[] = []
    let settled = during === undefined
    void during?.finally(() => {
      settled = true
    })
    for (let i = 0; during ? !settled || i < 20 : i < 500; i++) {
      const started = performance.now()
      await get(server, '/geocoding/forward?q=Sfax&limit=1')
      times.push(performance.now() - started)
    }
    return quantile(times, 0.99)
  }
  const areas = Array(10).fill('polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0').join('&')
  const loads = {
    '8 costly static maps': (i: number) =>
      `/maps/static?center=36.8,10.${10 + (i % 8)}&zoom=13&size=1280x1280&${areas}`,
    '50 ordinary 1280 x 1280 static maps': (i: number) =>
      `/maps/static?center=36.${70 + (i % 50)},10.18&zoom=12&size=1280x1280&marker=36.8,10.18`,
  }
  const rows: Comparison[] = []
  const notes: string[] = []
  const servers = { pool: await start('tmaps', certDir), inThread: await start('tmaps-inthread', certDir) }
  try {
    for (const server of Object.values(servers)) {
      await get(server, '/geocoding/forward?q=Sfax&limit=1')
      await get(server, '/maps/static?center=36.8,10.18&zoom=13&size=64x64')
    }
    for (const [name, path] of Object.entries(loads)) {
      const count = name.startsWith('8') ? 8 : 50
      const result: Record<string, { alone: number; loaded: number; statuses: number[] }> = {}
      for (const [kind, server] of Object.entries(servers)) {
        const alone = await geocodeP99(server)
        const pictures = Promise.all(
          Array.from({ length: count }, (_, i) => get(server, `${path(i)}&n=${kind}`)),
        )
        // Geocodes one after another for as long as the pictures are being drawn.
        const loaded = await geocodeP99(server, pictures)
        result[kind] = { alone, loaded, statuses: await pictures }
      }
      const pool = result.pool!
      rows.push(
        p99Row(
          `HTTPS cached geocode p99 with ${name} in flight (render pool)`,
          'with the pictures in flight',
          pool,
        ),
      )
      const inThread = result.inThread!
      notes.push(
        `Geocode p99 with ${name} in flight: render pool ${pool.loaded.toFixed(1)} ms (alone ${pool.alone.toFixed(1)} ms), ` +
          `drawn in the answering thread ${inThread.loaded.toFixed(0)} ms (alone ${inThread.alone.toFixed(1)} ms); ` +
          `pictures answered: ${[...new Set(pool.statuses)].join('/')} (pool), ${[...new Set(inThread.statuses)].join('/')} (in thread)`,
      )
    }
    // Four clients sending the heaviest valid JSON requests, each new.
    const heavyResult: Record<string, { alone: number; loaded: number; statuses: number[] }> = {}
    for (const [kind, server] of Object.entries(servers)) {
      const alone = await geocodeP99(server)
      const until = performance.now() + HEAVY_SECONDS * 1000
      let n = 0
      const statuses: number[] = []
      const clients = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (performance.now() < until) {
            const [path, body] = heavyRequest(n++)
            statuses.push(await get(server, path, body))
          }
        }),
      )
      const loaded = await geocodeP99(server, clients)
      heavyResult[kind] = { alone, loaded, statuses }
    }
    const heavyPool = heavyResult.pool!
    const heavyInThread = heavyResult.inThread!
    rows.push(
      p99Row(
        'HTTPS cached geocode p99 with four clients sending the heaviest JSON requests (render pool)',
        'with the heavy requests',
        heavyPool,
      ),
    )
    const answered = (statuses: number[]) =>
      [...new Set(statuses)].map((s) => `${statuses.filter((t) => t === s).length} x ${s}`).join(', ')
    notes.push(
      `Geocode p99 with four heavy JSON clients: render pool ${heavyPool.loaded.toFixed(1)} ms (alone ${heavyPool.alone.toFixed(1)} ms), ` +
        `computed in the answering thread ${heavyInThread.loaded.toFixed(0)} ms (alone ${heavyInThread.alone.toFixed(1)} ms); ` +
        `heavy requests answered in ${HEAVY_SECONDS} s: ${answered(heavyPool.statuses)} (pool), ${answered(heavyInThread.statuses)} (in thread)`,
    )
    // Tiles per second, 400 distinct z14 tiles over 8 connections.
    const tileSeconds: Record<string, number> = {}
    for (const [kind, server] of Object.entries(servers)) {
      const paths = Array.from(
        { length: 400 },
        (_, i) => `/r-tile/14/${8650 + (i % 20)}/${6390 + Math.floor(i / 20)}?k=${kind}`,
      )
      const started = performance.now()
      let next = 0
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < paths.length) await get(server, paths[next++]!)
        }),
      )
      tileSeconds[kind] = (performance.now() - started) / 1000
    }
    rows.push({
      label: 'HTTPS 400 distinct z14 tiles, 8 connections: time per tile',
      a: 'render pool',
      b: 'drawn in the answering thread',
      aMicros: (tileSeconds.pool! / 400) * 1e6,
      bMicros: (tileSeconds.inThread! / 400) * 1e6,
      ratio: tileSeconds.pool! / tileSeconds.inThread!,
      target: null,
    })
    notes.push(
      `Tiles per second: render pool ${(400 / tileSeconds.pool!).toFixed(0)}, in the answering thread ${(400 / tileSeconds.inThread!).toFixed(0)}.`,
    )
  } finally {
    for (const server of Object.values(servers)) server.child.kill()
    await agent.close()
    rmSync(certDir, { recursive: true, force: true })
  }
  return { rows, notes }
}
