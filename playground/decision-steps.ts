import type { LogEntry } from '../src/console/request-log.ts'
import { REJECTIONS, type Rule } from '../src/contract/rejections.ts'

/** How one step of the decision went: passed, failed, skipped by design, or never reached. */
export type StepState = 'pass' | 'fail' | 'skipped' | 'not-reached'

/** One link of the chain scheme -> key -> status -> Origin/Referer -> host -> endpoint. */
export interface DecisionStep {
  id: 'fault' | 'scheme' | 'key' | 'status' | 'header' | 'host' | 'endpoint'
  state: StepState
  /** The step and the fact it used, in words (`Scheme https`, `Host 127.0.0.1 is not linked …`). */
  text: string
}

/** What the steps are drawn from: a log entry's decision. */
export type DecidedEntry = Pick<LogEntry, 'rule' | 'status' | 'endpoint' | 'reason' | 'facts'>

const LABELS: Record<Exclude<DecisionStep['id'], 'fault'>, string> = {
  scheme: 'Scheme',
  key: 'Key',
  status: 'Status',
  header: 'Origin/Referer',
  host: 'Host match',
  endpoint: 'Endpoint',
}
const ORDER = ['scheme', 'key', 'status', 'header', 'host', 'endpoint'] as const

/** The step each auth refusal fails at. */
const FAILS_AT: Partial<Record<Rule, (typeof ORDER)[number]>> = {
  'http-not-allowed': 'scheme',
  'key-missing': 'key',
  'key-repeated': 'key',
  'key-malformed': 'key',
  'key-unknown': 'key',
  'key-disabled': 'status',
  'key-revoked': 'status',
  'domain-not-authorized': 'host',
}

/** The endpoint's own message for a refusal it decided (`missing required param: q`). */
function endpointMessage(entry: DecidedEntry): string {
  const fromReason = /^Authorized, but (.+?)\.?$/.exec(entry.reason)?.[1]
  if (entry.rule === 'missing-param' || entry.rule === 'invalid-param') return fromReason ?? entry.rule
  const known = (REJECTIONS as Partial<Record<Rule, { error: string }>>)[entry.rule]
  return known?.error ?? fromReason ?? entry.rule
}

/**
 * The decision of one answered request as a chain of steps, each with its state and the fact it
 * used; the steps after the failing one are not reached. Pure: everything comes from the log entry.
 * @example
 * decisionSteps(entry).map((s) => s.state) // ['pass', 'pass', 'pass', 'pass', 'fail', 'not-reached']
 */
export function decisionSteps(entry: DecidedEntry): DecisionStep[] {
  const { facts, rule, status } = entry
  const notReached = (id: (typeof ORDER)[number]): DecisionStep => ({
    id,
    state: 'not-reached',
    text: `${LABELS[id]}: not reached`,
  })

  if (rule === 'fault-injected') {
    const answered = status === 0 ? 'reset the connection' : `answered ${status}`
    return [
      { id: 'fault', state: 'fail', text: `Injected fault ${answered}, before the auth check` },
      ...ORDER.map(notReached),
    ]
  }

  const failsAt = FAILS_AT[rule] ?? 'endpoint'
  const key = facts.key ?? 'none'
  const how = facts.simulated ? ' (simulated)' : facts.reconstructed ? ' (reconstructed)' : ''
  const linked = `linked: ${facts.linked && facts.linked.length > 0 ? facts.linked.join(', ') : 'none'}`

  const reached: Record<(typeof ORDER)[number], () => DecisionStep> = {
    scheme: () =>
      facts.scheme === 'https'
        ? { id: 'scheme', state: 'pass', text: 'Scheme https' }
        : { id: 'scheme', state: 'fail', text: `Scheme ${facts.scheme}: only https is answered` },
    key: () => {
      const fail = (text: string): DecisionStep => ({ id: 'key', state: 'fail', text })
      switch (rule) {
        case 'key-missing':
          return fail('Key: no api_key in the query string')
        case 'key-repeated':
          return fail('Key: api_key sent more than once')
        case 'key-malformed':
          return fail(`Key ${key} malformed (ak_ + 32 lower-case hex)`)
        case 'key-unknown':
          return fail(`Key ${key} not found`)
        default:
          return { id: 'key', state: 'pass', text: `Key ${key} found` }
      }
    },
    status: () =>
      rule === 'key-disabled' || rule === 'key-revoked'
        ? { id: 'status', state: 'fail', text: `Status ${rule === 'key-disabled' ? 'disabled' : 'revoked'}` }
        : { id: 'status', state: 'pass', text: 'Status enabled' },
    header: () =>
      facts.via === 'none'
        ? { id: 'header', state: 'skipped', text: 'No Origin or Referer: domain list not checked' }
        : {
            id: 'header',
            state: 'pass',
            text: `${facts.via === 'origin' ? 'Origin' : 'Referer'}${how} ${facts.header === '' ? '""' : facts.header}`,
          },
    host: () => {
      if (facts.via === 'none') return { id: 'host', state: 'skipped', text: 'Host match: not checked' }
      if (rule !== 'domain-not-authorized')
        return { id: 'host', state: 'pass', text: `Host ${facts.host} is linked (${linked})` }
      return facts.host === null
        ? { id: 'host', state: 'fail', text: `Host: none can be read from the header (${linked})` }
        : { id: 'host', state: 'fail', text: `Host ${facts.host} is not linked (${linked})` }
    },
    endpoint: () => {
      const ok = status >= 200 && status < 400
      return {
        id: 'endpoint',
        state: ok ? 'pass' : 'fail',
        text: `Endpoint ${entry.endpoint} answered ${status}${ok ? '' : `: ${endpointMessage(entry)}`}`,
      }
    },
  }

  const at = ORDER.indexOf(failsAt)
  return ORDER.map((id, i) => (i <= at ? reached[id]() : notReached(id)))
}

/** The one-click fix a refusal offers, if any: the console action, then the same request again. */
export type DecisionFix =
  | { kind: 'link-domain'; keyId: string; host: string }
  | { kind: 'enable-key'; keyId: string }
  | { kind: 'create-server-key' }
  | { kind: 'use-https' }

/**
 * The fix for a refused request, from its rule and facts; `null` when there is none to offer.
 * @example
 * decisionFix({ rule: 'key-disabled', facts: { keyId: 'key_1' } } as LogEntry)
 * // { kind: 'enable-key', keyId: 'key_1' }
 */
export function decisionFix(entry: Pick<LogEntry, 'rule' | 'facts'>): DecisionFix | null {
  const { rule, facts } = entry
  switch (rule) {
    case 'domain-not-authorized':
      return facts.keyId !== null && facts.host !== null
        ? { kind: 'link-domain', keyId: facts.keyId, host: facts.host }
        : null
    case 'key-disabled':
      return facts.keyId !== null ? { kind: 'enable-key', keyId: facts.keyId } : null
    case 'key-revoked':
    case 'key-unknown':
    case 'key-missing':
    case 'key-malformed':
      return { kind: 'create-server-key' }
    case 'http-not-allowed':
      return { kind: 'use-https' }
    default:
      return null
  }
}
