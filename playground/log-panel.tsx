import { useEffect, useRef, useState } from 'preact/hooks'
import type { LogEntry } from '../src/console/request-log.ts'
import { type DecisionFix, decisionFix, decisionSteps } from './decision-steps.ts'
import { answerType, entryUrl, headerProvenance, toHar, usedHeader } from './har.ts'
import type { MapTiles } from './map-tiles.ts'
import type { PlaygroundMock } from './server-console.ts'

/** What a log row's source badge says on hover. */
const SOURCE_TITLES = {
  upstream: 'answered by the real TMaps',
  replay: 'answered from a recording',
  'replay-miss': 'not in the recording: the mock’s own answer (or a 500 with onMissing: error)',
} as const

/** One time formatter for the whole log (`toLocaleTimeString` makes a new one per call: ~ms each). */
let timeFormat: Intl.DateTimeFormat | undefined
function clockTime(time: string): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })
  return timeFormat.format(new Date(time))
}

/** A duration as a network panel shows it: `<0.1 ms`, `2.4 ms`, `38 ms`, `1.2 s`. */
export function formatDuration(ms: number): string {
  if (ms < 0.1) return '<0.1 ms'
  if (ms < 10) return `${ms.toFixed(1)} ms`
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(1)} s`
}

/** A size as a network panel shows it: `27 B`, `1.4 kB`, `2.1 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

const statusText = (e: LogEntry) => (e.status === 0 ? 'reset' : String(e.status))

/** A request answered in another tab of this origin (the app's, for its console): where from. */
type Heard = LogEntry & { page?: string }
/** How many of the other tabs' requests are kept. */
const HEARD_MOST = 500

/**
 * The other tabs' requests (`onOtherTabsRequest`), newest first, each with a number of its own
 * (negative: never one of this tab's), and the function that forgets them.
 */
function useOtherTabs(tmaps: PlaygroundMock): [Heard[], () => void] {
  const [heard, setHeard] = useState<Heard[]>([])
  useEffect(() => {
    let next = 0
    return tmaps.onOtherTabsRequest((entry, page) =>
      setHeard((kept) => [{ ...entry, seq: --next, page }, ...kept].slice(0, HEARD_MOST)),
    )
  }, [tmaps])
  return [heard, () => setHeard([])]
}

/** This tab's entries and the other tabs', newest first. */
function merged(own: LogEntry[], heard: Heard[]): Heard[] {
  if (heard.length === 0) return own
  return [...own, ...heard].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
}

/**
 * Every request the mock answered in this tab (and in this origin's other tabs on the same state:
 * an app's, for its console), newest first, one line each as a network panel
 * shows them; a click on a line opens its details. The map's own tiles (many, and alike) are
 * folded away unless asked for.
 */
export function LogPanel({ tmaps, mapTiles }: { tmaps: PlaygroundMock; mapTiles: MapTiles }) {
  const [key, setKey] = useState('')
  const [outcome, setOutcome] = useState('')
  const [showTiles, setShowTiles] = useState(false)
  const [open, setOpen] = useState<number | null>(null)
  // Clearing tells no subscriber: re-render by hand.
  const [, setCleared] = useState(0)
  const [heard, forgetHeard] = useOtherTabs(tmaps)
  const all = merged(tmaps.log.entries(), heard)
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
    forgetHeard()
    setOpen(null)
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
      <div class="row log-bar">
        <h2 id="log-title">Live log</h2>
        <label for="log-key" class="visually-hidden">
          Key
        </label>
        <select id="log-key" value={key} onChange={(e) => setKey((e.target as HTMLSelectElement).value)}>
          <option value="">All keys</option>
          {keys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <label for="log-outcome" class="visually-hidden">
          Outcome
        </label>
        <select
          id="log-outcome"
          value={outcome}
          onChange={(e) => setOutcome((e.target as HTMLSelectElement).value)}
        >
          <option value="">All outcomes</option>
          <option value="accepted">Accepted</option>
          <option value="rejected">Rejected</option>
        </select>
        <label class="small nowrap" title="Show the map’s own tile requests (folded away by default)">
          <input
            type="checkbox"
            checked={showTiles}
            onChange={(e) => setShowTiles((e.target as HTMLInputElement).checked)}
          />{' '}
          Map tiles <span data-testid="log-map-tiles">({tiles})</span>
        </label>
        <span class="row log-actions">
          <button
            type="button"
            onClick={exportHar}
            disabled={entries.length === 0}
            title="The entries shown, as a HAR file (keys masked)"
          >
            Export HAR
          </button>
          <button type="button" onClick={clear} disabled={all.length === 0}>
            Clear log
          </button>
        </span>
      </div>
      {entries.length === 0 && tmaps.server ? (
        <p class="muted small">
          {all.length === 0
            ? `No request yet. Send one, or call ${location.origin} from your app, a test or curl: every client’s requests show here.`
            : 'No request matches these filters (the map’s own tiles are folded away: tick Map tiles).'}
        </p>
      ) : entries.length === 0 ? (
        <p class="muted small">
          {all.length === 0
            ? 'No request yet. Send one, or call https://api.tmaps.tn from this page’s console.'
            : !showTiles && tiles === all.length
              ? 'Only the map’s own tiles so far (tick Map tiles to see them). Send a request, or call https://api.tmaps.tn from this page’s console.'
              : 'No request matches these filters.'}
        </p>
      ) : (
        <div class="log-scroll">
          <table class="log" data-testid="log">
            <thead>
              <tr>
                <th scope="col" class="log-status">
                  Status
                </th>
                <th scope="col" class="log-method">
                  Method
                </th>
                <th scope="col">URL</th>
                <th scope="col" class="log-key">
                  Key
                </th>
                <th scope="col" class="log-rule">
                  Rule
                </th>
                <th scope="col" class="log-time">
                  Time
                </th>
                <th scope="col" class="log-size">
                  Size
                </th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {entries.map((e) => (
                <LogRow
                  key={e.seq}
                  entry={e}
                  open={open === e.seq}
                  toggle={() => setOpen(open === e.seq ? null : e.seq)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** One request on one line; its button (the URL, stretched over the line) opens its details below. */
function LogRow({ entry: e, open, toggle }: { entry: Heard; open: boolean; toggle: () => void }) {
  const row = useRef<HTMLTableRowElement>(null)
  const detail = useRef<HTMLTableRowElement>(null)
  // The details in view, as much of them as fits, and the line they belong to always.
  useEffect(() => {
    if (!open) return
    detail.current?.scrollIntoView({ block: 'nearest' })
    row.current?.scrollIntoView({ block: 'nearest' })
  }, [open])
  const delayMs = e.fault?.delayMs ?? 0
  const delayed = delayMs > 0
  return (
    <>
      <tr
        ref={row}
        class={`log-row ${e.outcome}${open ? ' open' : ''}`}
        data-testid="log-entry"
        title={`${e.method} ${entryUrl(e)}\n${e.reason}`}
      >
        <td class="log-status">
          <span class={`status s${Math.floor(e.status / 100)}xx`}>{statusText(e)}</span>
        </td>
        <td class="log-method">{e.method}</td>
        <td class="log-url">
          <button
            type="button"
            class="log-open"
            aria-expanded={open}
            aria-controls={`log-detail-${e.seq}`}
            data-testid="log-url"
            onClick={toggle}
          >
            <span class="log-host">{e.host}</span>
            {e.path}
            {e.query}
          </button>
        </td>
        <td class="log-key" data-testid="log-key">
          {e.facts.key ?? '–'}
        </td>
        <td class="log-rule">
          {e.rule === 'fault-injected' ? (
            <span class="badge injected" data-testid="log-injected">
              injected
            </span>
          ) : (
            e.rule
          )}
          {e.page !== undefined && (
            <span class="badge tab" data-testid="log-tab" title={`answered in another tab: ${e.page}`}>
              from {e.page}
            </span>
          )}
          {e.source && (
            <span class={`badge source ${e.source}`} data-testid="log-source" title={SOURCE_TITLES[e.source]}>
              {e.source}
            </span>
          )}
        </td>
        <td
          class="log-time"
          data-testid={delayed ? 'log-delay' : 'log-time'}
          title={delayed ? `delayed ${delayMs} ms by a fault` : undefined}
        >
          {formatDuration(e.durationMs)}
        </td>
        <td class="log-size" data-testid="log-size">
          {e.status === 0 ? '–' : formatSize(e.size)}
        </td>
      </tr>
      {open && (
        <tr class="log-detail-row" ref={detail} id={`log-detail-${e.seq}`}>
          <td colSpan={7}>
            <EntryDetail entry={e} />
          </td>
        </tr>
      )}
    </>
  )
}

/** One entry as a network panel shows it: the request as the mock saw it, then its answer. */
function EntryDetail({ entry: e }: { entry: LogEntry }) {
  const header = usedHeader(e)
  const failed = decisionSteps(e).find((step) => step.state === 'fail')
  const fix = decisionFix(e)
  return (
    <dl class="entry-detail" data-testid="log-detail">
      <dt>Request</dt>
      <dd>
        <code>
          {e.method} {entryUrl(e)}
        </code>
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
      <dt>Decision</dt>
      <dd data-testid="log-step">{failed ? `failed at ${failed.text}` : 'every step passed'}</dd>
      {fix && (
        <>
          <dt>Fix</dt>
          <dd data-testid="log-fix">{fixText(fix)}</dd>
        </>
      )}
      <dt>Answer</dt>
      <dd>
        {e.status === 0 ? 'connection reset' : e.status} · rule <code>{e.rule}</code>
        {e.source && (
          <>
            {' '}
            · from <code>{e.source}</code>
          </>
        )}{' '}
        · {e.reason}
      </dd>
      <dt>When</dt>
      <dd>
        {clockTime(e.time)} · answered in {formatDuration(e.durationMs)} ·{' '}
        {e.status === 0 ? 'no answer' : `${formatSize(e.size)} of ${answerType(e)}`}
        {e.facts.simulated ? ' · simulated caller' : ''}
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

/** A refusal's fix in words, for the log (the composer offers the same as a button). */
function fixText(fix: DecisionFix): string {
  switch (fix.kind) {
    case 'link-domain':
      return `link ${fix.host} to the key (Keys: its domains), then send again`
    case 'enable-key':
      return 'enable the key (Keys: its status switch), then send again'
    case 'create-server-key':
      return 'send an enabled key: create one in Keys (a new key is shown once)'
    case 'use-https':
      return 'call over https: TMaps answers only over HTTPS'
  }
}
