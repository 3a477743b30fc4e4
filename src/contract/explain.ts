import type { DecisionFacts } from './decide.ts'
import type { Rule } from './rejections.ts'

/**
 * Explains in plain words why a rule decided a request, from the (masked) facts it used.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { decide, explainDecision } from 'tmaps-mock'
 *
 * const { rule, facts } = decide(
 *   { scheme: 'https', keyValues: [], origin: null, referer: null },
 *   () => undefined,
 * )
 * assert.equal(
 *   explainDecision(rule, facts),
 *   'No api_key in the query string. The key is only read from the api_key query parameter, ' +
 *     'never from an Authorization header.',
 * )
 * ```
 */
export function explainDecision(rule: Rule, facts: DecisionFacts): string {
  const key = facts.key ?? 'none'
  const headerName = facts.via === 'origin' ? 'Origin' : 'Referer'
  const how = facts.simulated ? ' (simulated)' : facts.reconstructed ? ' (reconstructed)' : ''
  const seen = `${headerName}${how} ${facts.header === '' ? '""' : facts.header}`
  const linked = facts.linked && facts.linked.length > 0 ? facts.linked.join(', ') : 'none'
  switch (rule) {
    case 'http-not-allowed':
      return 'Plain HTTP is refused: TMaps answers only over HTTPS.'
    case 'key-missing':
      return 'No api_key in the query string. The key is only read from the api_key query parameter, never from an Authorization header.'
    case 'key-repeated':
      return 'api_key appears more than once in the query string; send it exactly once.'
    case 'key-malformed':
      return `api_key ${key} does not have the key format (ak_ followed by 32 lower-case hex characters).`
    case 'key-unknown':
      return `Key ${key} does not exist in the console.`
    case 'key-disabled':
      return `Key ${key} is disabled: enable it in the console to use it again.`
    case 'key-revoked':
      return `Key ${key} is revoked: revocation is final, create a new key.`
    case 'domain-not-authorized':
      return facts.host === null
        ? `${seen} -> no host can be read from it, so no linked domain can match key ${key}; linked: ${linked}.`
        : `${seen} -> host ${facts.host} is not linked to key ${key}; linked: ${linked}.`
    case 'ok':
      return `${seen} -> host ${facts.host} is linked to key ${key}.`
    case 'no-browser-headers':
      return `No Origin and no Referer${how} (a server-side caller, or a browser request that sends neither): the domain list of key ${key} is not checked.`
    case 'not-found':
      return 'Authorized, but no TMaps endpoint answers this method and path.'
    case 'missing-param':
      return 'Authorized, but a required parameter is missing.'
    case 'invalid-param':
      return 'Authorized, but a parameter is malformed or out of range.'
    case 'internal-error':
      return 'The mock failed while answering (a bug in tmaps-mock): please report it.'
    case 'payload-too-large':
      return 'Authorized, but the request body is larger than the server accepts.'
    case 'client-closed':
      return 'The client left before its request body arrived (an aborted upload): nothing was answered.'
    case 'renderer-busy':
      return 'Authorized, but every render process is busy and its queue is full: try again in a second (Retry-After).'
    case 'renderer-failed':
      return 'Authorized, but the render process answering it failed (it exited, did not answer in time, or could not be sent the job); a new one takes the next job: try again (Retry-After).'
    case 'fault-injected':
      return 'An injected fault answered, before the auth check (mock.faults).'
  }
}
