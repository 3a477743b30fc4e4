import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configScript, type PlaygroundConfig } from './page-config.ts'

/**
 * The built playground's folder: `dist/playground/` of the package, two levels above this module
 * in `dist/runtimes/playground/`, or, run from this repository's sources, the one `npm run build`
 * made. Throws, saying how to make it, when there is none.
 * @example readFileSync(join(builtPlayground(), 'index.html'), 'utf8')
 */
export function builtPlayground(): string {
  const here = fileURLToPath(new URL('.', import.meta.url))
  const candidates = [resolve(here, '../../playground'), resolve(here, '../../../dist/playground')]
  const found = candidates.find((dir) => existsSync(join(dir, 'index.html')))
  if (found === undefined)
    throw new Error(
      `the built playground is missing (looked in ${candidates.join(' and ')}): in this repository, run npm run build first.`,
    )
  return found
}

/**
 * The page's `index.html` with `config` handed to it first thing in `<head>`.
 * @example pageWithConfig(html, { state: 'empty' })
 */
export function pageWithConfig(html: string, config: PlaygroundConfig): string {
  if (!html.includes('<head>')) throw new Error('the built playground has no <head> to configure')
  return html.replace('<head>', `<head>\n    <script>${configScript(config)}</script>`)
}

const HTML = 'text/html; charset=utf-8'
const CONTENT_TYPES: Record<string, string> = {
  '.html': HTML,
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}

/**
 * Answers one request for the built page's files: GET and HEAD, files under `root` and nothing
 * else, `page` (its configured `index.html`) for `/`. `path` is the request's path below where
 * the page is mounted, decoded (`/assets/x.js`). Assets are named by their content (cached for a
 * year); the page and msw's worker script are checked again each time.
 * @example answerPlaygroundFile(req, res, '/', { root: builtPlayground(), page })
 */
export function answerPlaygroundFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  { root, page }: { root: string; page: string },
): void {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD')
    end(res, req, 405, 'text/plain; charset=utf-8', `${req.method} is not allowed.\n`)
    return
  }
  if (path === '/' || path === '/index.html') {
    res.setHeader('Cache-Control', 'no-cache')
    end(res, req, 200, HTML, page)
    return
  }
  const file = resolve(root, `.${path}`)
  const type = CONTENT_TYPES[extname(file)]
  let bytes: Buffer | undefined
  if (file.startsWith(root + sep) && type !== undefined) {
    try {
      bytes = readFileSync(file)
    } catch {
      bytes = undefined
    }
  }
  if (bytes === undefined || type === undefined) {
    end(res, req, 404, 'text/plain; charset=utf-8', 'Not found.\n')
    return
  }
  res.setHeader(
    'Cache-Control',
    path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  )
  end(res, req, 200, type, bytes)
}

function end(res: ServerResponse, req: IncomingMessage, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
  res.end(req.method === 'HEAD' ? undefined : body)
}
