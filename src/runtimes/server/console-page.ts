import { keyReach } from '../../contract/key-status.ts'
import type { TmapsMockCore } from '../../core/create-core.ts'
import { CONSOLE_PAGE_HEADER } from './control-gate.ts'
import { CONTROL_PREFIX } from './node-request.ts'

/** What the console page says beyond the mock's state: where its CA is, and the token it sends back. */
export interface ConsolePageOptions {
  /** The local CA's certificate file, when the server made its certificate. */
  caPath?: string
  /**
   * The server's page token (the control API makes it): written in the page's
   * `<meta name="tmaps-console-page">`, sent back by its script in `X-TMaps-Console-Page`.
   */
  pageToken?: string
}

/** The `<meta>` that holds the page token: a page the server serves to drive its control API reads it there. */
export const CONSOLE_PAGE_META = 'tmaps-console-page'

/** How many log entries the page shows (the newest); the live stream adds to them. */
const LOG_ROWS = 50

/** The ways to trust the local CA, one line each: the terminal's banner and the page say the same. */
export function trustLines(caPath: string): { client: string; how: string }[] {
  return [
    { client: 'curl', how: `--cacert ${caPath}` },
    { client: 'Node', how: `NODE_EXTRA_CA_CERTS=${caPath}` },
    {
      client: 'browsers',
      how: `import ${caPath} as a trusted authority once (Chrome: Settings > Privacy and security > Manage certificates)`,
    },
  ]
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/**
 * The page a browser gets at `/__console/` (and at `/`, redirected) of `tmaps-mock serve`: what
 * is running and on which origin, the keys (masked, as everywhere but where a key is created),
 * the CA to trust and how, the live request log (the control API's SSE stream, same origin) and
 * where the docs are. It is behind the control API's gate like every `/__console/` route, and
 * its script calls the control API with the page token (`options.pageToken`), as the gate asks
 * of every script of the server's origin. `origin` is the server's, as the browser reached it.
 * @example consolePage(mock, 'https://localhost:8443', { caPath: '~/.cache/tmaps-mock/tmaps-mock-ca.pem' }, 'n0nce')
 */
export function consolePage(
  core: TmapsMockCore,
  origin: string,
  options: ConsolePageOptions,
  nonce: string,
): string {
  const e = escapeHtml
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${tokenMeta(options.pageToken)}<title>tmaps-mock serve · ${e(new URL(origin).host)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header>
  <h1>tmaps-mock <span class="muted">serve</span></h1>
  <p>A local stand-in for the TMaps API and its tiles, answering on <code>${e(origin)}</code> as
  TMaps would: the same keys, domain checks and error bodies, with offline data for Tunisia.</p>
</header>
<main>
${callSection(core, origin)}
${keysSection(core)}
${trustSection(options.caPath)}
${logSection(core)}
<section aria-labelledby="more">
  <h2 id="more">More</h2>
  <ul>
    <li>The control API (keys, domains, usage, log, snapshot, faults, overrides) is JSON under
    <code>${e(origin)}${CONTROL_PREFIX}/</code>, for this machine only: <code>curl ${options.caPath ? `--cacert ${e(options.caPath)} ` : ''}${e(origin)}${CONTROL_PREFIX}/keys</code>.</li>
    <li>Docs: <code>docs/server.md</code> (the server, its flags and the control API) and
    <code>docs/recipes/server.md</code>, in the package (<code>node_modules/tmaps-mock/docs/</code>) and its repository.</li>
  </ul>
</section>
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`
}

/** The page token's `<meta>` line, when the page has one. */
function tokenMeta(token: string | undefined): string {
  return token === undefined ? '' : `<meta name="${CONSOLE_PAGE_META}" content="${escapeHtml(token)}">\n`
}

/** Where TMaps's URLs are on this server, and what is special about it now (faults). */
function callSection(core: TmapsMockCore, origin: string): string {
  const e = escapeHtml
  const faults = core.faults.list().length
  return `<section aria-labelledby="call">
  <h2 id="call">Call it</h2>
  <table class="stack"><thead><tr><th>TMaps</th><th>here</th></tr></thead><tbody>
    <tr><td><code>${e(core.options.baseUrl)}/geocoding/forward?q=Sfax&amp;api_key=…</code></td><td><code>${e(origin)}/geocoding/forward?q=Sfax&amp;api_key=…</code></td></tr>
    <tr><td><code>${e(core.options.tilesUrl)}/r-tile/{z}/{x}/{y}?api_key=…</code></td><td><code>${e(origin)}/r-tile/{z}/{x}/{y}?api_key=…</code></td></tr>
  </tbody></table>
  <p class="muted">Every path of the API and the tiles is on this one origin. The keys' full values
  were printed once in the terminal that started the server; here they are masked.${faults > 0 ? ` <strong>${faults} fault rule${faults === 1 ? '' : 's'} on</strong> (429, 5xx or latency injected).` : ''}</p>
</section>`
}

/** The keys, masked, with their status, domains and where each works. */
function keysSection(core: TmapsMockCore): string {
  const e = escapeHtml
  const rows = core.console
    .listKeys()
    .map(
      (k) =>
        `<tr><td>${e(k.name)}</td><td class="s-${k.status}">${k.status}</td><td class="nowrap"><code>${e(k.prefix)}…</code></td><td>${k.domains.map((d) => `<code class="nowrap">${e(d)}</code>`).join(' ') || '<span class="muted">none</span>'}</td><td>${e(keyReach(k.status, k.domains))}</td></tr>`,
    )
    .join('')
  return `<section aria-labelledby="keys">
  <h2 id="keys">Keys</h2>
  <div class="scroll"><table class="keys"><thead><tr><th>name</th><th>status</th><th>key</th><th>domains</th><th>works from</th></tr></thead>
  <tbody>${rows || '<tr><td colspan="5" class="muted">No keys: create one with POST /__console/keys.</td></tr>'}</tbody></table></div>
</section>`
}

/** The CA to trust and how, or that the certificate is the user's own. */
function trustSection(caPath: string | undefined): string {
  const e = escapeHtml
  const body = caPath
    ? `<p>This server's certificate is signed by a certificate authority made on this machine, for
      <code>localhost</code> only (name-constrained): <code>${e(caPath)}</code>.</p>
      <table class="stack"><tbody>${trustLines(caPath)
        .map((line) => `<tr><th scope="row">${line.client}</th><td><code>${e(line.how)}</code></td></tr>`)
        .join('')}</tbody></table>`
    : '<p>This server uses the certificate you gave it (<code>--cert</code>, <code>--key</code>).</p>'
  return `<section aria-labelledby="trust">
  <h2 id="trust">Trust its certificate</h2>
  ${body}
</section>`
}

/** The newest requests; the page's script adds the next ones live. */
function logSection(core: TmapsMockCore): string {
  const entries = core.log.entries().slice(0, LOG_ROWS)
  return `<section aria-labelledby="log">
  <h2 id="log">Requests <span class="muted" id="live">(live)</span></h2>
  <div class="scroll"><table class="log"><thead><tr><th>time</th><th>status</th><th>rule</th><th>request</th></tr></thead>
  <tbody id="entries">${entries.map(logRow).join('')}</tbody></table></div>
  <p class="muted" id="empty"${entries.length ? ' hidden' : ''}>No request yet: call the API and it shows here.</p>
</section>`
}

/** One row of the log table, as the live script makes them too (the log masked the query's keys already). */
function logRow(entry: {
  time: string
  method: string
  host: string
  path: string
  query: string
  status: number
  rule: string
}): string {
  const e = escapeHtml
  const kind = entry.status >= 400 || entry.status === 0 ? 'bad' : 'ok'
  return `<tr><td>${e(entry.time.slice(11, 19))}</td><td class="${kind}">${entry.status}</td><td>${e(entry.rule)}</td><td><code>${e(entry.method)} ${e(entry.host)}${e(entry.path)}${e(entry.query)}</code></td></tr>`
}

const STYLE = `
:root { color-scheme: light dark; --muted: #667; --line: #d8dbe2; --ok: #137333; --bad: #b3261e; --bg2: #f4f5f8 }
@media (prefers-color-scheme: dark) { :root { --muted: #9aa0ad; --line: #3a3f4b; --ok: #7fd69a; --bad: #ff8a80; --bg2: #1f232b } }
* { box-sizing: border-box }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif }
header, main { max-width: 1100px; margin: 0 auto; padding: 0 20px }
header { padding-top: 20px; border-bottom: 1px solid var(--line) }
h1 { font-size: 24px; margin: 0 0 4px }
h2 { font-size: 17px; margin: 22px 0 8px }
p { margin: 6px 0 }
code { font: 13px/1.4 ui-monospace, monospace; overflow-wrap: anywhere }
.muted { color: var(--muted); font-weight: normal }
.scroll { overflow-x: auto }
table { border-collapse: collapse; width: 100% }
th, td { text-align: left; vertical-align: top; padding: 5px 10px 5px 0; border-bottom: 1px solid var(--line) }
th { font-weight: 600; white-space: nowrap }
.log td:first-child, .log td:nth-child(2) { white-space: nowrap; font-variant-numeric: tabular-nums }
.nowrap { white-space: nowrap; overflow-wrap: normal }
.ok, .s-enabled { color: var(--ok) } .bad, .s-disabled, .s-revoked { color: var(--bad) }
ul { padding-left: 20px } li { margin: 4px 0 }
@media (max-width: 600px) {
  body { font-size: 14px } header, main { padding: 0 12px } th, td { padding-right: 8px }
  .stack thead { display: none } .stack tr, .stack td, .stack th { display: block; border: 0; padding: 2px 0 }
  .stack tr { padding: 6px 0; border-bottom: 1px solid var(--line) }
  .keys { min-width: 680px } .log { min-width: 620px }
}
`

/**
 * The live log: the control API's event stream of this same origin, read with `fetch` (an
 * `EventSource` cannot send the page token), newest first, at most 50 rows; it reconnects
 * every 3 s, as an `EventSource` would, when the stream ends.
 */
const SCRIPT = `
const rows = document.getElementById('entries')
const live = document.getElementById('live')
const token = document.querySelector('meta[name="${CONSOLE_PAGE_META}"]')?.content ?? ''
const escape = (t) => String(t).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])
const show = (e) => {
  const bad = e.status >= 400 || e.status === 0
  rows.insertAdjacentHTML('afterbegin', '<tr><td>' + escape(e.time.slice(11, 19)) + '</td><td class="' + (bad ? 'bad' : 'ok') + '">' + e.status + '</td><td>' + escape(e.rule) + '</td><td><code>' + escape(e.method + ' ' + e.host + e.path + e.query) + '</code></td></tr>')
  while (rows.rows.length > ${LOG_ROWS}) rows.deleteRow(-1)
  document.getElementById('empty').hidden = true
}
const follow = async () => {
  try {
    const headers = { '${CONSOLE_PAGE_HEADER}': token }
    const response = await fetch('${CONTROL_PREFIX}/log/stream', { headers })
    if (!response.ok || !response.body) throw new Error('HTTP ' + response.status)
    live.textContent = '(live)'
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      buffer += value
      let end
      while ((end = buffer.indexOf('\\n\\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\\n')
        buffer = buffer.slice(end + 2)
        const data = lines.find((line) => line.startsWith('data: '))
        if (lines.includes('event: entry') && data) show(JSON.parse(data.slice(6)))
      }
    }
  } catch {}
  live.textContent = '(not live: the server stopped, or the log stream refused this page)'
  setTimeout(follow, 3000)
}
follow()
`
