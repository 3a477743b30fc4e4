import { hostFromHeader } from './hostname.ts'
import { isKeyValue, maskKey, maskSecrets, mayHoldKey } from './key-format.ts'
import type { KeyStatus } from './key-status.ts'
import { type AuthRule, REJECTIONS } from './rejections.ts'

/**
 * What a runtime saw of a request: everything the contract decides on, and nothing else.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { decide, type RequestFacts } from 'tmaps-mock'
 *
 * const facts: RequestFacts = {
 *   scheme: 'https',
 *   keyValues: [`ak_${'0'.repeat(32)}`],
 *   origin: 'http://localhost:5173',
 *   referer: null,
 * }
 * assert.equal(decide(facts, () => undefined).rule, 'key-unknown')
 * ```
 */
export interface RequestFacts {
  /** URL scheme without the colon: `https` or `http`. */
  scheme: string
  /** Every `api_key` value in the query string, in order (none, one, or repeated). */
  keyValues: readonly string[]
  /** The `Origin` header as sent (`''` and `'null'` count as present), or `null` when absent. */
  origin: string | null
  /** The `Referer` header as sent, or `null` when absent. */
  referer: string | null
  /** True when a runtime rebuilt Origin/Referer from what it could see (the service worker). */
  reconstructed?: boolean
  /** True when the caller was simulated (the browser runtime's `simulateCaller`), not observed. */
  simulated?: boolean
}

/** What the contract needs to know of a key: its status and its linked domains. */
export interface KeyView {
  id: string
  status: KeyStatus
  domains: ReadonlySet<string>
  /** The domains sorted, when the index keeps them so (else sorted per decision). */
  linked?: readonly string[]
}

/**
 * The facts a decision used, safe to log: the key is masked, never full.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DecisionFacts, maskKey } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * await mock.fetch(new Request(url, { headers: { Origin: 'http://127.0.0.1:5173' } }))
 * const facts: DecisionFacts | undefined = mock.log.entries()[0]?.facts
 * assert.equal(facts?.via, 'origin')
 * assert.equal(facts?.host, '127.0.0.1') // not linked: only localhost is
 * assert.deepEqual(facts?.linked, ['localhost'])
 * assert.equal(facts?.key, maskKey(key.value)) // masked, never the full key
 * ```
 */
export interface DecisionFacts {
  scheme: string
  /** The masked key (`ak_1a2b…`), `null` when none was sent. */
  key: string | null
  keyId: string | null
  /** Which browser header the domain check used. */
  via: 'origin' | 'referer' | 'none'
  /** The header value used (trimmed to 200 characters), or `null`. */
  header: string | null
  /** Its normalized host, or `null` when it did not parse. */
  host: string | null
  /** The key's linked domains when the domain check ran. */
  linked: readonly string[] | null
  reconstructed: boolean
  simulated: boolean
}

/**
 * The contract's verdict on a request: accepted (200) or rejected (401, 403), with its rule and facts.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { type Decision, decide } from 'tmaps-mock'
 *
 * const decision: Decision = decide(
 *   { scheme: 'http', keyValues: [], origin: null, referer: null },
 *   () => undefined,
 * )
 * assert.equal(decision.outcome, 'rejected')
 * assert.equal(decision.rule, 'http-not-allowed') // plain HTTP is refused before the key is read
 * assert.equal(decision.status, 403)
 * ```
 */
export type Decision =
  | {
      outcome: 'accepted'
      status: 200
      rule: Extract<AuthRule, 'ok' | 'no-browser-headers'>
      facts: DecisionFacts
    }
  | {
      outcome: 'rejected'
      status: 401 | 403
      rule: Exclude<AuthRule, 'ok' | 'no-browser-headers'>
      facts: DecisionFacts
    }

const HEADER_LOG_LIMIT = 200
const maskHost = (host: string | null) => (host === null || !mayHoldKey(host) ? host : maskSecrets(host))

/** Hosts of recent Origin/Referer values: a page sends the same one again and again. */
const hosts = new Map<string, string | null>()
const cachedHost = (header: string): string | null => {
  let host = hosts.get(header)
  if (host === undefined) {
    host = hostFromHeader(header)
    if (hosts.size >= 256) {
      const oldest = hosts.keys().next().value
      if (oldest !== undefined) hosts.delete(oldest)
    }
    if (header.length <= 512) hosts.set(header, host)
  }
  return host
}

/**
 * Decides a request exactly as TMaps does: scheme, then key, then domains.
 *
 * Pure: no I/O, no clock; `lookup` finds a key by its full value.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { decide } from 'tmaps-mock'
 *
 * const value = `ak_${'1a2b'.repeat(8)}`
 * const lookup = (v: string) =>
 *   v === value
 *     ? { id: 'key_1', status: 'enabled' as const, domains: new Set(['localhost']) }
 *     : undefined
 * const facts = {
 *   scheme: 'https',
 *   keyValues: [value],
 *   origin: 'http://localhost:5173',
 *   referer: null,
 * }
 * assert.equal(decide(facts, lookup).rule, 'ok')
 * assert.equal(
 *   decide({ ...facts, origin: 'https://other.tn' }, lookup).rule,
 *   'domain-not-authorized',
 * )
 * assert.equal(decide({ ...facts, origin: null }, lookup).rule, 'no-browser-headers') // a server
 * ```
 */
export function decide(facts: RequestFacts, lookup: (value: string) => KeyView | undefined): Decision {
  const via = facts.origin !== null ? 'origin' : facts.referer !== null ? 'referer' : 'none'
  const header = via === 'origin' ? facts.origin : via === 'referer' ? facts.referer : null
  const host = header === null ? null : cachedHost(header)
  const first = facts.keyValues[0]
  const only = facts.keyValues.length === 1 && first !== undefined ? first : null
  const record: DecisionFacts = {
    scheme: facts.scheme,
    key: first === undefined ? null : maskKey(first),
    keyId: null,
    via,
    header:
      header === null ? null : (mayHoldKey(header) ? maskSecrets(header) : header).slice(0, HEADER_LOG_LIMIT),
    host: maskHost(host),
    linked: null,
    reconstructed: facts.reconstructed === true,
    simulated: facts.simulated === true,
  }
  const reject = (rule: Exclude<AuthRule, 'ok' | 'no-browser-headers'>): Decision => ({
    outcome: 'rejected',
    status: REJECTIONS[rule].status,
    rule,
    facts: record,
  })

  if (facts.scheme !== 'https') return reject('http-not-allowed')
  if (facts.keyValues.length > 1) return reject('key-repeated')
  if (only === null || only === '') return reject('key-missing')
  if (!isKeyValue(only)) return reject('key-malformed')
  const key = lookup(only)
  if (!key) return reject('key-unknown')
  record.keyId = key.id
  if (key.status === 'disabled') return reject('key-disabled')
  if (key.status === 'revoked') return reject('key-revoked')
  if (via === 'none') return { outcome: 'accepted', status: 200, rule: 'no-browser-headers', facts: record }
  record.linked = key.linked ?? [...key.domains].sort()
  if (host === null || !key.domains.has(host)) return reject('domain-not-authorized')
  return { outcome: 'accepted', status: 200, rule: 'ok', facts: record }
}
