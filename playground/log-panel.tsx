import { useState } from 'preact/hooks'
import type { LogEntry } from '../src/console/request-log.ts'
import type { TmapsWorker } from '../src/runtimes/browser/index.ts'
import { entryUrl, headerProvenance, toHar, usedHeader } from './har.ts'
import type { MapTiles } from './map-tiles.ts'

/** One time formatter for the whole log (`toLocaleTimeString` makes a new one per call: ~ms each). */
let timeFormat: Intl.DateTimeFormat | undefined
function clockTime(time: string): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })
  return timeFormat.format(new Date(time))
}

/**
 * Every request the mock answered in this tab, newest first, with the decision in plain words.
 * The map's own tiles (many, and alike) are folded away unless asked for.
 */
export function LogPanel({ tmaps, mapTiles }: { tmaps: TmapsWorker; mapTiles: MapTiles }) {
  const [key, setKey] = useState('')
  const [outcome, setOutcome] = useState('')
  const [showTiles, setShowTiles] = useState(false)
  // Clearing tells no subscriber: re-render by hand.
  const [, setCleared] = useState(0)
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
  const clear = () => {
    tmaps.log.clear()
    setCleared((n) => n + 1)
  }
  const exportHar = () => {
    const blob = new Blob([JSON.stringify(toHar(entries), null, 2)], { type: 'application/json' })
    const a = document.createElement('a')
    a.href = URL.createObjectURL(blob)
    a.download = 'tmaps-mock-log.har'
    a.click()
    setTimeout(() => URL.revokeObjectURL(a.href), 1000)
  }
  return (
    <section aria-labelledby="log-title" class="panel log-panel">
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
      <div class="row">
        <button type="button" onClick={exportHar} disabled={entries.length === 0}>
          Export HAR
        </button>
        <button type="button" onClick={clear} disabled={all.length === 0}>
          Clear log
        </button>
        <span class="muted small">
          Open an entry to see its request and answer. The HAR holds the entries shown.
        </span>
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
              <details>
                <summary>
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
                    {clockTime(e.time)} · {e.facts.key ?? 'no key'}
                    {e.facts.simulated
                      ? ' · simulated caller'
                      : e.facts.reconstructed
                        ? ' · headers reconstructed'
                        : ''}
                    {e.fault && e.fault.delayMs > 0 && (
                      <span data-testid="log-delay"> · delayed {e.fault.delayMs} ms</span>
                    )}
                  </span>
                  <span class="reason">{e.reason}</span>
                </summary>
                <EntryDetail entry={e} />
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** One entry as a network panel shows it: the request as the mock saw it, then its answer. */
function EntryDetail({ entry: e }: { entry: LogEntry }) {
  const header = usedHeader(e)
  return (
    <dl class="entry-detail" data-testid="log-detail">
      <dt>Request</dt>
      <dd>
        <code>
          {e.method} {entryUrl(e)}
        </code>
        <br />
        <span class="muted small">query not logged: it carries the key</span>
      </dd>
      <dt>Origin/Referer</dt>
      <dd data-testid="log-header">
        {header === null ? (
          'neither sent: the domain list is not checked'
        ) : (
          <>
            {header.name}: <code>{header.value}</code> ({headerProvenance(e)})
          </>
        )}
      </dd>
      <dt>Key</dt>
      <dd>{e.facts.key === null ? 'none sent' : <code>{e.facts.key}</code>}</dd>
      <dt>Answer</dt>
      <dd>
        {e.status === 0 ? 'connection reset' : e.status} · rule <code>{e.rule}</code>
        <br />
        {e.reason}
      </dd>
      {e.fault && (
        <>
          <dt>Fault</dt>
          <dd>
            {e.fault.rules.join(', ')}
            {e.fault.delayMs > 0 && ` · delayed ${e.fault.delayMs} ms`}
            {e.fault.status !== undefined && ` · answered ${e.fault.status}`}
            {e.fault.network === 'reset' && ' · connection reset'}
          </dd>
        </>
      )}
    </dl>
  )
}
