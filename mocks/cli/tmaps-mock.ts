#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { keyReach } from '../../src/contract/key-status.ts'
import { startTmapsServer, type TmapsServer } from '../serve/server.ts'

const HELP = `tmaps-mock serve: the TMaps API mock on a local HTTPS server

Usage: tmaps-mock serve [options]

  --host <address>      address to listen on (default 127.0.0.1: this machine only)
  --port <n>            HTTPS port (default 8443; 0 picks a free one)
  --http-port <n>       also listen on plain HTTP, where every request gets the contract's 403
  --cert <file>         your TLS certificate (PEM), with --key
  --key <file>          your TLS private key (PEM), with --cert
  --state <s>           demo (default), empty, or a snapshot file (.json)
  --seed <text>         reproducible key values and generated data
  --save <file>         write the state to this file on exit (Ctrl-C included)
  -h, --help            this help

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

function portFlag(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    fail(`--${name} must be a port number from 0 to 65535, got "${value}".`)
  return Number(value)
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    fail((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(HELP)
    return
  }
  const [command, ...rest] = positionals
  if (command !== 'serve')
    fail(command === undefined ? 'say what to do: tmaps-mock serve' : `unknown command "${command}".`)
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

  let server: TmapsServer
  try {
    server = await startTmapsServer({
      host: values.host ?? '127.0.0.1',
      port: portFlag('port', values.port, 8443)!,
      ...(values['http-port'] !== undefined && { httpPort: portFlag('http-port', values['http-port']) }),
      ...(values.cert && values.key && { cert: values.cert, key: values.key }),
      ...(values.seed !== undefined && { seed: values.seed }),
      state,
    })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (e.code === 'EADDRINUSE') fail(`the port is busy (${e.message}). Choose another with --port.`)
    if (e.code === 'EACCES') fail(`not allowed to listen there (${e.message}).`)
    fail((e as Error).message)
  }

  printBanner(server, values.host ?? '127.0.0.1', values.save)

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    process.stdout.write(`\n${signal}: finishing requests in flight, then stopping.\n`)
    await server.close()
    if (values.save) {
      writeFileSync(values.save, `${JSON.stringify(server.mock.snapshot(), null, 2)}\n`)
      process.stdout.write(`State saved to ${values.save}.\n`)
    }
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
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
      help: { type: 'boolean', short: 'h' },
    },
  })
}

function printBanner(server: TmapsServer, host: string, save: string | undefined) {
  const out: string[] = []
  out.push(`tmaps-mock is serving the TMaps API at ${server.url}`)
  out.push(
    `  API paths (/geocoding/..., /routing/..., /distance-matrix) and tiles (/r-tile/...) on one origin`,
  )
  if (server.httpUrl)
    out.push(`  plain HTTP at ${server.httpUrl} (every request: 403, as TMaps refuses HTTP)`)
  out.push(`  control API at ${server.url}/__console/ (keys, domains, usage, log, snapshot)`)
  if (!['127.0.0.1', '::1', 'localhost'].includes(host)) {
    out.push(`  warning: listening on ${host}: anyone who reaches it can use the control API`)
  }
  if (server.caPath) {
    out.push('')
    out.push(`Certificate: signed by the local CA ${server.caPath}`)
    out.push(`  curl: --cacert ${server.caPath}   Node: NODE_EXTRA_CA_CERTS=${server.caPath}`)
    out.push(
      '  browsers: import that file as a trusted authority once (Chrome: Settings > Privacy and security > Manage certificates)',
    )
  }
  out.push('')
  out.push('Keys:')
  const created = new Map(server.createdKeys.map((k) => [k.id, k.value]))
  for (const key of server.mock.console.listKeys()) {
    const shown = created.get(key.id) ?? `${key.prefix}…`
    out.push(
      `  ${key.name.padEnd(24)} ${key.status.padEnd(9)} ${shown}  works: ${keyReach(key.status, key.domains)}`,
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
  out.push('', 'Ctrl-C to stop.')
  process.stdout.write(`${out.join('\n')}\n`)
}

await main(process.argv.slice(2))
