/**
 * Every rule of the auth contract that can decide a request, accepted or not.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { type AuthRule, decide } from 'tmaps-mock'
 *
 * const rule: AuthRule = decide(
 *   { scheme: 'https', keyValues: [], origin: null, referer: null },
 *   () => undefined,
 * ).rule
 * assert.equal(rule, 'key-missing')
 * ```
 */
export type AuthRule =
  | 'http-not-allowed'
  | 'key-missing'
  | 'key-repeated'
  | 'key-malformed'
  | 'key-unknown'
  | 'key-disabled'
  | 'key-revoked'
  | 'domain-not-authorized'
  | 'ok'
  | 'no-browser-headers'

/** Rules decided after auth passed, by the endpoint layer. */
type EndpointRule =
  | 'not-found'
  | 'missing-param'
  | 'invalid-param'
  | 'payload-too-large'
  | 'client-closed'
  | 'internal-error'
  | 'renderer-busy'
  | 'renderer-failed'

/** A fault injected on demand (`mock.faults`), decided before the contract: infrastructure. */
type InfraRule = 'fault-injected'

/**
 * Every rule that can decide a request: the auth contract's, the endpoints' and injected faults.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type Rule } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const noQuery = `https://api.tmaps.tn/geocoding/forward?api_key=${key.value}` // q is required
 * await mock.fetch(new Request(noQuery))
 * const rules: Rule[] = mock.log.entries().map((entry) => entry.rule)
 * assert.deepEqual(rules, ['missing-param']) // auth passed; the endpoint refused
 * ```
 */
export type Rule = AuthRule | EndpointRule | InfraRule

/**
 * The documented error bodies and statuses, by rule.
 *
 * Every 401 is byte-identical whatever the cause, so a caller cannot tell an unknown key from a
 * disabled or revoked one.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, REJECTIONS } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const response = await mock.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
 * assert.equal(response.status, REJECTIONS['key-missing'].status) // 401
 * assert.deepEqual(await response.json(), { error: REJECTIONS['key-missing'].error })
 * ```
 */
export const REJECTIONS = {
  'http-not-allowed': { status: 403, error: 'domain not authorized' },
  'key-missing': { status: 401, error: 'missing api_key' },
  'key-repeated': { status: 401, error: 'missing api_key' },
  'key-malformed': { status: 401, error: 'missing api_key' },
  'key-unknown': { status: 401, error: 'missing api_key' },
  'key-disabled': { status: 401, error: 'missing api_key' },
  'key-revoked': { status: 401, error: 'missing api_key' },
  'domain-not-authorized': { status: 403, error: 'domain not authorized' },
  'not-found': { status: 404, error: 'not found' },
  'payload-too-large': { status: 413, error: 'payload too large' },
  // nginx's code for a client that left before the answer: logged, never seen by anyone.
  'client-closed': { status: 499, error: 'client closed request' },
  'internal-error': { status: 500, error: 'internal error' },
  // Pictures queued beyond the render pool's bound: the docs' 503, with Retry-After.
  'renderer-busy': { status: 503, error: 'service unavailable' },
  // A render process that died, hung or could not be sent the job: replaced; a retry is drawn afresh.
  'renderer-failed': { status: 503, error: 'service unavailable' },
} as const satisfies Partial<Record<Rule, { status: number; error: string }>>

/** The body of a parameter error: `missing required param: q` or `invalid param: limit`. */
export function paramError(kind: 'missing-param' | 'invalid-param', name: string): string {
  return kind === 'missing-param' ? `missing required param: ${name}` : `invalid param: ${name}`
}
