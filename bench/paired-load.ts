/**
 * A load generator cheaper than what it measures (autocannon costs about as much CPU per request
 * as the server on 2 cores, which caps both and pulls ratios towards 1): raw keep-alive TLS
 * connections, one request in flight on each, a pre-built request written again as soon as its
 * answer's last byte arrives (answers are read by Content-Length, nothing else is parsed). Two
 * servers are loaded in turn, switching every `phaseMs`; each pair of phases gives one ratio of
 * requests per second, and the report is the median of the pairs' ratios and their
 * interquartile range, with each server's CPU time per request (from /proc) and the loader's own.
 */
import { readFileSync } from 'node:fs'
import { connect, type TLSSocket } from 'node:tls'
import { quantile } from './harness.ts'

export interface Target {
  port: number
  /** The server's process id: its CPU time is read from /proc. */
  pid: number
}

export interface PairedResult {
  /** Median of the pairs' A/B requests-per-second ratios, and its interquartile range. */
  ratio: number
  q1: number
  q3: number
  aRps: number
  bRps: number
  /** Server CPU per request, µs (median over phases). */
  aCpuMicros: number
  bCpuMicros: number
  /** The loader's own CPU per request, µs: it must stay below the servers'. */
  loaderCpuMicros: number
  pairs: number
  errors: number
}

/** User + system CPU time of a process, in microseconds (/proc/<pid>/stat, 10 ms ticks). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/**
 * `connections` keep-alive TLS connections to `port` that send `request` again and again while `active()`.
 */
async function openLoad(
  port: number,
  ca: string,
  request: Buffer,
  connections: number,
  active: () => boolean,
) {
  let answered = 0
  let errors = 0
  const sockets: TLSSocket[] = []
  const HEADER_END = Buffer.from('\r\n\r\n')
  const open = () =>
    new Promise<TLSSocket>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' })
      let buffered: Buffer = Buffer.alloc(0)
      let need = -1 // bytes of the current answer still to come once its head is read
      let waiting = false
      const send = () => {
        if (!active()) {
          waiting = false
          return
        }
        waiting = true
        socket.write(request)
      }
      socket.on('data', (chunk: Buffer) => {
        let at = 0
        while (at < chunk.length) {
          if (need > 0) {
            // Body bytes are skipped, never copied.
            const take = Math.min(need, chunk.length - at)
            need -= take
            at += take
          } else if (need < 0) {
            buffered =
              buffered.length === 0 ? chunk.subarray(at) : Buffer.concat([buffered, chunk.subarray(at)])
            at = chunk.length
            const end = buffered.indexOf(HEADER_END)
            if (end < 0) break
            const head = buffered.subarray(0, end).toString('latin1')
            const length = /\r\ncontent-length: *(\d+)/i.exec(head)
            need = length ? Number(length[1]) : 0
            const rest = buffered.subarray(end + 4)
            buffered = Buffer.alloc(0)
            chunk = rest
            at = 0
          }
          if (need === 0) {
            need = -1
            answered++
            send()
          }
        }
      })
      socket.on('error', () => {
        errors++
      })
      socket.once('secureConnect', () => resolve(socket))
      socket.once('error', reject)
      Object.assign(socket, {
        kick: () => {
          if (!waiting) send()
        },
      })
    })
  for (let i = 0; i < connections; i++) sockets.push(await open())
  return {
    answered: () => answered,
    errors: () => errors,
    kick: () => {
      for (const s of sockets) (s as unknown as { kick: () => void }).kick()
    },
    close: () => {
      for (const s of sockets) s.destroy()
    },
  }
}

/**
 * Loads A and B with the same request in alternating phases (A B, B A, ...) and compares them.
 * `request` is the raw HTTP/1.1 request (keep-alive), e.g. `GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n`.
 */
export async function pairedLoad(
  a: Target,
  b: Target,
  request: string,
  {
    ca,
    connections = 16,
    pairs = 30,
    phaseMs = 500,
  }: { ca: string; connections?: number; pairs?: number; phaseMs?: number },
): Promise<PairedResult> {
  let activeSide: 'a' | 'b' | null = null
  const bytes = Buffer.from(request)
  const loads = {
    a: await openLoad(a.port, ca, bytes, connections, () => activeSide === 'a'),
    b: await openLoad(b.port, ca, bytes, connections, () => activeSide === 'b'),
  }
  const targets = { a, b }
  const phase = async (side: 'a' | 'b') => {
    activeSide = side
    const load = loads[side]
    const startCount = load.answered()
    const startCpu = cpuMicros(targets[side].pid)
    const startLoader = process.cpuUsage()
    const started = performance.now()
    load.kick()
    await new Promise((resolve) => setTimeout(resolve, phaseMs))
    activeSide = null
    const seconds = (performance.now() - started) / 1000
    const count = load.answered() - startCount
    const loaderUsage = process.cpuUsage(startLoader)
    // Let the answers in flight arrive before the other side starts (they count for this side).
    await new Promise((resolve) => setTimeout(resolve, 30))
    return {
      rps: count / seconds,
      cpu: (cpuMicros(targets[side].pid) - startCpu) / Math.max(1, count),
      loader: (loaderUsage.user + loaderUsage.system) / Math.max(1, count),
    }
  }
  try {
    await phase('a') // warm-up
    await phase('b')
    const ratios: number[] = []
    const aRps: number[] = []
    const bRps: number[] = []
    const aCpu: number[] = []
    const bCpu: number[] = []
    const loader: number[] = []
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)
      const got = {
        a: undefined as never as Awaited<ReturnType<typeof phase>>,
        b: undefined as never as Awaited<ReturnType<typeof phase>>,
      }
      for (const side of order) got[side] = await phase(side)
      ratios.push(got.a.rps / got.b.rps)
      aRps.push(got.a.rps)
      bRps.push(got.b.rps)
      aCpu.push(got.a.cpu)
      bCpu.push(got.b.cpu)
      loader.push(got.a.loader, got.b.loader)
    }
    return {
      ratio: quantile(ratios, 0.5),
      q1: quantile(ratios, 0.25),
      q3: quantile(ratios, 0.75),
      aRps: quantile(aRps, 0.5),
      bRps: quantile(bRps, 0.5),
      aCpuMicros: quantile(aCpu, 0.5),
      bCpuMicros: quantile(bCpu, 0.5),
      loaderCpuMicros: quantile(loader, 0.5),
      pairs,
      errors: loads.a.errors() + loads.b.errors(),
    }
  } finally {
    loads.a.close()
    loads.b.close()
  }
}
