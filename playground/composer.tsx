import { Fragment } from 'preact'
import { useState } from 'preact/hooks'
import type { LogEntry } from '../src/console/request-log.ts'
import { maskKey } from '../src/contract/key-format.ts'
import { ENDPOINTS } from '../src/endpoints/registry.ts'
import { CALLER_HEADER, type CallerPreset } from '../src/runtimes/browser/index.ts'
import { simulatedHeaders } from '../src/runtimes/browser/reconstruct.ts'
import { must } from '../src/validate/must.ts'
import { decisionFix, decisionSteps, type StepState } from './decision-steps.ts'
import type { PlaygroundMock } from './server-console.ts'
import { consoleChanges, type KeyState, keyState } from './stale-answer.ts'
import { useAction } from './use-mock.ts'

/** What the composer last got back: shown below it and on the map. */
export interface Sent {
  endpoint: string
  status: number
  headers: [string, string][]
  /** The JSON answer, or `undefined` when the caller cannot read it (an `<img>`). */
  body: unknown
  /** A picture answer (a tile, a static map), as an object URL or the `<img>`'s own URL. */
  image?: string
  entry: LogEntry | undefined
  curl: { shown: string; full: string }
  /** The request, to send it again. */
  spec: Spec
  /** Its key as the console had it when it was sent (`null`: no key of the console). */
  then: KeyState | null
}

const TUNIS = { lat: 36.8002, lng: 10.1815 }
const CARTHAGE = { lat: 36.8528, lng: 10.3261 }
/** The documentation's own examples, one per endpoint. */
const EXAMPLES: Record<string, string> = {
  'GET /geocoding/forward': 'q=Avenue Habib Bourguiba, Tunis&limit=3',
  'GET /geocoding/reverse': 'lat=36.8002&lng=10.1815&limit=3',
  'GET /geocoding/nearby': 'lat=36.8002&lng=10.1815&radius=1500&categories=pharmacy,hospital&limit=10',
  'GET /routing/direction': 'from=36.8002,10.1815&to=36.8528,10.3261&steps=true',
  'POST /routing/direction': JSON.stringify(
    { waypoints: [TUNIS, { lat: 36.8094, lng: 10.14 }, CARTHAGE], steps: true },
    null,
    2,
  ),
  'POST /routing/optimized': JSON.stringify(
    {
      origin: { lat: 36.8355, lng: 10.2261 },
      waypoints: [
        { lat: 36.8485, lng: 10.1712 },
        { lat: 36.8644, lng: 10.1808 },
        { lat: 36.8664, lng: 10.1938 },
        { lat: 36.8779, lng: 10.2024 },
      ],
      roundtrip: true,
    },
    null,
    2,
  ),
  'POST /routing/isochrone': JSON.stringify(
    {
      origin: TUNIS,
      contours: [{ time: 5 }, { time: 10 }, { time: 15 }],
      colors: ['#22c55e', '#f59e0b', '#ef4444'],
    },
    null,
    2,
  ),
  // The docs' listing thumbnail; a tile over Tunis (z/x/y).
  'GET /maps/static':
    'center=36.8528,10.3261&zoom=15&size=800x500&style=streets&marker=36.8528,10.3261|red|H',
  'GET /r-tile/:z/:x/:y': '12/2163/1597',
  'POST /distance-matrix': JSON.stringify(
    {
      origins: [
        { lat: 36.828, lng: 10.21 },
        { lat: 36.845, lng: 10.185 },
      ],
      destinations: [TUNIS],
    },
    null,
    2,
  ),
}

type CallerKind = CallerPreset['kind']
/** What a fix changes for the request it sends again. */
type Resend = { keyId?: string; caller?: CallerKind }
const CALLERS: Array<{ kind: CallerKind; label: string; hint: string }> = [
  {
    kind: 'page',
    label: 'This page (fetch)',
    hint: 'A real fetch() from this page: the browser sends this page’s Origin.',
  },
  {
    kind: 'tile',
    label: 'Map tile (img)',
    hint: 'A real <img> on this page: no Origin, only a Referer (this page’s origin).',
  },
  {
    kind: 'no-referrer',
    label: 'No referrer (img)',
    hint: 'A real <img referrerpolicy="no-referrer">: no Origin and no Referer, so the domain list is not checked.',
  },
  {
    kind: 'sandboxed',
    label: 'Sandboxed iframe',
    hint: 'Simulated: a sandboxed iframe or a file:// page sends Origin: null.',
  },
  { kind: 'site', label: 'Another site', hint: 'Simulated: a fetch() from a page of the origin you type.' },
  {
    kind: 'server',
    label: 'Server-side / curl',
    hint: 'Simulated: no Origin and no Referer, as from a server or curl.',
  },
]
const OTHER_KEY = '__typed__'

/** A request as the form describes it: what is sent, and sent again. */
interface Spec {
  endpoint: string
  params: string
  keyId: string
  typedKey: string
  caller: CallerKind
  site: string
}

/**
 * A caller's hint on a console of `tmaps-mock serve`: the page's own requests go to the server
 * (same origin: a GET has no `Origin`), and the callers a browser cannot be are sent for it by
 * the server (`POST /__console/requests`).
 */
function hintOnServer(kind: CallerKind, hint: string): string {
  if (kind === 'page')
    return 'A real fetch() from this page to the server: same origin, so a GET sends no Origin, only a Referer.'
  if (!hint.startsWith('Simulated: ')) return hint
  const what = hint.slice('Simulated: '.length)
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} Sent for this page by the server, with those headers.`
}

/** Compose a TMaps request, pick a key and a caller, send it, see the answer and why. */
export function Composer({ tmaps, onSent }: { tmaps: PlaygroundMock; onSent: (sent: Sent) => void }) {
  const endpoints = ENDPOINTS.map((e) => `${e.method} ${e.path}`)
  const keys = tmaps.console.listKeys()
  const first = must(endpoints[0], 'the registry has no endpoint')
  const [endpoint, setEndpoint] = useState(first)
  const [params, setParams] = useState(EXAMPLES[first] ?? '')
  const [keyId, setKeyId] = useState(keys[0]?.id ?? OTHER_KEY)
  const [typedKey, setTypedKey] = useState('')
  const [caller, setCaller] = useState<CallerKind>('page')
  const [site, setSite] = useState('https://evil.example')
  const [sent, setSent] = useState<Sent | null>(null)
  const [error, act] = useAction()
  const [copied, setCopied] = useState(false)
  /** A request (or a fix and its request) is on its way: the answer shown is about to be replaced. */
  const [busy, setBusy] = useState(false)
  /** What the last one-click fix did, in one line. */
  const [note, setNote] = useState<string | null>(null)
  const [method, pattern] = endpoint.split(' ') as ['GET' | 'POST', string]
  const imgCaller = caller === 'tile' || caller === 'no-referrer'
  /** The tile endpoint takes its z/x/y in the path; every other GET takes a query. */
  const tile = pattern.includes(':')
  const form: Spec = { endpoint, params, keyId, typedKey, caller, site }
  const hint = CALLERS.find((c) => c.kind === caller)?.hint ?? ''

  const keyValue = (spec: Spec) =>
    spec.keyId === OTHER_KEY
      ? spec.typedKey.trim()
      : (tmaps.snapshot().keys.find((k) => k.id === spec.keyId)?.value ?? '')
  /** The key a request names, as the console has it now (a typed key too, when it is one of them). */
  const keyNow = (spec: Spec) => {
    const value = keyValue(spec)
    const id =
      spec.keyId === OTHER_KEY ? tmaps.snapshot().keys.find((k) => k.value === value)?.id : spec.keyId
    return keyState(id === undefined ? undefined : tmaps.console.getKey(id))
  }

  /** Sends a request as described; a one-click fix sends the form's again with another key or caller. */
  const submit = async (spec: Spec) => {
    const [method, pattern] = spec.endpoint.split(' ') as ['GET' | 'POST', string]
    const tile = pattern.includes(':')
    const answersPng = ENDPOINTS.find((e) => `${e.method} ${e.path}` === spec.endpoint)?.answers === 'png'
    const who = spec.caller
    const viaImg = who === 'tile' || who === 'no-referrer'
    setCopied(false)
    setBusy(true)
    await act(async () => {
      const key = keyValue(spec)
      const query =
        method === 'GET' && !tile ? new URLSearchParams(spec.params.trim()) : new URLSearchParams()
      if (key !== '') query.set('api_key', key)
      const path = tile ? `/r-tile/${spec.params.trim().replace(/^\/+/, '')}` : pattern
      const base = tile ? tmaps.options.tilesUrl : tmaps.options.baseUrl
      const url = `${base}${path}?${query.toString().replace(/%2C/g, ',').replace(/%7C/g, '|')}`
      if (method === 'POST') JSON.parse(spec.params) // says where the JSON is wrong before sending
      const preset: CallerPreset | null =
        who === 'site'
          ? { kind: 'site', origin: spec.site }
          : who === 'sandboxed' || who === 'server'
            ? { kind: who }
            : null
      // What the decision will read of the key: an answer is out of date once it changes.
      const then = keyNow(spec)
      const since = tmaps.log.entries()[0]?.seq ?? 0
      const result = viaImg
        ? await viaImage(tmaps, url, who === 'no-referrer', since)
        : await viaFetch(tmaps, url, method, spec.params, preset)
      const entry = await entryAfter(tmaps, since, path)
      const answer: Sent = {
        endpoint: spec.endpoint,
        ...result,
        entry,
        curl: curlFor(
          tmaps,
          url,
          method,
          spec.params,
          who,
          spec.site,
          key,
          answersPng ? (tile ? 'tile.png' : 'map.png') : undefined,
        ),
        spec,
        then,
      }
      setSent(answer)
      onSent(answer)
    }).finally(() => setBusy(false))
  }
  const send = (event: Event) => {
    event.preventDefault()
    setNote(null)
    void submit(form)
  }
  /** A fix: the console action, then the same request through the same path (log, map, usage). */
  const fix = async (run: () => Promise<Resend | undefined>) => {
    let over: Resend | undefined
    setNote(null)
    setBusy(true)
    const done = await act(async () => {
      over = await run()
    })
    if (done) await submit({ ...form, ...over })
    else setBusy(false)
  }
  // An answer given under an earlier console state says so (not while its replacement is on its way).
  const changes = sent?.then && !busy ? consoleChanges(sent.then, keyNow(sent.spec)) : []
  const stale = changes.length > 0

  return (
    <section aria-labelledby="composer-title" class="panel request">
      <h2 id="composer-title">Send a request</h2>
      <form onSubmit={send} class="composer-form">
        <label for="endpoint">Endpoint</label>
        <select
          id="endpoint"
          value={endpoint}
          onChange={(e) => {
            const next = (e.target as HTMLSelectElement).value
            setEndpoint(next)
            setParams(EXAMPLES[next] ?? '')
            if (next.startsWith('POST') && imgCaller) setCaller('page')
          }}
        >
          {endpoints.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
        <label for="key">API key</label>
        <select id="key" value={keyId} onChange={(e) => setKeyId((e.target as HTMLSelectElement).value)}>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name} · {k.status}
            </option>
          ))}
          <option value={OTHER_KEY}>Type a key…</option>
        </select>
        {keyId === OTHER_KEY && (
          <>
            <label for="typed-key">Key value</label>
            <input
              id="typed-key"
              value={typedKey}
              autocomplete="off"
              spellcheck={false}
              placeholder="any text: a wrong one shows its 401"
              onInput={(e) => setTypedKey((e.target as HTMLInputElement).value)}
            />
          </>
        )}
        <label for="params">{tile ? 'Tile z/x/y' : method === 'GET' ? 'Query' : 'JSON body'}</label>
        {method === 'GET' ? (
          <input
            id="params"
            value={params}
            spellcheck={false}
            title={tile ? 'The tile’s zoom, column and row' : 'The query parameters, without api_key'}
            onInput={(e) => setParams((e.target as HTMLInputElement).value)}
          />
        ) : (
          <textarea
            id="params"
            rows={5}
            value={params}
            spellcheck={false}
            onInput={(e) => setParams((e.target as HTMLTextAreaElement).value)}
          />
        )}
        <div class="callers" role="radiogroup" aria-labelledby="caller-label">
          <span id="caller-label" class="form-label">
            Caller
          </span>
          {CALLERS.map((c) => {
            const disabled = method === 'POST' && (c.kind === 'tile' || c.kind === 'no-referrer')
            return (
              <label key={c.kind} class={disabled ? 'muted' : ''}>
                <input
                  type="radio"
                  name="caller"
                  value={c.kind}
                  checked={caller === c.kind}
                  disabled={disabled}
                  onChange={() => setCaller(c.kind)}
                />{' '}
                {c.label}
              </label>
            )
          })}
        </div>
        {caller === 'site' && (
          <>
            <label for="site-origin">Origin</label>
            <input
              id="site-origin"
              value={site}
              onInput={(e) => setSite((e.target as HTMLInputElement).value)}
            />
          </>
        )}
        <div class="send-row">
          <p class="muted small" data-testid="caller-hint">
            {tmaps.server ? hintOnServer(caller, hint) : hint}
          </p>
          <button type="submit" class="primary">
            Send
          </button>
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {sent && (
        <div
          class={stale ? 'result stale' : 'result'}
          data-testid="result"
          data-seq={sent.entry?.seq ?? 0}
          data-stale={stale}
        >
          {stale && (
            <p class="stale-note" role="status" data-testid="result-stale">
              <span>Sent before {changes.join(' and ')}.</span>
              <button type="button" onClick={() => void submit(sent.spec)}>
                Send again
              </button>
            </p>
          )}
          <p class="result-head">
            <span class={`status s${Math.floor(sent.status / 100)}xx`} data-testid="result-status">
              {sent.status}
            </span>{' '}
            <span data-testid="result-reason">
              <ReasonText text={sent.entry?.reason ?? ''} />
            </span>
          </p>
          {sent.entry && <DecisionSteps entry={sent.entry} />}
          {sent.entry && (
            <Fixes
              tmaps={tmaps}
              entry={sent.entry}
              fix={fix}
              onServerKey={(created) => {
                setKeyId(created.id)
                setCaller('server')
                setNote(
                  `Created “${created.name}” (${created.prefix}…), selected it above and sent again as “Server-side / curl”: with no Origin or Referer its domain list is not checked. Its full value is only in “Copy curl”.`,
                )
              }}
            />
          )}
          {note && (
            <p class="small" data-testid="fix-note">
              {note}
            </p>
          )}
          {sent.status === 401 && (
            <p class="muted small" data-testid="same-401">
              TMaps sends this same body, <code>{'{"error":"missing api_key"}'}</code>, for every 401 on
              purpose: a caller cannot tell a missing, unknown, disabled or revoked key apart. The log (and
              the steps above) tell you, the developer, which cause.
            </p>
          )}
          {sent.image && sent.status === 200 && (
            <img
              class="answer-image"
              src={sent.image}
              alt={`The ${sent.endpoint} answer`}
              data-testid="result-image"
            />
          )}
          {sent.body === undefined ? (
            <p class="muted small">
              {sent.image
                ? 'A PNG answer. '
                : 'An <img> cannot read the answer; the status and the reason come from the mock’s log.'}
            </p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling answer must be reachable by keyboard
            <pre class="body" data-testid="result-body" tabIndex={0}>
              {JSON.stringify(sent.body, null, 2).slice(0, 20_000)}
            </pre>
          )}
          <details>
            <summary>Headers</summary>
            <ul class="headers">
              {sent.headers.map(([name, value]) => (
                <li key={name}>
                  <code>
                    {name}: {value}
                  </code>
                </li>
              ))}
            </ul>
          </details>
          <div class="row">
            <code class="curl">{sent.curl.shown}</code>
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard?.writeText(sent.curl.full).catch(() => undefined)
                setCopied(true)
              }}
            >
              {copied ? 'Copied' : 'Copy curl'}
            </button>
          </div>
          <p class="muted small" data-testid="curl-note">
            {tmaps.server ? (
              <>
                The curl command sends the same request to this server, <code>{location.origin}</code>
                {tmaps.server.caPath ? ', trusting its local CA' : ''}. The key is masked here and whole in
                the copy.
              </>
            ) : (
              <>
                The curl command sends the same request to <code>tmaps-mock serve</code> on{' '}
                <code>https://localhost:8443</code>, which has the same demo keys, trusting its local CA:
                start it with <code>npm run serve</code> in this repository, or{' '}
                <code>npx tmaps-mock serve</code> in a project that installed the package. The key is masked
                here and whole in the copy.
              </>
            )}
          </p>
        </div>
      )}
    </section>
  )
}

/** A decision's reason, its arrows (`Origin … -> host …`) never split across two lines. */
export function ReasonText({ text }: { text: string }) {
  const [first, ...rest] = text.split('->')
  return (
    <>
      {first}
      {rest.map((part, i) => (
        <Fragment key={i}>
          <span class="nowrap">-&gt;</span>
          {part}
        </Fragment>
      ))}
    </>
  )
}

const STATES: Record<StepState, { icon: string; words: string }> = {
  pass: { icon: '✓', words: 'passed' },
  fail: { icon: '✗', words: 'failed' },
  skipped: { icon: '–', words: 'skipped' },
  'not-reached': { icon: '·', words: 'not reached' },
}

/** The decision as a list of steps, each with a tick, a cross or a dash, and the fact it used. */
function DecisionSteps({ entry }: { entry: LogEntry }) {
  const steps = decisionSteps(entry)
  return (
    <ol class="steps" aria-label="How TMaps decided, step by step" data-testid="decision-steps">
      {steps.map((step) => (
        <li key={step.id} class={`step ${step.state}`} data-testid="decision-step" data-state={step.state}>
          <span class="step-icon" aria-hidden="true">
            {STATES[step.state].icon}
          </span>
          <span class="visually-hidden">{STATES[step.state].words}: </span>
          <span class="step-text">
            <Explained text={step.text} />
          </span>
        </li>
      ))}
    </ol>
  )
}

/** What "(reconstructed)" means, on the word itself (no room is taken from the screen). */
const RECONSTRUCTED =
  "A service worker never sees the Origin and Referer the browser sends: the mock rebuilds them from this page's address and the request's mode, as the browser sent them."

/** A step's text, its "(reconstructed)" explained where it stands. */
function Explained({ text }: { text: string }) {
  const at = text.indexOf('(reconstructed)')
  if (at < 0) return <>{text}</>
  return (
    <>
      {text.slice(0, at)}
      <abbr title={RECONSTRUCTED} data-testid="reconstructed">
        (reconstructed)
      </abbr>
      {text.slice(at + '(reconstructed)'.length)}
    </>
  )
}

/** The one-click fix of a refusal: the console action, then the same request sent again. */
function Fixes({
  tmaps,
  entry,
  fix,
  onServerKey,
}: {
  tmaps: PlaygroundMock
  entry: LogEntry
  fix: (run: () => Promise<Resend | undefined>) => Promise<void>
  onServerKey: (created: { id: string; name: string; prefix: string }) => void
}) {
  const offer = decisionFix(entry)
  if (!offer) return null
  if (offer.kind === 'use-https') {
    return (
      <p class="fix" data-testid="fix">
        Nothing to click: use <strong>https</strong> (TMaps answers only over HTTPS).
      </p>
    )
  }
  if (offer.kind === 'create-server-key') {
    return (
      <FixButton
        label="Create a server-side key"
        note="and send again as a server would (no Origin, no Referer)"
        onClick={() =>
          fix(async () => {
            const created = await tmaps.console.createKey({ name: 'Server-side key' })
            onServerKey(created)
            return { keyId: created.id, caller: 'server' }
          })
        }
      />
    )
  }
  const key = tmaps.console.getKey(offer.keyId)
  if (!key) return null
  if (offer.kind === 'enable-key') {
    if (key.status !== 'disabled') return null
    return (
      <FixButton
        label="Enable this key"
        note={`“${key.name}”, then send again`}
        onClick={() => fix(async () => void (await tmaps.console.enableKey(key.id)))}
      />
    )
  }
  if (key.status !== 'enabled' || key.domains.includes(offer.host)) return null
  return (
    <FixButton
      label={`Link ${offer.host} to ${key.name}`}
      note="adds the domain if needed, then sends again"
      onClick={() =>
        fix(async () => void (await tmaps.console.setKeyDomains(key.id, [...key.domains, offer.host])))
      }
    />
  )
}

/** One fix: the console action as a button, and what it does after. */
function FixButton({ label, note, onClick }: { label: string; note: string; onClick: () => void }) {
  return (
    <p class="fix row" data-testid="fix">
      <button type="button" class="primary" onClick={onClick}>
        {label}
      </button>
      <span class="muted small">{note}</span>
    </p>
  )
}

/**
 * The log entry of the request just answered (`path`, after `since`): at once from the page's
 * own mock; a server's entry comes on its event stream, at most 2 s later.
 */
function entryAfter(tmaps: PlaygroundMock, since: number, path: string): Promise<LogEntry | undefined> {
  const mine = (e: LogEntry) => e.seq > since && e.path === path
  const found = tmaps.log.entries().find(mine)
  if (found || !tmaps.server) return Promise.resolve(found)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off()
      resolve(undefined)
    }, 2000)
    const off = tmaps.log.subscribe((entry) => {
      if (!mine(entry)) return
      clearTimeout(timer)
      off()
      resolve(entry)
    })
  })
}

async function viaFetch(
  tmaps: PlaygroundMock,
  url: string,
  method: 'GET' | 'POST',
  params: string,
  preset: CallerPreset | null,
) {
  const headers: Record<string, string> = {}
  if (method === 'POST') headers['Content-Type'] = 'application/json'
  if (preset) headers[CALLER_HEADER] = JSON.stringify(preset)
  const sent = method === 'POST' ? params : undefined
  const response =
    tmaps.server && preset
      ? await tmaps.server.send({
          path: url.slice(new URL(url).origin.length),
          method,
          ...(sent !== undefined && { body: sent }),
          ...simulatedHeaders(preset, { origin: location.origin, href: location.href }, url),
        })
      : await fetch(url, { method, headers, ...(sent !== undefined && { body: sent }) })
  if (response.headers.get('content-type') === 'image/png') {
    const image = URL.createObjectURL(await response.blob())
    return { status: response.status, headers: [...response.headers], body: undefined, image }
  }
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: shown as text
  }
  return { status: response.status, headers: [...response.headers], body }
}

/** A real `<img>` request; its answer is unreadable, so the status comes from the mock's log. */
function viaImage(tmaps: PlaygroundMock, url: string, noReferrer: boolean, since: number) {
  return new Promise<{ status: number; headers: [string, string][]; body: undefined }>((resolve, reject) => {
    const path = new URL(url).pathname
    const timer = setTimeout(() => {
      off()
      reject(new Error('The <img> request did not reach the mock within 5 s.'))
    }, 5000)
    const off = tmaps.log.subscribe((entry) => {
      if (entry.seq <= since || entry.path !== path) return
      clearTimeout(timer)
      off()
      resolve({ status: entry.status, headers: [], body: undefined })
    })
    const img = new Image()
    if (noReferrer) img.referrerPolicy = 'no-referrer'
    img.src = url
  })
}

function curlFor(
  tmaps: PlaygroundMock,
  url: string,
  method: string,
  params: string,
  caller: CallerKind,
  site: string,
  key: string,
  output?: string,
) {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const origin = location.origin
  // On a server's console the page is of the server's origin: its GET sends only a Referer, the page's
  // address.
  const headers =
    tmaps.server && (caller === 'tile' || (caller === 'page' && method === 'GET'))
      ? [`Referer: ${location.href}`]
      : caller === 'page' || caller === 'sandboxed' || caller === 'site'
        ? [`Origin: ${caller === 'page' ? origin : caller === 'site' ? site : 'null'}`]
        : caller === 'tile'
          ? [`Referer: ${origin}/`]
          : []
  // The same request to `tmaps-mock serve` (same demo keys), whose local CA curl is told to trust:
  // on a server's console, that server and its CA (none to name: the user's own certificate).
  const server = tmaps.server
  const local = (u: string) => (server ? u : u.replace(/^https:\/\/[^/]+/, 'https://localhost:8443'))
  const ca = server ? server.caPath : '~/.cache/tmaps-mock/tmaps-mock-ca.pem'
  const parts = (shownUrl: string) => [
    'curl',
    ...(ca === undefined ? [] : [`--cacert ${quote(ca)}`]),
    ...(method === 'POST'
      ? [
          '-X POST',
          `-H ${quote('Content-Type: application/json')}`,
          `--data ${quote(params.replace(/\s+/g, ' '))}`,
        ]
      : []),
    ...headers.map((h) => `-H ${quote(h)}`),
    ...(output ? [`-o ${output}`] : []),
    quote(local(shownUrl)),
  ]
  const masked = key === '' ? url : url.replace(encodeURIComponent(key), maskKey(key))
  return { shown: parts(masked).join(' '), full: parts(url).join(' ') }
}
