import { useState } from 'preact/hooks'
import type { FaultRule } from '../src/core/create-core.ts'
import { FAULT_BODIES } from '../src/core/faults.ts'
import { ENDPOINTS } from '../src/endpoints/registry.ts'
import { must } from '../src/validate/must.ts'
import type { PlaygroundMock } from './server-console.ts'
import { useAction, useMockVersion } from './use-mock.ts'

/** The paths a fault can take down: one per TMaps product (`/r-tile` for the map tiles). */
const PATHS = [...new Set(ENDPOINTS.map((e) => `/${e.name}`))]
const MAX_LATENCY_MS = 3000

/** What a rule does, in plain words: where, what, and for how long. */
function describe(rule: FaultRule): { what: string; when: string } {
  const where = rule.endpoint === null ? 'Every request' : `/${rule.endpoint}`
  const answer =
    rule.network === 'reset'
      ? 'connection reset'
      : rule.status !== null
        ? `${rule.status} ${FAULT_BODIES[rule.status]}`
        : null
  const delay =
    rule.delayMs === null
      ? null
      : Array.isArray(rule.delayMs)
        ? `${rule.delayMs[0]}–${rule.delayMs[1]} ms`
        : `${rule.delayMs} ms`
  const what =
    answer && delay ? `${answer} after ${delay}` : answer ? answer : `answered after ${delay ?? '0 ms'}`
  const when = [
    rule.remaining === null ? 'until removed' : `${rule.remaining} left`,
    rule.probability < 1 ? `${Math.round(rule.probability * 100)}% of requests` : null,
    `applied ${rule.hits}×`,
  ]
    .filter(Boolean)
    .join(' · ')
  return { what: `${where}: ${what}`, when }
}

/**
 * Infrastructure faults on demand (`tmaps.faults`): latency, the next requests rate limited, a
 * product down. The rules live in this tab only; they are not part of the saved state.
 */
export function FaultsPanel({ tmaps }: { tmaps: PlaygroundMock }) {
  // Rules change on add and remove, and as requests use up their `times`: every answered request
  // is logged, so the log's updates refresh the list.
  useMockVersion(tmaps)
  const [, setTick] = useState(0)
  const [error, act] = useAction()
  const [latencyId, setLatencyId] = useState<string | null>(null)
  const [draft, setDraft] = useState<number | null>(null)
  const [times, setTimes] = useState('3')
  const [path, setPath] = useState(must(PATHS[0], 'the registry has no endpoint'))
  const rules = tmaps.faults.list()
  const latency = rules.find((r) => r.id === latencyId)
  const latencyMs = draft ?? (typeof latency?.delayMs === 'number' ? latency.delayMs : 0)

  const change = (run: () => unknown) =>
    act(async () => {
      try {
        await run()
      } finally {
        setTick((t) => t + 1)
      }
    })

  /** One delay rule for every endpoint: a new value replaces it, 0 removes it. */
  const applyLatency = (ms: number) =>
    change(async () => {
      setDraft(null)
      if (latency) await tmaps.faults.remove(latency.id)
      setLatencyId(ms > 0 ? (await tmaps.faults.add({ delayMs: ms })).id : null)
    })

  return (
    <section aria-labelledby="faults-title" class="panel faults">
      <h2 id="faults-title">Faults</h2>
      <p class="muted small">
        Infrastructure faults, answered before the key is checked, as the TMaps edge would.{' '}
        {tmaps.server
          ? 'They are the server’s, for every client, and are not saved with the state.'
          : 'They live in this tab only and are not saved with the state.'}
      </p>
      <div class="stack">
        <div class="row">
          <label for="fault-latency">Latency</label>
          <input
            id="fault-latency"
            type="range"
            min={0}
            max={MAX_LATENCY_MS}
            step={50}
            value={latencyMs}
            aria-valuetext={latencyMs === 0 ? 'off' : `${latencyMs} ms`}
            onInput={(e) => setDraft(Number((e.target as HTMLInputElement).value))}
            onChange={(e) => applyLatency(Number((e.target as HTMLInputElement).value))}
          />
          <output for="fault-latency" class="latency" data-testid="fault-latency-value">
            {latencyMs === 0 ? 'off' : `${latencyMs} ms`}
          </output>
        </div>
        <div class="row">
          <label for="fault-times">Requests</label>
          <input
            id="fault-times"
            type="number"
            min={1}
            max={1000}
            step={1}
            value={times}
            class="count"
            onInput={(e) => setTimes((e.target as HTMLInputElement).value)}
          />
          <button
            type="button"
            onClick={() => change(() => tmaps.faults.add({ status: 429, times: Number(times) }))}
          >
            Next {times || 'N'} requests: 429
          </button>
        </div>
        <div class="row">
          <label for="fault-path">Take down</label>
          <select
            id="fault-path"
            value={path}
            onChange={(e) => setPath((e.target as HTMLSelectElement).value)}
          >
            {PATHS.map((p) => (
              <option key={p} value={p}>
                {p === '/r-tile' ? '/r-tile (map tiles)' : p}
              </option>
            ))}
          </select>
          <button
            type="button"
            onClick={() => change(() => tmaps.faults.add({ endpoint: path, status: 503 }))}
          >
            Down: 503
          </button>
        </div>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <h3 id="fault-rules-title">Active rules</h3>
      {rules.length === 0 ? (
        <p class="muted small" data-testid="fault-rules-empty">
          None: every request is answered normally.
        </p>
      ) : (
        <>
          <ul class="cards" aria-labelledby="fault-rules-title" data-testid="fault-rules">
            {rules.map((rule) => {
              const { what, when } = describe(rule)
              return (
                <li key={rule.id} class="card row spread" data-testid="fault-rule">
                  <span>
                    {what}
                    <br />
                    <span class="muted small">
                      {rule.id} · {when}
                    </span>
                  </span>
                  <button
                    type="button"
                    aria-label={`Remove ${rule.id}: ${what}`}
                    onClick={() => change(() => tmaps.faults.remove(rule.id))}
                  >
                    Remove
                  </button>
                </li>
              )
            })}
          </ul>
          <div class="row fault-actions">
            <button type="button" class="danger" onClick={() => change(() => tmaps.faults.clear())}>
              Clear all
            </button>
          </div>
        </>
      )}
    </section>
  )
}
