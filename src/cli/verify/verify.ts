import { Agent } from 'node:https'
import { maskKey, maskSecrets } from '../../contract/key-format.ts'
import { UPSTREAM_BODY_LIMIT } from '../../upstream/forward.ts'
import { httpsExchange } from '../../upstream/https-exchange.ts'
import type { Finding, Seen } from '../../upstream/spec-check.ts'
import { createValidator, readOpenApi } from '../../upstream/spec-check.ts'
import { packageVersion } from '../../upstream/version.ts'
import { compareAnswers } from './compare.ts'
import { MAX_PROBES, type Probe, probeSet } from './probes.ts'
import { askMock, bodyText, headersOf, localMock, withKey } from './sides.ts'

/** What `tmaps-mock verify` is given. */
interface VerifyOptions {
  /** The real key (from an environment variable or a file, never argv). */
  key: string
  /**
   * The app's origin, linked to the key at TMaps: the examples are sent from it, and a 403 probe from a
   * foreign one.
   */
  origin?: string
  api: string
  tiles: string
  /** Endpoint names to probe (`geocoding/forward`); default all. */
  only?: string[]
  /** The team's own requests (`--requests`), sent after the docs' examples. */
  requests?: Probe[]
  /** Requests per second at most. Default 2. */
  rate?: number
  /** Per request, ms. Default 15000. */
  timeoutMs?: number
  /** A CA to trust besides the system's (PEM). */
  ca?: string
  /** A real answer slower than this (ms) is a warning finding. Default none. */
  slowMs?: number
  /** What fails the run (exit 1, a failing JUnit testcase): an error finding, or a warning too. */
  failOn?: 'error' | 'warning'
  /** Called after each probe (the CLI prints its line). */
  onProbe?: (probe: ProbeReport) => void
  /** Waits (tests make it instant). Default a timer. */
  sleep?: (ms: number) => Promise<void>
}

/** One probe in the report. */
interface ProbeReport {
  id: string
  endpoint: string
  method: string
  source: string
  request: { url: string; headers: Record<string, string> }
  /** TMaps's answer; `ms`: how long it took (the last try, after a 429's wait). */
  real: { status: number; contentType: string | null; error?: string; ms: number }
  mock: { status: number; contentType: string | null }
  findings: Finding[]
}

/** The `--report` file. */
export interface VerifyReport {
  tool: 'tmaps-mock verify'
  version: string
  api: string
  tiles: string
  startedAt: string
  probes: ProbeReport[]
  summary: { probes: number; errors: number; warnings: number }
  /** What fails the run: `error` findings (the default), or `warning` ones too (`--fail-on warning`). */
  failOn: 'error' | 'warning'
  /** The slow-answer threshold in ms (`--slow`), when one was set. */
  slowMs?: number
  /** Why the run could not finish (exit 2), when it could not: its probes are those it sent first. */
  couldNotRun?: string
  /**
   * `--har`: the recording checked offline (no request sent): its file, its entries, and those
   * skipped (not TMaps requests).
   */
  recording?: { file: string; entries: number; skipped: number }
}

/**
 * It could not run at all (exit 2): no key, TMaps unreachable, TLS refused, every probe timed out.
 * `report` holds the probes sent before it stopped, when it had begun.
 */
export class VerifyCannotRun extends Error {
  readonly report: VerifyReport | undefined
  constructor(message: string, report?: VerifyReport) {
    super(message)
    this.report = report
  }
}

/** A report of no probe, for a run that stopped before its first (or whose options were wrong). */
export function emptyReport(
  api: string,
  tiles: string,
  gate: { failOn?: 'error' | 'warning'; slowMs?: number | undefined } = {},
): VerifyReport {
  return {
    tool: 'tmaps-mock verify',
    version: packageVersion(),
    api,
    tiles,
    startedAt: new Date().toISOString(),
    probes: [],
    summary: { probes: 0, errors: 0, warnings: 0 },
    failOn: gate.failOn ?? 'error',
    ...(gate.slowMs !== undefined && { slowMs: gate.slowMs }),
  }
}

/** Whether a finding fails the run, under the report's `failOn`. */
function failsRun(report: Pick<VerifyReport, 'failOn'>, finding: Finding): boolean {
  return finding.severity === 'error' || (report.failOn === 'warning' && finding.severity === 'warning')
}

const RETRY_AFTER_CAP_S = 60
/** Transport errors that mean nothing will work: stop at the first probe. */
const FATAL =
  /^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS|ERR_SSL|EPROTO)/

/** Runs the probe set against TMaps and the mock, side by side; resolves with the report. */
export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const { key, origin, api, tiles, only, rate = 2, timeoutMs = 15_000, ca, onProbe, slowMs } = options
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  if (key.trim() === '') throw new VerifyCannotRun('the key is empty.')
  const doc = readOpenApi()
  const validate = await createValidator(doc)
  const mock = localMock(origin === undefined ? [] : [new URL(origin).hostname])
  const probes = chosenProbes(probeSet(origin !== undefined), options.requests ?? [], only)
  const agent = new Agent({ keepAlive: true, maxSockets: 2, ...(ca !== undefined && { ca }) })
  const gap = 1000 / rate
  let lastStart = -Infinity
  const paced = async () => {
    const wait = lastStart + gap - performance.now()
    if (wait > 0) await sleep(wait)
    lastStart = performance.now()
  }
  const report = emptyReport(api, tiles, { ...(options.failOn && { failOn: options.failOn }), slowMs })
  const masked = (text: string) => maskSecrets(text.split(key).join(maskKey(key)))
  let timedOut = 0
  let unanswered: string | undefined
  let answered = 0
  try {
    for (const probe of probes) {
      const headers = headersOf(probe, origin)
      const realUrl = `${probe.host === 'tiles' ? tiles : api}${withKey(probe.path, probe.key === 'real' ? key : undefined)}`
      await paced()
      let sent = performance.now()
      let real = await send(agent, probe, realUrl, headers, timeoutMs)
      if ('status' in real && real.status === 429) {
        const seconds = Math.min(Number(real.headers['retry-after']) || 1, RETRY_AFTER_CAP_S)
        await sleep(seconds * 1000)
        await paced()
        sent = performance.now()
        real = await send(agent, probe, realUrl, headers, timeoutMs)
      }
      const ms = Math.round(performance.now() - sent)
      const mockSeen = await askMock(mock, probe, headers)
      const entry: ProbeReport = {
        id: probe.id,
        endpoint: probe.endpoint,
        method: probe.method,
        source: probe.source,
        request: { url: masked(realUrl), headers },
        real: { status: 0, contentType: null, ms },
        mock: { status: mockSeen.status, contentType: mockSeen.contentType },
        findings: [],
      }
      if ('error' in real) {
        if (report.probes.length === 0 && FATAL.test(real.code))
          throw new VerifyCannotRun(cannotReach(realUrl, real, masked), report)
        if (real.code === 'TIMEOUT') timedOut++
        unanswered = real.error
        entry.real.error = masked(real.error)
        entry.findings.push({
          severity: 'error',
          path: 'status',
          message: `TMaps gave no answer: ${masked(real.error)}.`,
        })
      } else {
        answered++
        entry.real = { status: real.status, contentType: real.contentType, ms }
        if (slowMs !== undefined && ms > slowMs)
          entry.findings.push({
            severity: 'warning',
            path: 'time',
            message: `TMaps took ${ms} ms, over the ${slowMs} ms set with --slow.`,
            real: ms,
          })
        const pathname = probe.path.split('?')[0] ?? ''
        const finding = compareAnswers(
          doc,
          validate,
          {
            method: probe.method,
            pathname,
            origin: headers.origin ?? null,
            ...(probe.picture && { picture: probe.picture }),
          },
          real,
          mockSeen,
        )
        entry.findings.push(...finding.map((f) => ({ ...f, message: masked(f.message) })))
      }
      report.probes.push(entry)
      onProbe?.(entry)
    }
  } finally {
    agent.destroy()
  }
  summarize(report)
  if (timedOut === report.probes.length)
    throw new VerifyCannotRun(
      `every probe timed out after ${timeoutMs} ms: TMaps at ${api} does not answer. Check the network, or give more time with --timeout.`,
      report,
    )
  if (answered === 0)
    throw new VerifyCannotRun(
      `no probe got an answer from TMaps at ${api} (the last: ${masked(unanswered ?? 'no answer')}). Check the network and the --api/--tiles URLs.`,
      report,
    )
  return report
}

/** The docs' examples (at most `MAX_PROBES`) and the team's own requests, of the endpoints `only` names. */
function chosenProbes(examples: Probe[], own: Probe[], only: string[] | undefined): Probe[] {
  const kept = (probes: Probe[]) =>
    only === undefined ? probes : probes.filter((p) => only.includes(p.endpoint))
  const probes = [...kept(examples).slice(0, MAX_PROBES), ...kept(own)]
  if (probes.length === 0)
    throw new VerifyCannotRun(
      `--only ${only?.join(',')} names no endpoint; use ${[...new Set(examples.map((p) => p.endpoint))].join(', ')}.`,
    )
  return probes
}

/** Counts a report's probes and findings into its summary. */
export function summarize(report: VerifyReport): void {
  const findings = report.probes.flatMap((p) => p.findings)
  report.summary = {
    probes: report.probes.length,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
  }
}

type Sent = (Seen & { headers: Record<string, string> }) | { error: string; code: string }

/** One request to TMaps; never rejects. */
async function send(
  agent: Agent,
  probe: Probe,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Sent> {
  const body = bodyText(probe)
  const answered = await httpsExchange(url, {
    method: probe.method,
    headers,
    body,
    agent,
    timeoutMs,
    limit: UPSTREAM_BODY_LIMIT,
  })
  if ('error' in answered) return answered
  return {
    status: answered.status,
    contentType: answered.headers['content-type'] ?? null,
    headers: answered.headers,
    bytes: answered.bytes,
  }
}

function cannotReach(
  url: string,
  failure: { error: string; code: string },
  masked: (text: string) => string,
): string {
  const where = new URL(url).origin
  if (/CERT|SSL|TLS|SELF_SIGNED|DEPTH_ZERO|EPROTO|UNABLE_TO|VERIFY/.test(failure.code))
    return `TLS with ${where} failed (${masked(failure.error)}). A proxy or a stand-in with its own CA: trust it with --ca FILE or NODE_EXTRA_CA_CERTS=FILE.`
  return `TMaps at ${where} is unreachable (${masked(failure.error)}). Check the network, or the --api/--tiles URLs.`
}

/** The report as JUnit XML: one testcase per probe, failing on an error finding. */
export function toJunit(report: VerifyReport): string {
  const xml = (text: string) =>
    text.replace(
      /[<>&"']/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
    )
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const cases = report.probes.map((probe) => {
    const errors = probe.findings.filter((f) => failsRun(report, f))
    const others = probe.findings.filter((f) => !failsRun(report, f))
    const name = `${probe.method} ${probe.endpoint} (${probe.id})`
    const [firstError] = errors
    const failure =
      firstError === undefined
        ? ''
        : `\n    <failure message="${xml(firstError.message)}">${xml(errors.map((f) => `${f.path}: ${f.message}`).join('\n'))}</failure>`
    const out =
      others.length === 0
        ? ''
        : `\n    <system-out>${xml(others.map((f) => `${f.severity} ${f.path}: ${f.message}`).join('\n'))}</system-out>`
    return `  <testcase classname="tmaps-mock verify" name="${xml(name)}" time="${seconds(probe.real.ms)}">${failure}${out}\n  </testcase>`
  })
  // A run that could not finish is one more testcase, in error: a CI's test report shows why.
  const { couldNotRun } = report
  if (couldNotRun !== undefined)
    cases.push(
      `  <testcase classname="tmaps-mock verify" name="verify could run">\n    <error message="${xml(couldNotRun)}">${xml(couldNotRun)}</error>\n  </testcase>`,
    )
  const failures = report.probes.filter((p) => p.findings.some((f) => failsRun(report, f))).length
  const errors = couldNotRun === undefined ? 0 : 1
  const total = seconds(report.probes.reduce((sum, p) => sum + p.real.ms, 0))
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="tmaps-mock verify" tests="${cases.length}" failures="${failures}" errors="${errors}" time="${total}" timestamp="${report.startedAt}">\n${cases.join('\n')}\n</testsuite>\n`
}

/** The probe's line on stdout: endpoint, real status / mock status, its findings counted. */
export function probeLine(probe: ProbeReport): string {
  const count = (s: Finding['severity']) => probe.findings.filter((f) => f.severity === s).length
  const [errors, warnings, infos] = [count('error'), count('warning'), count('info')]
  const real = probe.real.error ? 'no answer' : String(probe.real.status)
  const verdict = errors > 0 ? 'DIFFERS' : warnings > 0 ? 'warn' : 'ok'
  const counts = [
    errors && `${errors} error${errors > 1 ? 's' : ''}`,
    warnings && `${warnings} warning${warnings > 1 ? 's' : ''}`,
    infos && `${infos} info`,
  ]
    .filter(Boolean)
    .join(', ')
  const first =
    probe.findings.find((f) => f.severity === 'error') ?? probe.findings.find((f) => f.severity === 'warning')
  return `${verdict.padEnd(7)} ${`${probe.method} ${probe.endpoint}`.padEnd(24)} ${probe.id.padEnd(24)} TMaps ${real} (${probe.real.ms} ms) / mock ${probe.mock.status}${counts ? `  ${counts}` : ''}${first ? `: ${first.message}` : ''}`
}
