import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { maskSecrets } from '../../contract/key-format.ts'
import { readSecret } from '../secret.ts'
import { MAX_OWN_REQUESTS, type OwnRequests, readOwnRequests } from './own-requests.ts'
import type { Probe } from './probes.ts'
import { checkRecording } from './recording.ts'
import { emptyReport, probeLine, runVerify, toJunit, VerifyCannotRun, type VerifyReport } from './verify.ts'

const HELP = `tmaps-mock verify: where the mock and the real TMaps differ

Usage: tmaps-mock verify --key-env TMAPS_KEY [options]
       tmaps-mock verify --har FILE [--only N] [--slow MS] [--fail-on LEVEL] [--report F] [--junit F]

  --key-env <var>      the environment variable holding your real key (never on the command line)
  --key-file <file>    or a file holding it
  --origin <origin>    an origin your key lists (e.g. https://app.example.tn): the probes are sent
                       from it, and one from a foreign origin (403). Without it: as a server (no Origin)
  --api <url>          the TMaps API (default https://api.tmaps.tn)
  --tiles <url>        the TMaps tiles (default https://tiles.tmaps.tn)
  --only <names>       endpoints to probe, comma-separated (geocoding/forward,maps/static,r-tile,...)
  --report <file>      write the findings as JSON
  --junit <file>       write them as JUnit XML (one testcase per probe)
  --rate <n>           requests per second at most (default 2)
  --timeout <ms>       per request (default 15000)
  --ca <file>          a CA to trust besides the system's (a proxy, a stand-in)
  --slow <ms>          a TMaps answer slower than this is a warning finding (default: none)
  --fail-on <level>    error (default) or warning: warnings fail the run too (exit 1, JUnit failures)
  --requests <file>    your app's own requests too: a JSON list ([{"url": "/geocoding/forward?q=Sfax"},
                       {"url": "/routing/direction", "body": {...}}]) or a HAR recorded from your app
                       (its TMaps requests); at most 200, sent with your key after the examples
  --har <file>         check a recording offline instead: each recorded answer against the spec and
                       the mock's answer to the same request; no key, nothing sent (the options of a
                       live run are not used)
  -h, --help           this help

15 requests of its own: each endpoint's documented example, a 400, a 401 (API and tile), a 403 with --origin.
Exit 0: no finding that fails the run; 1: at least one; 2: it could not run (the message says why).
--report and --junit are written on every exit; when it could not run, they say why.
`

/** The reports asked for, where the run's facts go on every exit. */
interface Reports {
  report?: string | undefined
  junit?: string | undefined
}

/**
 * `tmaps-mock verify ...`: runs, prints a line per probe, writes the reports; returns the exit
 * code. The reports asked for are written on every exit: one that could not run (2) says why.
 */
export async function verifyCommand(argv: string[]): Promise<number> {
  // Where the reports go, as soon as the arguments say (read leniently if they are wrong).
  let reports: Reports = reportPaths(argv)
  let api = 'https://api.tmaps.tn'
  let tiles = 'https://tiles.tmaps.tn'
  let gate: Gate = {}
  const cannot = (message: string, partial?: VerifyReport) => {
    const masked = maskSecrets(message)
    process.stderr.write(`tmaps-mock verify: ${masked}\n`)
    const report = { ...(partial ?? emptyReport(api, tiles, gate)), couldNotRun: masked }
    try {
      writeReports(reports, report)
    } catch (error) {
      process.stderr.write(`tmaps-mock verify: cannot write the report (${(error as Error).message}).\n`)
    }
    return 2
  }
  let values: Values
  try {
    values = parse(argv).values
  } catch (error) {
    return cannot(`${(error as Error).message}\nRun "tmaps-mock verify --help" for the options.`)
  }
  reports = { report: values.report, junit: values.junit }
  if (values.help) {
    process.stdout.write(HELP)
    return 0
  }
  const read = gateOf(values)
  if (typeof read === 'string') return cannot(read)
  gate = read
  const only = values.only
    ?.split(',')
    .map((name) => name.trim().replace(/^\//, ''))
    .filter(Boolean)
  const onProbe = (probe: VerifyReport['probes'][number]) => process.stdout.write(`${probeLine(probe)}\n`)
  let report: VerifyReport
  try {
    if (values.har !== undefined) {
      if (values.requests !== undefined)
        return cannot('give --har (a recording, checked offline) or --requests, not both.')
      report = await offline(values.har, { ...gate, onProbe, ...(only !== undefined && { only }) })
    } else {
      const checked = liveOptions(values)
      if (typeof checked === 'string') return cannot(checked)
      const { ownNote, ...live } = checked
      api = live.api
      tiles = live.tiles
      process.stdout.write(
        `tmaps-mock verify: TMaps at ${api} and ${tiles} against the mock${live.origin ? `, from ${live.origin}` : ', as a server (no Origin)'}\n${ownNote ? `  the documented probes, ${ownNote}\n` : ''}`,
      )
      report = await runVerify({ ...live, ...gate, onProbe, ...(only !== undefined && { only }) })
    }
  } catch (error) {
    if (error instanceof VerifyCannotRun) return cannot(error.message, error.report)
    throw error
  }
  try {
    writeReports(reports, report)
  } catch (error) {
    process.stderr.write(`tmaps-mock verify: cannot write the report (${(error as Error).message}).\n`)
    return 2
  }
  return summaryOf(report, values.report)
}

/** What fails the run, from `--fail-on` and `--slow`; a message when one is wrong. */
type Gate = { failOn?: 'error' | 'warning'; slowMs?: number }

function gateOf(values: Values): Gate | string {
  const failOn = values['fail-on'] ?? 'error'
  if (failOn !== 'error' && failOn !== 'warning') return `--fail-on takes error or warning, got "${failOn}".`
  const slowMs = values.slow === undefined ? undefined : Number(values.slow)
  if (slowMs !== undefined && !(Number.isInteger(slowMs) && slowMs > 0))
    return `--slow takes milliseconds (1 or more), got "${values.slow}".`
  return { failOn, ...(slowMs !== undefined && { slowMs }) }
}

/**
 * The options of a run against TMaps (the key, the hosts, the pace, the CA, the own requests); a
 * message when one is wrong.
 */
function liveOptions(values: Values): (Parameters<typeof runVerify>[0] & { ownNote?: string }) | string {
  let key: string
  try {
    key = readSecret(values['key-env'], values['key-file'], '--key-env')
  } catch (error) {
    return (error as Error).message
  }
  const origin = values.origin
  if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')))
    return `--origin ${JSON.stringify(origin)} is not an origin; write it as https://app.example.tn.`
  const api = values.api ?? 'https://api.tmaps.tn'
  const tiles = values.tiles ?? 'https://tiles.tmaps.tn'
  for (const [flag, url] of [
    ['--api', api],
    ['--tiles', tiles],
  ] as const) {
    if (!URL.canParse(url) || new URL(url).protocol !== 'https:')
      return `${flag} ${JSON.stringify(url)} must be an https:// URL (TMaps refuses plain HTTP; the key would travel in clear).`
  }
  const rate = Number(values.rate ?? 2)
  if (!(rate > 0 && rate <= 50))
    return `--rate takes requests per second from 0.1 to 50, got "${values.rate}".`
  const timeoutMs = Number(values.timeout ?? 15_000)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100)
    return `--timeout takes milliseconds (100 or more), got "${values.timeout}".`
  let ca: string | undefined
  if (values.ca !== undefined) {
    try {
      ca = readFileSync(values.ca, 'utf8')
    } catch (error) {
      return `cannot read the CA file ${values.ca} (${(error as Error).message}).`
    }
  }
  let requests: Probe[] | undefined
  let ownNote: string | undefined
  if (values.requests !== undefined) {
    const own = readRequestsFile(values.requests)
    if (typeof own === 'string') return own
    requests = own.kind === 'list' ? own.probes : own.exchanges.map((e) => e.probe)
    if (requests.length > MAX_OWN_REQUESTS)
      return `${values.requests} holds ${requests.length} TMaps requests; verify sends at most ${MAX_OWN_REQUESTS} a run (your quota): split it.`
    const skipped = own.kind === 'har' ? own.skipped : 0
    if (requests.length === 0)
      return `${values.requests} holds no TMaps request${skipped ? ` (${skipped} other entr${skipped === 1 ? 'y' : 'ies'})` : ''}: record one with tmaps-mock serve --record, or export the app's TMaps calls from the browser.`
    ownNote = `and ${requests.length} request${requests.length === 1 ? '' : 's'} of ${values.requests}${skipped ? ` (${skipped} other entr${skipped === 1 ? 'y' : 'ies'} skipped: not TMaps requests)` : ''}`
  }
  return {
    key,
    api: new URL(api).origin,
    tiles: new URL(tiles).origin,
    rate,
    timeoutMs,
    ...(origin !== undefined && { origin: new URL(origin).origin }),
    ...(ca !== undefined && { ca }),
    ...(requests !== undefined && { requests }),
    ...(ownNote !== undefined && { ownNote }),
  }
}

/** A `--requests` or `--har` file, read; a message when it cannot be. */
function readRequestsFile(path: string): OwnRequests | string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return `cannot read ${path} (${(error as Error).message}).`
  }
  try {
    return readOwnRequests(text, path)
  } catch (error) {
    return (error as Error).message
  }
}

/** `--har FILE`: the recording checked offline (no key, no request sent). */
async function offline(
  path: string,
  options: Gate & { only?: string[]; onProbe: (probe: VerifyReport['probes'][number]) => void },
): Promise<VerifyReport> {
  const own = readRequestsFile(path)
  if (typeof own === 'string') throw new VerifyCannotRun(own)
  if (own.kind !== 'har')
    throw new VerifyCannotRun(
      `--har takes a HAR file; ${path} is a list of requests (send those with --requests).`,
    )
  if (own.exchanges.length === 0)
    throw new VerifyCannotRun(
      `${path} holds no TMaps request (${own.skipped} other entr${own.skipped === 1 ? 'y' : 'ies'}): record one with tmaps-mock serve --record, or export the app's TMaps calls from the browser.`,
    )
  process.stdout.write(
    `tmaps-mock verify: the recording ${path} (${own.exchanges.length} TMaps exchanges${own.skipped ? `, ${own.skipped} other entries skipped` : ''}), offline, against the spec and the mock\n`,
  )
  return checkRecording({ name: path, exchanges: own.exchanges, skipped: own.skipped, ...options })
}

/** Prints the run's summary line; returns the exit code (1 when a finding fails the run). */
function summaryOf(report: VerifyReport, reportPath: string | undefined): number {
  const { probes, errors, warnings } = report.summary
  const failOnWarning = report.failOn === 'warning'
  process.stdout.write(
    `\n${probes} probes: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.${reportPath ? ` Report: ${reportPath}.` : ''}${failOnWarning && warnings > 0 ? ' Warnings fail this run (--fail-on warning).' : ''}${errors > 0 ? ' What each kind means: docs/upstream.md.' : ''}\n`,
  )
  return errors > 0 || (failOnWarning && warnings > 0) ? 1 : 0
}

/** The JSON and JUnit reports, to the files asked for (each written whole or not at all). */
function writeReports(paths: Reports, report: VerifyReport) {
  if (paths.report) writeAtomically(paths.report, `${JSON.stringify(report, null, 2)}\n`)
  if (paths.junit) writeAtomically(paths.junit, toJunit(report))
}

/** `--report` and `--junit` from arguments that may be wrong otherwise (an unknown flag, a typo). */
function reportPaths(argv: string[]): { report?: string; junit?: string } {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: { report: { type: 'string' }, junit: { type: 'string' } },
  })
  const path = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
  const report = path(values.report)
  const junit = path(values.junit)
  return { ...(report && { report }), ...(junit && { junit }) }
}

function writeAtomically(path: string, text: string) {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}

type Values = ReturnType<typeof parse>['values']

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      'key-env': { type: 'string' },
      'key-file': { type: 'string' },
      origin: { type: 'string' },
      api: { type: 'string' },
      tiles: { type: 'string' },
      only: { type: 'string' },
      report: { type: 'string' },
      junit: { type: 'string' },
      rate: { type: 'string' },
      timeout: { type: 'string' },
      ca: { type: 'string' },
      slow: { type: 'string' },
      'fail-on': { type: 'string' },
      requests: { type: 'string' },
      har: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
