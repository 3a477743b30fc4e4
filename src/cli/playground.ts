import { spawn } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { answerPlaygroundFile, builtPlayground, pageWithConfig } from '../runtimes/playground/files.ts'
import type { PlaygroundConfig } from '../runtimes/playground/page-config.ts'
import { parseSnapshot, type TmapsSnapshot } from '../store/snapshot.ts'

const HELP = `tmaps-mock playground: the playground page, with the mock in your browser

Usage: tmaps-mock playground [options]

  --port <n>        port to serve the page on (default 5180; the next free one if it is taken;
                    0 picks any free one)
  --host <address>  address to listen on (default localhost: this machine only)
  --open            open the page in your browser
  --state <s>       demo (default), empty, or a snapshot file (.json)
  --seed <text>     reproducible key values and generated data
  --out <dir>       write a static copy of the page to <dir> instead of serving it: any static
                    file server serves it, at any path prefix
  -h, --help        this help

The mock runs in the page's service worker, as in your app: each origin keeps its own console
(http://localhost:<port> and http://127.0.0.1:<port> are two), across reloads and tabs.
`

/** The default port: beside Vite's 5173-5179, where the user's own app may be running. */
const DEFAULT_PORT = 5180
/** How many ports after the default are tried when it is taken. */
const PORT_TRIES = 20
const USAGE_ERROR = 2

function fail(message: string): never {
  process.stderr.write(`tmaps-mock: ${message}\nRun "tmaps-mock playground --help" for the options.\n`)
  process.exit(USAGE_ERROR)
}

/** `--state` and `--seed` as the page's configuration; a bad snapshot file says what is wrong. */
function configOf(values: { state?: string | undefined; seed?: string | undefined }): PlaygroundConfig {
  const config: PlaygroundConfig = {}
  if (values.seed !== undefined) config.seed = values.seed
  if (values.state === 'demo' || values.state === 'empty') config.state = values.state
  else if (values.state !== undefined) {
    let text: string
    try {
      text = readFileSync(values.state, 'utf8')
    } catch (error) {
      fail(`cannot read the state file ${values.state} (${(error as Error).message}).`)
    }
    try {
      parseSnapshot(text)
    } catch (error) {
      fail(`the state file ${values.state} is not a tmaps-mock snapshot:\n${(error as Error).message}`)
    }
    config.state = JSON.parse(text) as TmapsSnapshot
  }
  return config
}

/** Writes a static copy of the page into `out` (which must not exist, or be empty). */
function writeCopy(from: string, out: string, html: string): void {
  if (existsSync(out) && readdirSync(out).length > 0)
    fail(`${out} is not empty: give a new or empty folder for the static copy.`)
  cpSync(from, out, { recursive: true })
  writeFileSync(join(out, 'index.html'), html)
}

/**
 * The built page's static files, the configured `index.html` for `/`. It holds no state (the
 * console lives in each browser), so it has nothing to guard but its folder.
 */
function pageListener(root: string, page: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let path: string
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
    } catch {
      res
        .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('The path is not a valid URL path.\n')
      return
    }
    answerPlaygroundFile(req, res, path, { root, page })
  }
}

type Listener = ReturnType<typeof pageListener>

function listenOn(listener: Listener, host: string, port: number): Promise<Server> {
  const server = createServer(listener)
  return new Promise((done, refused) => {
    server.once('error', refused)
    server.listen(port, host, () => {
      server.off('error', refused)
      done(server)
    })
  })
}

/**
 * Listens on `port` (`localhost`: 127.0.0.1, then ::1 on the same port when the machine has
 * it), or on the next free ones when `next` allows it; resolves with the servers.
 */
async function listen(
  listener: Listener,
  host: string,
  port: number,
  next: boolean,
): Promise<[Server, ...Server[]]> {
  for (let tries = 0; ; tries++) {
    try {
      const first = await listenOn(listener, host === 'localhost' ? '127.0.0.1' : host, port + tries)
      if (host !== 'localhost') return [first]
      const { port: chosen } = first.address() as AddressInfo
      const second = await listenOn(listener, '::1', chosen).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT') return undefined
        first.close()
        throw error
      })
      return second ? [first, second] : [first]
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EADDRINUSE' || !next || tries + 1 >= PORT_TRIES)
        fail(`cannot listen on ${host}:${port + tries} (${(error as Error).message}).`)
    }
  }
}

/** Opens `url` in the system's browser; says so if it cannot. */
function openBrowser(url: string): void {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]]
  const opener = spawn(command, args, { stdio: 'ignore', detached: true })
  opener.on('error', () => process.stderr.write(`tmaps-mock: could not open a browser; open ${url}\n`))
  opener.unref()
}

/** `tmaps-mock playground [options]`: serves the built page, or writes a static copy of it (`--out`). */
export async function playgroundCommand(argv: string[]): Promise<void> {
  let values: ReturnType<typeof parseFlags>['values']
  try {
    const parsed = parseFlags(argv)
    if (parsed.positionals.length > 0) fail(`unexpected argument "${parsed.positionals[0]}".`)
    values = parsed.values
  } catch (error) {
    fail((error as Error).message)
  }
  if (values.help) return void process.stdout.write(HELP)
  const config = configOf(values)
  let root: string
  try {
    root = builtPlayground()
  } catch (error) {
    fail((error as Error).message)
  }
  const html = pageWithConfig(readFileSync(join(root, 'index.html'), 'utf8'), config)
  if (values.out !== undefined) {
    const out = resolve(values.out)
    writeCopy(root, out, html)
    process.stdout.write(
      `tmaps-mock playground: a static copy written to ${out}\n` +
        '  Serve that folder with any static file server, at any path (e.g. npx vite preview --outDir <dir>).\n' +
        '  Over https, or on localhost: a service worker needs a secure context.\n',
    )
    return
  }
  const host = values.host ?? 'localhost'
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port))
    fail(`--port must be a port number from 0 to 65535, got "${values.port}".`)
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port)
  if (port > 65_535) fail(`--port must be a port number from 0 to 65535, got "${values.port}".`)
  const servers = await listen(pageListener(root, html), host, port, values.port === undefined)
  const { port: listening } = servers[0].address() as AddressInfo
  const shown = host.includes(':') ? `[${host}]` : host
  const url = `http://${shown}:${listening}/`
  process.stdout.write(
    `tmaps-mock playground at ${url}\n` +
      `  The mock runs in the page (its service worker); each origin keeps its own console.\n` +
      '  Ctrl-C to stop.\n',
  )
  if (values.open) openBrowser(url)
  const stop = () => {
    for (const server of servers) server.closeAllConnections()
    Promise.all(servers.map((server) => new Promise((done) => server.close(done)))).then(() =>
      process.exit(0),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

function parseFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      open: { type: 'boolean' },
      state: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
