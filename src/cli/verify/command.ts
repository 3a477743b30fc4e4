import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { maskSecrets } from '../../contract/key-format.ts'
import { readSecret } from '../secret.ts'
import { emptyReport, probeLine, runVerify, toJunit, VerifyCannotRun, type VerifyReport } from './verify.ts'

const HELP = `tmaps-mock verify: where the mock and the real TMaps differ

Usage: tmaps-mock verify --key-env TMAPS_KEY [options]

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
  -h, --help           this help

At most 15 requests: each endpoint's documented example, a 400, a 401 (API and tile), a 403 with --origin.
Exit 0: no finding that fails the run; 1: at least one; 2: it could not run (the message says why).
--report and --junit are written on every exit; when it could not run, they say why.
`

/**
 * `tmaps-mock verify ...`: runs, prints a line per probe, writes the reports; returns the exit
 * code. The reports asked for are written on every exit: one that could not run (2) says why.
 */
export async function verifyCommand(argv: string[]): Promise<number> {
  // Where the reports go, as soon as the arguments say (read leniently if they are wrong).
  let reports: { report?: string | undefined; junit?: string | undefined } = reportPaths(argv)
  let api = 'https://api.tmaps.tn'
  let tiles = 'https://tiles.tmaps.tn'
  let gate: { failOn?: 'error' | 'warning'; slowMs?: number } = {}
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
  let values: ReturnType<typeof parse>['values']
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
  let key: string
  try {
    key = readSecret(values['key-env'], values['key-file'], '--key-env')
  } catch (error) {
    return cannot((error as Error).message)
  }
  const origin = values.origin
  if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')))
    return cannot(`--origin ${JSON.stringify(origin)} is not an origin; write it as https://app.example.tn.`)
  api = values.api ?? api
  tiles = values.tiles ?? tiles
  for (const [flag, url] of [
    ['--api', api],
    ['--tiles', tiles],
  ] as const) {
    if (!URL.canParse(url) || new URL(url).protocol !== 'https:')
      return cannot(
        `${flag} ${JSON.stringify(url)} must be an https:// URL (TMaps refuses plain HTTP; the key would travel in clear).`,
      )
  }
  const rate = Number(values.rate ?? 2)
  if (!(rate > 0 && rate <= 50))
    return cannot(`--rate takes requests per second from 0.1 to 50, got "${values.rate}".`)
  const timeoutMs = Number(values.timeout ?? 15_000)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100)
    return cannot(`--timeout takes milliseconds (100 or more), got "${values.timeout}".`)
  const failOn = values['fail-on'] ?? 'error'
  if (failOn !== 'error' && failOn !== 'warning')
    return cannot(`--fail-on takes error or warning, got "${failOn}".`)
  const slowMs = values.slow === undefined ? undefined : Number(values.slow)
  if (slowMs !== undefined && !(Number.isInteger(slowMs) && slowMs > 0))
    return cannot(`--slow takes milliseconds (1 or more), got "${values.slow}".`)
  gate = { failOn, ...(slowMs !== undefined && { slowMs }) }
  let ca: string | undefined
  if (values.ca !== undefined) {
    try {
      ca = readFileSync(values.ca, 'utf8')
    } catch (error) {
      return cannot(`cannot read the CA file ${values.ca} (${(error as Error).message}).`)
    }
  }
  const only = values.only
    ?.split(',')
    .map((name) => name.trim().replace(/^\//, ''))
    .filter(Boolean)

  process.stdout.write(
    `tmaps-mock verify: TMaps at ${api} and ${tiles} against the mock${origin ? `, from ${origin}` : ', as a server (no Origin)'}\n`,
  )
  let report: VerifyReport
  try {
    report = await runVerify({
      key,
      api: new URL(api).origin,
      tiles: new URL(tiles).origin,
      rate,
      timeoutMs,
      ...gate,
      ...(origin !== undefined && { origin: new URL(origin).origin }),
      ...(only !== undefined && { only }),
      ...(ca !== undefined && { ca }),
      onProbe: (probe) => process.stdout.write(`${probeLine(probe)}\n`),
    })
  } catch (error) {
    if (error instanceof VerifyCannotRun) return cannot(error.message, error.report)
    throw error
  }
  const { probes, errors, warnings } = report.summary
  try {
    writeReports(reports, report)
  } catch (error) {
    process.stderr.write(`tmaps-mock verify: cannot write the report (${(error as Error).message}).\n`)
    return 2
  }
  process.stdout.write(
    `\n${probes} probes: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.${values.report ? ` Report: ${values.report}.` : ''}${failOn === 'warning' && warnings > 0 ? ' Warnings fail this run (--fail-on warning).' : ''}${errors > 0 ? ' What each kind means: docs/upstream.md.' : ''}\n`,
  )
  return errors > 0 || (failOn === 'warning' && warnings > 0) ? 1 : 0
}

/** The JSON and JUnit reports, to the files asked for (each written whole or not at all). */
function writeReports(
  paths: { report?: string | undefined; junit?: string | undefined },
  report: VerifyReport,
) {
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
      help: { type: 'boolean', short: 'h' },
    },
  })
}
