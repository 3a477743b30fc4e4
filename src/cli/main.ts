import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { maskKey } from '../contract/key-format.ts'
import { keyReach } from '../contract/key-status.ts'
import type { FaultInput, FaultRule } from '../core/create-core.ts'
import { trustLines } from '../runtimes/server/console-page.ts'
import {
  startTmapsHttpsServer,
  type TmapsHttpsServer,
  type TmapsUpstreamOptions,
} from '../runtimes/server/https-server.ts'
import { escapeControlCharacters } from '../text/control-characters.ts'
import { giveMemoryBackWhenIdle, keepYoungGenerationSmall } from './heap.ts'
import { writePrivateFile } from './private-file.ts'
import { createRequestPrinter } from './request-lines.ts'
import { readSecret } from './secret.ts'

// Before any request: an idle server then keeps less memory (see heap.ts).
const youngKeptSmall = keepYoungGenerationSmall()

/** `tmaps-mock --help`: the commands. */
const OVERVIEW = `tmaps-mock: an offline mock of the TMaps API (Tunisia)

Usage: tmaps-mock <command> [options]

  serve        the API on a local HTTPS server, its console page and control API
  playground   the playground page: the mock in your browser, keys and domains to toggle
  verify       compare the real TMaps with the mock

tmaps-mock <command> --help says more.
`

const HELP = `tmaps-mock serve: the TMaps API mock on a local HTTPS server

Usage: tmaps-mock serve [options]

  --host <address>      address to listen on (default localhost: 127.0.0.1 and ::1, this
                        machine only); another address requires the console token
  --port <n>            HTTPS port (default 8443; 0 picks a free one)
  --http-port <n>       also listen on plain HTTP, where every request gets the contract's 403
  --cert <file>         your TLS certificate (PEM), with --key
  --key <file>          your TLS private key (PEM), with --cert
  --state <s>           demo (default), empty, or a snapshot file (.json)
  --seed <text>         reproducible key values and generated data
  --save <file>         write the state to this file on exit (Ctrl-C included), readable by you only
  --latency <ms|a-b>    hold every answer back (e.g. 300, or 200-800 drawn per request)
  --fault <rule>        inject faults, repeatable: status=429,times=3 | status=500,probability=0.05 |
                        endpoint=/geocoding/forward,status=503 | network=reset,times=1 | delay=200-800
  --console-origin <o>  a browser origin allowed to call the control API (repeatable)
  --console-token <t>   require this token on the control API (default: one is made when --host
                        exposes the server)
  --quiet               do not print a line per request
  -h, --help            this help

Against the real TMaps (docs/upstream.md):
  --upstream <url>          forward each request the local contract accepts to this TMaps API
                            (https://api.tmaps.tn), the real key in place of the local one
  --upstream-tiles <url>    the real tiles (default https://tiles.tmaps.tn)
  --upstream-key-env <var>  the environment variable holding the real key (never on the command line)
  --upstream-key-file <f>   or a file holding it
  --upstream-ca <file>      a CA to trust for the upstream (a proxy, a stand-in)
  --upstream-timeout <ms>   a slower answer gets 504 (default 15000)
  --upstream-drop-origin    send TMaps no Origin/Referer, as a server-side caller (default: as the app sent them)
  --record <file.har>       write every upstream exchange to a HAR file, keys replaced by {{api_key}}
  --replay <file.har>       answer accepted requests from a recording instead of the mock
  --replay-missing <m>      a request not recorded: mock (default, the mock's answer) or error (a 500)
  --replay-max-age <d>      warn when the recording is older (default 90d)
  --replay-latency <m>      recorded: answer each after the time TMaps took (at most 30 s)

tmaps-mock playground: the playground page, the mock in your browser (tmaps-mock playground --help)
tmaps-mock verify: compare the real TMaps with the mock (tmaps-mock verify --help)

Without --cert/--key, a local certificate authority and a certificate for localhost,
127.0.0.1 and ::1 are made once and kept in ~/.cache/tmaps-mock (XDG_CACHE_HOME).
The control API (every console action as JSON) is under /__console/ on the same server.
`

/** Exit code of a usage error (bad flag, busy port), as the README documents. */
const USAGE_ERROR = 2

function fail(message: string): never {
  process.stderr.write(`tmaps-mock: ${message}\nRun "tmaps-mock serve --help" for the options.\n`)
  process.exit(USAGE_ERROR)
}

function portFlag(name: string, value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    fail(`--${name} must be a port number from 0 to 65535, got "${value}".`)
  return Number(value)
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'verify') {
    const { verifyCommand } = await import('./verify/command.ts')
    process.exit(await verifyCommand(argv.slice(1)))
  }
  if (argv[0] === 'playground') {
    const { playgroundCommand } = await import('./playground.ts')
    return playgroundCommand(argv.slice(1))
  }
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    fail((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(positionals[0] === 'serve' ? HELP : OVERVIEW)
    return
  }
  const [command, ...rest] = positionals
  if (command !== 'serve')
    fail(
      command === undefined
        ? 'say what to do: tmaps-mock serve, tmaps-mock playground or tmaps-mock verify'
        : `unknown command "${command}".`,
    )
  if (rest.length > 0) fail(`unexpected argument "${rest[0]}".`)
  if ((values.cert === undefined) !== (values.key === undefined)) fail('give --cert and --key together.')

  let state: 'demo' | 'empty' | string = 'demo'
  if (values.state === 'empty' || values.state === 'demo') state = values.state
  else if (values.state !== undefined) {
    try {
      state = readFileSync(values.state, 'utf8')
    } catch (error) {
      fail(`cannot read the state file ${values.state} (${(error as Error).message}).`)
    }
  }

  if (values.save !== undefined) checkSavePath(values.save)

  const faults = [
    ...(values.latency === undefined ? [] : [{ delayMs: range('--latency', values.latency) }]),
    ...(values.fault ?? []).map(faultRule),
  ]

  const upstream = upstreamFlags(values)
  if (values.replay !== undefined && upstream !== undefined) fail('give --upstream or --replay, not both.')
  if (values.record !== undefined && upstream === undefined)
    fail('--record records what TMaps answers: give --upstream too (and --upstream-key-env).')
  const replay =
    values.replay === undefined
      ? undefined
      : {
          har: values.replay,
          onMissing: replayMissing(values['replay-missing']),
          ...(values['replay-max-age'] !== undefined && { maxAge: values['replay-max-age'] }),
          ...(replayLatency(values['replay-latency']) && { latency: 'recorded' as const }),
        }

  let server: TmapsHttpsServer
  try {
    server = await startTmapsHttpsServer({
      host: values.host ?? 'localhost',
      consoleOrigins: values['console-origin'] ?? [],
      ...(values['console-token'] !== undefined && { consoleToken: values['console-token'] }),
      ...(!values.quiet && { onRequest: requestLines.print }),
      port: values.port === undefined ? 8443 : portFlag('port', values.port),
      ...(values['http-port'] !== undefined && { httpPort: portFlag('http-port', values['http-port']) }),
      ...(values.cert && values.key && { cert: values.cert, key: values.key }),
      ...(values.seed !== undefined && { seed: values.seed }),
      ...(upstream && { upstream }),
      ...(replay && { replay }),
      state,
    })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (e.code === 'EADDRINUSE') fail(`the port is busy (${e.message}). Choose another with --port.`)
    if (e.code === 'EACCES') fail(`not allowed to listen there (${e.message}).`)
    fail((e as Error).message)
  }

  for (const fault of faults) {
    try {
      server.mock.faults.add(fault)
    } catch (error) {
      await server.close()
      fail(`--fault: ${(error as Error).message}`)
    }
  }
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    process.stdout.write(`\n${signal}: finishing requests in flight, then stopping.\n`)
    await server.close()
    requestLines.flush()
    if (values.save) process.exit(saveState(server, values.save) ? 0 : 1)
    process.exit(0)
  }
  // Before the banner: a signal sent once it is read (a supervisor, a test) is handled, not the
  // default that ends the process unsaved (the kernel delivers it while the banner is written).
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  printBanner(server, values.host ?? 'localhost', values.save, upstream, replay?.har)
  // Idle after work: the memory goes back to the system (see heap.ts).
  giveMemoryBackWhenIdle(youngKeptSmall)
}

/**
 * Refuses a `--save` path that cannot be written, at start rather than on exit (the state would be
 * lost), and a symbolic link: the state is a file of its own, never written through a link.
 */
function checkSavePath(path: string): void {
  const dir = dirname(resolve(path))
  if (!existsSync(dir)) fail(`--save: the folder ${dir} does not exist. Create it, or save elsewhere.`)
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink())
    fail(
      `--save: ${path} is a symbolic link; the state is written to a file of its own. Give the file's own path, or another name.`,
    )
  if (existsSync(path) && statSync(path).isDirectory()) fail(`--save: ${path} is a folder; give a file name.`)
  // The folder takes the new file (see writePrivateFile); a file you made read-only stays so.
  for (const needed of existsSync(path) ? [dir, path] : [dir]) {
    try {
      accessSync(needed, constants.W_OK)
    } catch {
      fail(`--save: ${needed} is not writable by you. Save elsewhere.`)
    }
  }
}

/**
 * Writes the state to `path`, readable by the user only (full key values, as a .env file), as a
 * file of its own (`writePrivateFile`: a link there is replaced, not written through). If that
 * fails (the folder went away meanwhile), the state goes to a file in the temporary folder
 * instead, and both are said: the state is never lost. False when it did not reach `path`.
 */
function saveState(server: TmapsHttpsServer, path: string): boolean {
  const text = `${JSON.stringify(server.mock.snapshot(), null, 2)}\n`
  try {
    writePrivateFile(path, text)
    process.stdout.write(`State saved to ${path}.\n`)
    return true
  } catch (error) {
    // A folder of its own, made for this rescue (unguessable, 0700), and a file made there exclusively.
    try {
      const rescue = join(mkdtempSync(join(tmpdir(), 'tmaps-mock-state-')), 'state.json')
      writeFileSync(rescue, text, { mode: 0o600, flag: 'wx' })
      process.stderr.write(
        `tmaps-mock: could not write the state to ${path} (${(error as Error).message}); saved it to ${rescue} instead.\n`,
      )
    } catch (again) {
      process.stderr.write(
        `tmaps-mock: could not write the state to ${path} (${(error as Error).message}), nor to the temporary folder (${(again as Error).message}): it is lost.\n`,
      )
    }
    return false
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'http-port': { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      state: { type: 'string' },
      seed: { type: 'string' },
      save: { type: 'string' },
      latency: { type: 'string' },
      fault: { type: 'string', multiple: true },
      'console-origin': { type: 'string', multiple: true },
      'console-token': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      upstream: { type: 'string' },
      'upstream-tiles': { type: 'string' },
      'upstream-key-env': { type: 'string' },
      'upstream-key-file': { type: 'string' },
      'upstream-ca': { type: 'string' },
      'upstream-timeout': { type: 'string' },
      'upstream-drop-origin': { type: 'boolean' },
      record: { type: 'string' },
      replay: { type: 'string' },
      'replay-missing': { type: 'string' },
      'replay-max-age': { type: 'string' },
      'replay-latency': { type: 'string' },
    },
  })
}

/** The `upstream` option from the `--upstream*` flags, the real key read from the environment or a file. */
function upstreamFlags(values: ReturnType<typeof parse>['values']): TmapsUpstreamOptions | undefined {
  const upstreamOptions = Object.keys(values).filter((name) => name.startsWith('upstream-'))
  if (values.upstream === undefined) {
    if (upstreamOptions.length > 0) fail(`--${upstreamOptions[0]} needs --upstream https://api.tmaps.tn.`)
    return undefined
  }
  let key: string
  try {
    key = readSecret(values['upstream-key-env'], values['upstream-key-file'], '--upstream-key-env')
  } catch (error) {
    fail((error as Error).message)
  }
  const timeout = values['upstream-timeout']
  if (timeout !== undefined && !/^\d{1,7}$/.test(timeout))
    fail(`--upstream-timeout takes milliseconds, got "${timeout}".`)
  return {
    api: values.upstream,
    key,
    ...(values['upstream-tiles'] !== undefined && { tiles: values['upstream-tiles'] }),
    ...(values['upstream-ca'] !== undefined && { ca: values['upstream-ca'] }),
    ...(timeout !== undefined && { timeoutMs: Number(timeout) }),
    ...(values['upstream-drop-origin'] && { browserHeaders: false }),
    ...(values.record !== undefined && { record: values.record }),
  }
}

function replayLatency(value: string | undefined): boolean {
  if (value === undefined) return false
  if (value === 'recorded') return true
  fail(`--replay-latency takes recorded (each answer after the time TMaps took), got "${value}".`)
}

function replayMissing(value: string | undefined): 'mock' | 'error' {
  if (value === undefined || value === 'mock' || value === 'error') return value ?? 'mock'
  fail(`--replay-missing takes mock or error, got "${value}".`)
}

/** `300` or `200-800` (milliseconds). */
function range(flag: string, text: string): number | [number, number] {
  const match = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(text.trim())
  if (!match) fail(`${flag} takes milliseconds, e.g. 300 or 200-800, got "${text}".`)
  const [min, max] = [Number(match[1]), Number(match[2] ?? match[1])]
  if (min > max) fail(`${flag}: the range ${text} goes backwards; write it low-high, e.g. 200-800.`)
  return min === max ? min : [min, max]
}

/** `status=429,times=3,endpoint=/geocoding/forward,probability=0.3,delay=200-800,network=reset`. */
function faultRule(text: string): FaultInput {
  const rule: FaultInput = {}
  for (const part of text.split(',')) {
    const [name, value = ''] = part.split('=').map((s) => s.trim())
    const number = Number(value)
    if (name === 'status') rule.status = number as FaultInput['status']
    else if (name === 'times') rule.times = number
    else if (name === 'probability') rule.probability = number
    else if (name === 'endpoint') rule.endpoint = value
    else if (name === 'delay' || name === 'latency') rule.delayMs = range(`--fault ${name}`, value)
    else if (name === 'network') rule.network = value as 'reset'
    else
      fail(
        `--fault "${text}": unknown part "${name}". Use status, times, probability, endpoint, delay or network.`,
      )
  }
  return rule
}

function describeFault(rule: FaultRule): string {
  const what = [
    rule.status !== null ? `${rule.status}` : '',
    rule.network !== null ? 'connection reset' : '',
    rule.delayMs !== null ? `+${Array.isArray(rule.delayMs) ? rule.delayMs.join('-') : rule.delayMs} ms` : '',
  ].filter(Boolean)
  const where = rule.endpoint === null ? 'every endpoint' : `/${rule.endpoint}`
  const how = [
    rule.remaining === null ? '' : rule.remaining === 1 ? 'once' : `${rule.remaining} times`,
    rule.probability < 1 ? `${Math.round(rule.probability * 100)}% of requests` : '',
  ].filter(Boolean)
  return `${what.join(' ')} on ${where}${how.length > 0 ? ` (${how.join(', ')})` : ''}`
}

/** The terminal's request lines (`--quiet` turns them off). */
const requestLines = createRequestPrinter((text) => process.stdout.write(text))

function printBanner(
  server: TmapsHttpsServer,
  host: string,
  save: string | undefined,
  upstream: TmapsUpstreamOptions | undefined,
  replay: string | undefined,
) {
  const out: string[] = []
  out.push(`tmaps-mock is serving the TMaps API at ${server.url}`)
  if (upstream) {
    out.push(
      `  upstream: requests your local keys pass go to ${upstream.api} and ${upstream.tiles ?? 'https://tiles.tmaps.tn'} with the real key ${maskKey(upstream.key)}`,
    )
    out.push(
      `  ${upstream.browserHeaders === false ? 'sent without Origin/Referer (as a server-side caller)' : 'Origin and Referer sent as your app sent them'}; answers logged as "upstream"`,
    )
    if (upstream.record)
      out.push(`  recording every exchange to ${upstream.record} (keys replaced by {{api_key}})`)
  }
  if (replay) out.push(`  replaying ${replay}: accepted requests get the recorded answers, logged "replay"`)
  out.push(
    `  API paths (/geocoding/..., /routing/..., /distance-matrix, /maps/static) and tiles (/r-tile/...) on one origin`,
  )
  if (server.httpUrl)
    out.push(`  plain HTTP at ${server.httpUrl} (every request: 403, as TMaps refuses HTTP)`)
  out.push(`  control API at ${server.url}/__console/ (keys, domains, usage, log, snapshot, faults)`)
  out.push(
    `  in a browser: ${server.url}/ (its console: switch keys, link domains, send requests, watch the live log)`,
  )
  if (server.consoleToken) {
    if (!['127.0.0.1', '::1', 'localhost'].includes(host))
      out.push(`  listening on ${host}: others can reach the API; the control API needs this token:`)
    out.push(`  console token: ${server.consoleToken}  (send Authorization: Bearer <token>; shown this once)`)
  }
  const rules = server.mock.faults.list()
  if (rules.length > 0) {
    out.push(`  faults on: ${rules.map(describeFault).join('; ')}`)
  }
  if (server.caPath) {
    out.push('')
    out.push(`Certificate: signed by the local CA ${server.caPath}`)
    for (const { client, how } of trustLines(server.caPath)) out.push(`  ${client}: ${how}`)
  }
  out.push('')
  out.push('Keys:')
  const created = new Map(server.createdKeys.map((k) => [k.id, k.value]))
  for (const key of server.mock.console.listKeys()) {
    const shown = created.get(key.id) ?? `${key.prefix}…`
    out.push(
      `  ${escapeControlCharacters(key.name).padEnd(24)} ${key.status.padEnd(9)} ${shown}  works: ${keyReach(key.status, key.domains)}`,
    )
  }
  if (created.size > 0)
    out.push('  (new keys: their full values are shown this once, as the console shows a new key)')
  const usable = server.mock.console.listKeys().find((k) => k.status === 'enabled' && created.has(k.id))
  if (usable) {
    out.push('')
    out.push('Try:')
    const ca = server.caPath ? ` --cacert ${server.caPath}` : ''
    out.push(`  curl${ca} '${server.url}/geocoding/forward?q=Sfax&limit=1&api_key=${created.get(usable.id)}'`)
  }
  if (save) out.push('', `On exit (Ctrl-C), the state is written to ${save}.`)
  out.push('', 'Ctrl-C to stop. One line per request follows (--quiet turns them off).')
  process.stdout.write(`${out.join('\n')}\n`)
}

await main(process.argv.slice(2))
