import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { ViteDevServer } from 'vite'
import type { TmapsSnapshot } from '../../store/snapshot.ts'
import { answerPlaygroundFile, builtPlayground, pageWithConfig } from '../playground/files.ts'
import type { PlaygroundConfig } from '../playground/page-config.ts'
import { APP_KEY_NAME } from './app-key.ts'

/** Where the console is served, under the app's `base`. */
const CONSOLE_PATH = '__tmaps/'

/** What of the plugin's settings the console's page needs: the app's initial state and its storage. */
interface ConsoleSettings {
  state: 'demo' | 'empty' | TmapsSnapshot | string
  seed: string | number | undefined
  persist: string | false
  apiKey: string | undefined
}

/**
 * Serves the playground's console at `<base>__tmaps/` on the app's dev server, over the app's own
 * state: the page keeps its console under the app's `persist` name (so a key disabled there is
 * disabled for the app's tabs at once, and the reverse), with the app's initial state and key, and
 * hears the app's requests (`onOtherTabsRequest`). Its own service worker is scoped to that
 * folder, apart from the app's. Its URL is printed beside Vite's `Local:` (as vite-plugin-inspect
 * does).
 * @example serveConsole(server, '/', settings)
 */
export function serveConsole(server: ViteDevServer, base: string, settings: ConsoleSettings): void {
  const mount = `${base}${CONSOLE_PATH.slice(0, -1)}`
  let root: string | undefined
  server.middlewares.use(mount, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const requestUrl = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/'
    const pathname = new URL(requestUrl, 'http://localhost').pathname
    if (pathname === mount) {
      res.writeHead(302, { Location: `${mount}/` }).end()
      return
    }
    if (!pathname.startsWith(`${mount}/`)) return next()
    let html: string
    try {
      root ??= builtPlayground()
      // Read each time (1.6 kB): a rebuilt package's page names new assets.
      html = readFileSync(join(root, 'index.html'), 'utf8')
    } catch (error) {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`tmaps-mock/vite: the console is not there: ${(error as Error).message}\n`)
      return
    }
    const host = new URL(`http://${req.headers.host ?? 'localhost'}`).hostname
    let path: string
    try {
      path = decodeURIComponent(pathname.slice(mount.length))
    } catch {
      res.writeHead(400).end()
      return
    }
    answerPlaygroundFile(req, res, path, { root, page: pageWithConfig(html, consoleConfig(settings, host)) })
  })
  const printUrls = server.printUrls.bind(server)
  server.printUrls = () => {
    printUrls()
    const local = server.resolvedUrls?.local[0]
    if (local === undefined) return
    const shared = settings.persist === false ? " (persist: false, so its own state, not the app's)" : ''
    server.config.logger.info(`  ➜  TMaps:   ${new URL(CONSOLE_PATH, local).href}${shared}`)
  }
}

/** The console page's configuration on this host: the app's initial state, storage and key. */
function consoleConfig(settings: ConsoleSettings, hostname: string): PlaygroundConfig {
  const { state, seed, persist, apiKey } = settings
  return {
    servedBy: 'vite',
    state,
    ...(seed !== undefined && { seed }),
    ...(persist !== false && { persist }),
    ...(apiKey !== undefined && { keys: [{ name: APP_KEY_NAME, value: apiKey, domains: [hostname] }] }),
  }
}
