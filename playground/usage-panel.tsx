import { useState } from 'preact/hooks'
import type { PlaygroundMock } from './server-console.ts'

const OUTCOMES = [
  { name: 'Answered', test: (s: number) => s < 300, color: '#16a34a' },
  { name: 'Bad request', test: (s: number) => s === 400 || s === 404, color: '#ca8a04' },
  { name: 'Key refused (401)', test: (s: number) => s === 401, color: '#dc2626' },
  { name: 'Domain refused (403)', test: (s: number) => s === 403, color: '#7c3aed' },
  { name: 'Other', test: (s: number) => s >= 500, color: '#64748b' },
]

/** The console's Usage tab: one key's requests per day, stacked by outcome. */
export function UsagePanel({ tmaps }: { tmaps: PlaygroundMock }) {
  const keys = tmaps.console.listKeys()
  const [ref, setRef] = useState(keys[0]?.id ?? 'unattributed')
  const report = tmaps.usage(keys.some((k) => k.id === ref) ? ref : 'unattributed')
  const tiles = report.byEndpoint['r-tile'] ?? 0
  const days = report.days.slice(-14)
  const bars = days.map((day) => ({
    date: day.date,
    parts: OUTCOMES.map((o) => ({
      ...o,
      count: Object.entries(day.byStatus)
        .filter(([status]) => o.test(Number(status)))
        .reduce((sum, [, n]) => sum + n, 0),
    })),
  }))
  const max = Math.max(1, ...days.map((d) => d.total))
  const width = 40
  const height = 140
  return (
    <section aria-labelledby="usage-title" class="panel usage">
      <h2 id="usage-title">Usage</h2>
      <div class="row">
        <label for="usage-key">Key</label>
        <select id="usage-key" value={ref} onChange={(e) => setRef((e.target as HTMLSelectElement).value)}>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name} · {k.prefix}…
            </option>
          ))}
          <option value="unattributed">No known key</option>
        </select>
        <span class="muted small" data-testid="usage-total">
          {report.total} request{report.total === 1 ? '' : 's'}
        </span>
        {tiles > 0 && (
          <span class="muted small" data-testid="usage-tiles">
            ({tiles} of them tile{tiles === 1 ? '' : 's'}, the map’s included)
          </span>
        )}
      </div>
      {days.length === 0 ? (
        <p class="muted">No request with this key yet.</p>
      ) : (
        <svg
          role="img"
          aria-label={`Requests per day: ${bars.map((b) => `${b.date}: ${b.parts.map((p) => `${p.count} ${p.name}`).join(', ')}`).join('; ')}`}
          viewBox={`0 0 ${Math.max(1, bars.length) * width + 40} ${height + 30}`}
          class="chart"
        >
          <line
            x1="30"
            y1={height}
            x2={bars.length * width + 40}
            y2={height}
            stroke="currentColor"
            stroke-opacity="0.3"
          />
          <text x="0" y="12" class="axis">
            {max}
          </text>
          {bars.map((bar, i) => {
            let y = height
            return (
              <g key={bar.date}>
                {bar.parts.map((p) => {
                  const h = (p.count / max) * (height - 10)
                  y -= h
                  return p.count === 0 ? null : (
                    <rect key={p.name} x={36 + i * width} y={y} width={width - 10} height={h} fill={p.color}>
                      <title>
                        {bar.date}: {p.count} {p.name}
                      </title>
                    </rect>
                  )
                })}
                <text x={36 + i * width} y={height + 16} class="axis">
                  {bar.date.slice(5)}
                </text>
              </g>
            )
          })}
        </svg>
      )}
      <ul class="legend">
        {OUTCOMES.map((o) => (
          <li key={o.name}>
            <span class="swatch" style={{ background: o.color }} /> {o.name}
          </li>
        ))}
      </ul>
    </section>
  )
}
