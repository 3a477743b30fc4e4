/**
 * `tmaps-mock verify --har FILE`: a recording's answers checked offline, with no network and no
 * key: each TMaps exchange against the spec and against the mock's answer to the same request.
 */
import { createValidator, type Finding, readOpenApi } from '../../upstream/spec-check.ts'
import { checkWithSpec, compareAnswers } from './compare.ts'
import type { RecordedExchange } from './own-requests.ts'
import { askMock, headersOf, localMock } from './sides.ts'
import { emptyReport, summarize, type VerifyReport } from './verify.ts'

/** What `checkRecording` is given. */
interface RecordingCheck {
  /** The file's name, as the report names it. */
  name: string
  exchanges: RecordedExchange[]
  /** Entries that are not TMaps requests (a browser's export holds the app's other requests). */
  skipped: number
  only?: string[]
  slowMs?: number
  failOn?: 'error' | 'warning'
  onProbe?: (probe: VerifyReport['probes'][number]) => void
}

/**
 * Checks each recorded exchange: TMaps's recorded answer against the spec and against the mock's
 * answer to the same request, from the same `Origin`. The mock's one key lists the hosts the
 * recording was answered from (every recorded origin but one only ever refused 403), so that a
 * recorded 200 meets a 200; a recorded 429, 5xx or unanswered request (status 0) is checked against
 * the spec alone. Resolves with the report (`recording` names the file; `real.ms` is the recorded time).
 */
export async function checkRecording(options: RecordingCheck): Promise<VerifyReport> {
  const { name, only, slowMs } = options
  const exchanges =
    only === undefined ? options.exchanges : options.exchanges.filter((e) => only.includes(e.probe.endpoint))
  const doc = readOpenApi()
  const validate = await createValidator(doc)
  const mock = localMock(answeredHosts(exchanges))
  const report: VerifyReport = {
    ...emptyReport('https://api.tmaps.tn', 'https://tiles.tmaps.tn', {
      ...(options.failOn && { failOn: options.failOn }),
      slowMs,
    }),
    recording: { file: name, entries: options.exchanges.length, skipped: options.skipped },
  }
  for (const { probe, answer, origin } of exchanges) {
    const headers = headersOf(probe, origin)
    const pathname = probe.path.split('?')[0] ?? ''
    const seen = {
      method: probe.method,
      pathname,
      origin: origin ?? null,
      ...(probe.picture && { picture: probe.picture }),
    }
    const mockSeen = await askMock(mock, probe, headers)
    const findings: Finding[] = []
    if (answer.status === 0)
      findings.push({
        severity: 'info',
        path: 'status',
        message: 'The app got no answer (status 0): nothing to check.',
      })
    else if (answer.status === 429 || answer.status >= 500) {
      findings.push(...checkWithSpec(doc, validate, seen, answer))
      findings.push({
        severity: 'info',
        path: 'status',
        message: `A recorded ${answer.status} is how TMaps was that moment: checked against the spec, not the mock.`,
      })
    } else findings.push(...compareAnswers(doc, validate, seen, answer, mockSeen))
    if (slowMs !== undefined && answer.ms > slowMs)
      findings.push({
        severity: 'warning',
        path: 'time',
        message: `TMaps took ${answer.ms} ms (recorded), over the ${slowMs} ms set with --slow.`,
        real: answer.ms,
      })
    const entry: VerifyReport['probes'][number] = {
      id: probe.id,
      endpoint: probe.endpoint,
      method: probe.method,
      source: probe.source,
      request: { url: probe.path, headers },
      real: { status: answer.status, contentType: answer.contentType, ms: answer.ms },
      mock: { status: mockSeen.status, contentType: mockSeen.contentType },
      findings,
    }
    report.probes.push(entry)
    options.onProbe?.(entry)
  }
  summarize(report)
  return report
}

/** The hostnames a recording was answered from: every recorded origin but those only ever refused 403. */
function answeredHosts(exchanges: RecordedExchange[]): string[] {
  const hosts = new Set<string>()
  for (const { origin, answer } of exchanges)
    if (origin !== undefined && answer.status !== 403 && URL.canParse(origin))
      hosts.add(new URL(origin).hostname)
  return [...hosts]
}
