import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { builtPlayground, pageWithConfig } from '../playground/files.ts'

/** What the console page says beyond the mock's state: where its CA is, and the token it sends back. */
export interface ConsolePageOptions {
  /** The local CA's certificate file, when the server made its certificate. */
  caPath?: string
  /**
   * The server's page token (the control API makes it): written in the page's
   * `<meta name="tmaps-console-page">`, sent back by its script in `X-TMaps-Console-Page`.
   */
  pageToken?: string
  /**
   * The playground's `index.html` (default: the built one in the package, `dist/playground/`);
   * the page's files are served from beside it.
   */
  html?: string
}

/**
 * The `<meta>` that holds the page token: a page the server serves to drive its control API reads it there.
 */
const CONSOLE_PAGE_META = 'tmaps-console-page'

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
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

/** Shown instead of the playground when the package has no built page (a clone before `npm run build`). */
const NOT_BUILT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tmaps-mock serve</title>
</head>
<body>
<p>The console page is not built: in a clone of tmaps-mock, run <code>npm run build</code>. The
control API answers under <code>/__console/</code> all the same (docs/server.md).</p>
</body>
</html>
`

/** The built playground's `index.html`, or `NOT_BUILT` when there is none. */
export function builtConsoleHtml(): string {
  try {
    return readFileSync(join(builtPlayground(), 'index.html'), 'utf8')
  } catch {
    return NOT_BUILT
  }
}

/**
 * The page a browser gets at `/__console/` (and at `/`, redirected) of `tmaps-mock serve`: the
 * playground (`html`), told that it drives this server (`servedBy: 'serve'`, the CA's path for
 * its curl lines), with the page token in its `<meta>` and `nonce` on its inline scripts (the
 * page's own policy allows those and the page's files of this origin, nothing else).
 * @example consolePage(builtConsoleHtml(), { caPath, pageToken }, 'n0nce')
 */
export function consolePage(html: string, options: ConsolePageOptions, nonce: string): string {
  const configured = html.includes('<head>')
    ? pageWithConfig(html, { servedBy: 'serve', ...(options.caPath && { caPath: options.caPath }) })
    : html
  const meta =
    options.pageToken === undefined
      ? ''
      : `<meta name="${CONSOLE_PAGE_META}" content="${escapeHtml(options.pageToken)}">\n    `
  return configured
    .replace(/<head>/i, `<head>\n    ${meta}`)
    .replace(/<title>[^<]*<\/title>/, '<title>tmaps-mock serve</title>')
    .replaceAll('<script>', `<script nonce="${nonce}">`)
}

/** The console page's Content-Security-Policy: its own files and its nonce'd inline scripts. */
export function consolePagePolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Leaflet and Preact set inline styles (positions of tiles and markers).
    "style-src 'self' 'unsafe-inline'",
    // Tiles and static maps of this server; a static map the composer shows is a blob: URL.
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
