import { useState } from 'preact/hooks'
import type { TmapsWorker } from '../mocks/browser.ts'

/** Every request the mock answered in this tab, newest first, with the decision in plain words. */
export function LogPanel({ tmaps }: { tmaps: TmapsWorker }) {
  const [key, setKey] = useState('')
  const [outcome, setOutcome] = useState('')
  const entries = tmaps.log
    .entries()
    .filter((e) => (key === '' || e.facts.key === key) && (outcome === '' || e.outcome === outcome))
    .slice(0, 100)
  const keys = [...new Set(tmaps.log.entries().map((e) => e.facts.key ?? 'none'))]
  return (
    <section aria-labelledby="log-title" class="panel">
      <h2 id="log-title">Live log</h2>
      <div class="row">
        <label for="log-key">Key</label>
        <select id="log-key" value={key} onChange={(e) => setKey((e.target as HTMLSelectElement).value)}>
          <option value="">All keys</option>
          {keys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <label for="log-outcome">Outcome</label>
        <select
          id="log-outcome"
          value={outcome}
          onChange={(e) => setOutcome((e.target as HTMLSelectElement).value)}
        >
          <option value="">All</option>
          <option value="accepted">Accepted</option>
          <option value="rejected">Rejected</option>
        </select>
      </div>
      {entries.length === 0 ? (
        <p class="muted">
          No request yet. Send one above, or call https://api.tmaps.tn from this page’s console.
        </p>
      ) : (
        <ol class="log" aria-live="polite" data-testid="log">
          {entries.map((e) => (
            <li key={e.seq} class={e.outcome} data-testid="log-entry">
              <span class={`status s${Math.floor(e.status / 100)}xx`}>
                {e.status === 0 ? 'reset' : e.status}
              </span>{' '}
              {e.rule === 'fault-injected' && (
                <>
                  <span class="badge injected" data-testid="log-injected">
                    injected
                  </span>{' '}
                </>
              )}
              <code>
                {e.method} {e.host}
                {e.path}
              </code>{' '}
              <span class="muted small">
                {new Date(e.time).toLocaleTimeString()} · {e.facts.key ?? 'no key'}
                {e.facts.simulated
                  ? ' · simulated caller'
                  : e.facts.reconstructed
                    ? ' · headers reconstructed'
                    : ''}
                {e.fault && e.fault.delayMs > 0 && (
                  <span data-testid="log-delay"> · delayed {e.fault.delayMs} ms</span>
                )}
              </span>
              <div class="reason">{e.reason}</div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
