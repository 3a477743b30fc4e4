import { Agent } from 'undici'

/**
 * Side-by-side timing: two variants run in alternating rounds (A B, then B A, ...) so that
 * machine noise hits both alike; each round times a batch of each, and the report gives the
 * median of the rounds' A/B ratios with their interquartile range.
 */
export interface Variant {
  name: string
  run: () => Promise<unknown>
}

export interface Comparison {
  label: string
  a: string
  b: string
  aMicros: number
  bMicros: number
  /** A/B: the median of the rounds' paired ratios (each round times A and B back to back, both orders). */
  ratio: number
  /** The interquartile range of the rounds' ratios (the spread), where the row was paired. */
  spread?: [q1: number, q3: number]
  /** The 95th percentile of A's single ops, in µs (interleaved comparisons, which time each op). */
  aP95Micros?: number
  target: number | null
  /** An absolute budget for A, in ms (the largest documented requests), besides the ratio. */
  budgetMs?: number
}

const median = (values: number[]) => quantile(values, 0.5)

/** How long both variants of a row run before it is timed, at least. */
const WARM_UP_MS = 500

/** The q-quantile of values (nearest rank). */
export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
}

/**
 * Times A against B. By default each round times a batch of A then a batch of B (alternating
 * which goes first); with `interleave`, A and B alternate op by op and every op is timed on its
 * own, so slow phases of the machine (and collector pauses) hit both alike: use it for ops of a
 * millisecond or more, where batches are short.
 */
export async function compare(
  label: string,
  a: Variant,
  b: Variant,
  {
    rounds = 15,
    batch = 200,
    target = null as number | null,
    budgetMs = undefined as number | undefined,
    interleave = false,
  } = {},
): Promise<Comparison> {
  // Warm both up alike, for `batch` ops and at least half a second: the first row of a process
  // otherwise measures A while V8 still compiles it (a cached geocode read 85 µs against a bare
  // handler's 41 in the first row, 0.8x once both were warm).
  const warmUntil = performance.now() + WARM_UP_MS
  for (let i = 0; i < batch || performance.now() < warmUntil; i++) {
    await a.run()
    await b.run()
  }
  const times: Record<'a' | 'b', number[]> = { a: [], b: [] }
  const time = async (slot: 'a' | 'b', variant: Variant, count: number) => {
    const start = performance.now()
    for (let i = 0; i < count; i++) await variant.run()
    times[slot].push(((performance.now() - start) * 1000) / count)
  }
  // Each round's A/B ratio (A and B timed back to back): the row reports their median and spread.
  const ratios: number[] = []
  const sum = (list: number[], from: number) => list.slice(from).reduce((x, y) => x + y, 0)
  for (let r = 0; r < rounds; r++) {
    const pair: Array<['a' | 'b', Variant]> = [
      ['a', a],
      ['b', b],
    ]
    if (r % 2 === 1) pair.reverse()
    const [fromA, fromB] = [times.a.length, times.b.length]
    if (interleave) {
      for (let i = 0; i < batch; i++)
        for (const [slot, variant] of i % 2 === 0 ? pair : [...pair].reverse()) await time(slot, variant, 1)
    } else {
      for (const [slot, variant] of pair) await time(slot, variant, batch)
    }
    ratios.push(sum(times.a, fromA) / sum(times.b, fromB))
  }
  const aMicros = median(times.a)
  const bMicros = median(times.b)
  const sorted = [...times.a].sort((x, y) => x - y)
  return {
    label,
    a: a.name,
    b: b.name,
    aMicros,
    bMicros,
    ratio: median(ratios),
    spread: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    ...(interleave && { aP95Micros: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! }),
    target,
    ...(budgetMs && { budgetMs }),
  }
}

/** Whether a row meets its targets (`undefined`: it has none, information only). */
export function meetsTarget(r: Comparison): boolean | undefined {
  const checks = [
    ...(r.target === null ? [] : [r.ratio <= r.target]),
    ...(r.budgetMs === undefined ? [] : [r.aMicros <= r.budgetMs * 1000]),
  ]
  return checks.length === 0 ? undefined : checks.every(Boolean)
}

export function report(rows: Comparison[]): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  console.log(
    line(['measure', 'variant (A)', 'A µs/op', 'baseline (B)', 'B µs/op', 'A/B (IQR)', 'target', 'verdict']),
  )
  console.log(line(['---', '---', '---:', '---', '---:', '---:', '---:', '---']))
  for (const r of rows) {
    const met = meetsTarget(r)
    const verdict = met === undefined ? 'info' : met ? 'ok' : 'OVER TARGET'
    const target = [
      ...(r.target === null ? [] : [`<= ${Number(r.target.toFixed(2))}x`]),
      ...(r.budgetMs === undefined ? [] : [`A < ${r.budgetMs} ms`]),
    ]
    console.log(
      line([
        r.label,
        r.a,
        r.aP95Micros === undefined
          ? r.aMicros.toFixed(1)
          : `${r.aMicros.toFixed(1)} (p95 ${r.aP95Micros.toFixed(0)})`,
        r.b,
        r.bMicros.toFixed(1),
        r.spread
          ? `${r.ratio.toFixed(2)}x (${r.spread[0].toFixed(2)}-${r.spread[1].toFixed(2)})`
          : `${r.ratio.toFixed(2)}x`,
        target.length === 0 ? '-' : target.join(', '),
        verdict,
      ]),
    )
  }
}

/**
 * The bench's HTTPS client, trusting the local certificate. Its connect timeout is 2 minutes, not
 * undici's 10 s: on a loaded host (and from a server that draws in its answering thread, which
 * accepts late by design) a TLS handshake can take longer, and that is a measurement, not a crash.
 */
export function benchAgent(ca: string, options: Omit<Agent.Options, 'connect'> = {}): Agent {
  return new Agent({ ...options, connect: { ca, timeout: 120_000 } })
}
