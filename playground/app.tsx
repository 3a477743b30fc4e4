import { useState } from 'preact/hooks'
import { DATA_ATTRIBUTION } from '../src/data/attribution.ts'
import { playgroundConfig } from '../src/runtimes/playground/page-config.ts'
import { Composer, type Sent } from './composer.tsx'
import { DomainsPanel, KeysPanel } from './console-panel.tsx'
import { FaultsPanel } from './faults-panel.tsx'
import { LogPanel } from './log-panel.tsx'
import { createMapTiles } from './map-tiles.ts'
import type { PlaygroundMock } from './server-console.ts'
import { TunisiaMap } from './tunisia-map.tsx'
import { importTwinState, twinOrigin } from './twin-state.ts'
import { UsagePanel } from './usage-panel.tsx'
import { useAction, useMockVersion } from './use-mock.ts'

const config = playgroundConfig()
/** What Reset goes back to: the demo, or the state `tmaps-mock playground --state` started from. */
const startName = (config.state ?? 'demo') === 'demo' ? 'demo' : 'start'
/** Served by the Vite plugin at an app's `/__tmaps/`: the console of that app's own state. */
const ofApp = config.servedBy === 'vite'
/** Served by `tmaps-mock serve` at its `/__console/`: the console of that server. */
const ofServer = config.servedBy === 'serve'

/** The other local name of this page, as a URL to link to. */
function otherOrigin(): string | null {
  const twin = twinOrigin()
  return twin && `${twin}/`
}

export function App({ tmaps }: { tmaps: PlaygroundMock }) {
  useMockVersion(tmaps)
  const [sent, setSent] = useState<Sent | null>(null)
  // Which log entries are the map's own tiles (the log folds them away), for the page's life.
  const [mapTiles] = useState(() => createMapTiles(tmaps))
  const [error, act] = useAction()
  // A server's state is one whatever name the page is reached by: no other console to explain.
  const other = ofServer ? null : otherOrigin()

  const exportState = () => {
    const blob = new Blob([JSON.stringify(tmaps.snapshot(), null, 2)], { type: 'application/json' })
    const a = document.createElement('a')
    a.href = URL.createObjectURL(blob)
    a.download = 'tmaps-mock-state.json'
    a.click()
    URL.revokeObjectURL(a.href)
  }
  const importState = (event: Event) => {
    const file = (event.target as HTMLInputElement).files?.[0]
    if (file) void act(async () => tmaps.restore(await file.text()))
    ;(event.target as HTMLInputElement).value = ''
  }

  return (
    <>
      {/* One screen on a laptop or a projector: console, request, map and log side by side. */}
      <div class="screen">
        <header class="top">
          <h1>
            {ofApp ? 'TMaps console of your app' : ofServer ? 'tmaps-mock serve' : 'tmaps-mock playground'}
          </h1>
          {/* On 127.0.0.1 the page says first what differs there: another origin, another console. */}
          {ofServer ? (
            <ServerIntro tmaps={tmaps} />
          ) : ofApp ? (
            <p class="intro" data-testid="app-console">
              Your app’s mock at <strong data-testid="page-origin">{location.origin}</strong>: its keys and
              domains
              {config.persist === undefined
                ? ' start as the app’s (persist: false keeps them apart)'
                : ', shared with the app’s tabs'}
              . Disable or unlink a key here and watch your app’s next requests refused, in the live log.
            </p>
          ) : other && location.hostname === '127.0.0.1' ? (
            <LoopbackNotice tmaps={tmaps} other={other} act={act} />
          ) : (
            <p class="intro">
              Every request to <code>api.tmaps.tn</code> from{' '}
              <strong data-testid="page-origin">{location.origin}</strong> is answered offline by the mock, in
              this page’s service worker, as TMaps would.
              {other && location.hostname === 'localhost' && (
                <>
                  {' '}
                  <a href={other}>{other}</a> is another origin, with its own console: there the local-dev key
                  (linked to <code>localhost</code> only) is refused.
                </>
              )}
            </p>
          )}
          <div class="row top-actions">
            <button
              type="button"
              class="compact"
              onClick={confirmed(
                ofServer
                  ? 'Reset the server to the state it started with? This drops every change made to it, here or through its control API: created keys, linked domains, statuses, and its log.'
                  : `Reset to ${startName}? This drops every change made in this console: created keys, linked domains, statuses.`,
                () => void act(() => tmaps.reset()),
              )}
            >
              {ofServer ? 'Reset the server' : `Reset to ${startName}`}
            </button>
            <button type="button" class="compact" onClick={exportState}>
              Export state
            </button>
            <label class="button compact">
              Import state
              <input
                type="file"
                accept="application/json,.json"
                class="visually-hidden"
                onChange={importState}
              />
            </label>
          </div>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </header>
        <main class="workspace">
          <KeysPanel tmaps={tmaps} />
          <DomainsPanel tmaps={tmaps} />
          <Composer tmaps={tmaps} onSent={setSent} />
          <TunisiaMap tmaps={tmaps} tiles={mapTiles} sent={sent} />
          <LogPanel tmaps={tmaps} mapTiles={mapTiles} />
        </main>
      </div>
      <div class="extras">
        <FaultsPanel tmaps={tmaps} />
        <UsagePanel tmaps={tmaps} />
      </div>
      <footer class="muted small">
        <p>© TMaps is the real service; this is an independent offline mock. {DATA_ATTRIBUTION}</p>
      </footer>
    </>
  )
}

/** What the console of `tmaps-mock serve` drives, and whether it hears the server now. */
function ServerIntro({ tmaps }: { tmaps: PlaygroundMock }) {
  const link = tmaps.server?.link() ?? 'reconnecting'
  return (
    <p class="intro" data-testid="server-console">
      TMaps’s API and tiles answer on <strong data-testid="page-origin">{location.origin}</strong> (
      <code>{location.origin}/geocoding/forward?q=Sfax&amp;api_key=…</code>), as TMaps would. This console
      drives that server: a change made here, with curl on its control API or by a test shows at once.{' '}
      <span class={link === 'live' ? 'badge live' : 'badge offline'} data-testid="server-live">
        {link === 'live'
          ? 'live'
          : link === 'restarted'
            ? 'another server runs here now: reload this page'
            : 'reconnecting…'}
      </span>
    </p>
  )
}

/** A click handler that runs `run` once the person confirms `message`: a misclick must not drop state. */
function confirmed(message: string, run: () => void): () => void {
  return () => {
    if (window.confirm(message)) run()
  }
}

/**
 * On 127.0.0.1 the page explains what a person sees there: another origin than localhost, with
 * its own console, where the local-dev key (linked to localhost only) is refused; one click links it.
 */
function LoopbackNotice({
  tmaps,
  other,
  act,
}: {
  tmaps: PlaygroundMock
  other: string
  act: (run: () => Promise<unknown>) => Promise<boolean>
}) {
  const key = tmaps.console.listKeys().find((k) => k.name === 'Web app (local dev)')
  const linked = key?.domains.includes('127.0.0.1') ?? false
  return (
    <p class="intro loopback" data-testid="loopback-notice">
      <strong data-testid="page-origin">{location.host}</strong> is another origin than{' '}
      <a href={other}>{new URL(other).host}</a>, with its own console.{' '}
      {key && !linked && key.status === 'enabled' && (
        <>
          The local-dev key is refused here (403): it is linked to {key.domains.join(', ') || 'no domain'}{' '}
          only.
        </>
      )}
      {key && linked && (
        <>127.0.0.1 is linked to “Web app (local dev)” in this origin’s console: its requests pass.</>
      )}
      {/* The two ways out on a row of their own, whatever the width. */}
      <span class="loopback-actions">
        {key && !linked && key.status === 'enabled' && (
          <button
            type="button"
            class="compact"
            onClick={() => act(() => tmaps.console.setKeyDomains(key.id, [...key.domains, '127.0.0.1']))}
          >
            Link 127.0.0.1 to Web app (local dev)
          </button>
        )}
        <button
          type="button"
          class="compact"
          onClick={confirmed(
            `Replace this console with the one of ${other}? Its keys, domains and statuses are copied here (a pop-up opens and closes).`,
            () => void act(() => importTwinState(tmaps)),
          )}
        >
          Import the console of {new URL(other).host}
        </button>
      </span>
    </p>
  )
}
