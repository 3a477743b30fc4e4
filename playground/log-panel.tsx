import { useState } from 'preact/hooks'
import type { TmapsWorker } from '../mocks/browser.ts'
import type { MapTiles } from './map-tiles.ts'

/**
 * Every request the mock answered in this tab, newest first, with the decision in plain words.
 * The map's own tiles (many, and alike) are folded away unless asked for.
 */
export function LogPanel({ tmaps, mapTiles }: { tmaps: TmapsWorker; mapTiles: MapTiles }) {
  const [key, setKey] = useState('')
  const [outcome, setOutcome] = useState('')
  const [showTiles, setShowTiles] = useState(false)
  const all = tmaps.log.entries()
  const tiles = all.filter((e) => mapTiles.isMine(e.seq)).length
  const entries = all
    .filter(
      (e) =>
        (key === '' || e.facts.key === key) &&
        (outcome === '' || e.outcome === outcome) &&
        (showTiles || !mapTiles.isMine(e.seq)),
    )
    .slice(0, 100)
  const keys = [...new Set(all.map((e) => e.facts.key ?? 'none'))]
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
        <label class="small">
          <input
            type="checkbox"
            checked={showTiles}
            onChange={(e) => setShowTiles((e.target as HTMLInputElement).checked)}
          />{' '}
          Show the map’s tiles <span data-testid="log-map-tiles">({tiles})</span>
        </label>
      </div>
      {entries.length === 0 ? (
        <p class="muted">
          {all.length === 0
            ? 'No request yet. Send one above, or call https://api.tmaps.tn from this page’s console.'
            : 'No request matches these filters.'}
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
