/**
 * Side-by-side timing: two variants run in alternating rounds (A B, then B A, ...) so that
 * machine noise hits both alike; each round times a batch, and the report compares medians.
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
  ratio: number
  target: number | null
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor(sorted.length / 2)]!
}

export async function compare(
  label: string,
  a: Variant,
  b: Variant,
  { rounds = 15, batch = 200, target = null as number | null } = {},
): Promise<Comparison> {
  for (let i = 0; i < batch; i++) {
    await a.run()
    await b.run()
  }
  const times: Record<'a' | 'b', number[]> = { a: [], b: [] }
  for (let r = 0; r < rounds; r++) {
    const order: Array<['a' | 'b', Variant]> =
      r % 2 === 0
        ? [
            ['a', a],
            ['b', b],
          ]
        : [
            ['b', b],
            ['a', a],
          ]
    for (const [slot, variant] of order) {
      const start = performance.now()
      for (let i = 0; i < batch; i++) await variant.run()
      times[slot].push(((performance.now() - start) * 1000) / batch)
    }
  }
  const aMicros = median(times.a)
  const bMicros = median(times.b)
  return { label, a: a.name, b: b.name, aMicros, bMicros, ratio: aMicros / bMicros, target }
}

export function report(rows: Comparison[]): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  console.log(
    line(['measure', 'variant (A)', 'A µs/op', 'baseline (B)', 'B µs/op', 'A/B', 'target', 'verdict']),
  )
  console.log(line(['---', '---', '---:', '---', '---:', '---:', '---:', '---']))
  for (const r of rows) {
    const verdict = r.target === null ? 'info' : r.ratio <= r.target ? 'ok' : 'OVER TARGET'
    console.log(
      line([
        r.label,
        r.a,
        r.aMicros.toFixed(1),
        r.b,
        r.bMicros.toFixed(1),
        `${r.ratio.toFixed(2)}x`,
        r.target === null ? '-' : `<= ${r.target}x`,
        verdict,
      ]),
    )
  }
}
