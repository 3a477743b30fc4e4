import { describe, expect, it } from 'vitest'
import { decide, type KeyView, type RequestFacts } from './decide.ts'
import { explainDecision } from './explain.ts'

const KEY = `ak_${'3f2a'.repeat(8)}`
const keys = new Map<string, KeyView>([
  [KEY, { id: 'k1', status: 'enabled', domains: new Set(['localhost', 'mysite.tn', '[::1]']) }],
  [`ak_${'d'.repeat(32)}`, { id: 'k2', status: 'disabled', domains: new Set(['localhost']) }],
  [`ak_${'e'.repeat(32)}`, { id: 'k3', status: 'revoked', domains: new Set(['localhost']) }],
  [`ak_${'f'.repeat(32)}`, { id: 'k4', status: 'enabled', domains: new Set() }],
])
const lookup = (value: string) => keys.get(value)
const facts = (over: Partial<RequestFacts>): RequestFacts => ({
  scheme: 'https',
  keyValues: [KEY],
  origin: null,
  referer: null,
  ...over,
})

describe('decide', () => {
  it.each([
    ['plain HTTP', { scheme: 'http' }, 'http-not-allowed', 403],
    ['no key', { keyValues: [] }, 'key-missing', 401],
    ['empty key', { keyValues: [''] }, 'key-missing', 401],
    ['repeated key', { keyValues: [KEY, KEY] }, 'key-repeated', 401],
    ['malformed key', { keyValues: ['ak_123'] }, 'key-malformed', 401],
    ['unknown key', { keyValues: [`ak_${'0'.repeat(32)}`] }, 'key-unknown', 401],
    ['disabled key', { keyValues: [`ak_${'d'.repeat(32)}`] }, 'key-disabled', 401],
    ['revoked key', { keyValues: [`ak_${'e'.repeat(32)}`] }, 'key-revoked', 401],
    ['foreign Origin', { origin: 'https://evil.tn' }, 'domain-not-authorized', 403],
    ['Origin: null', { origin: 'null' }, 'domain-not-authorized', 403],
    ['empty Origin', { origin: '' }, 'domain-not-authorized', 403],
    ['linked Origin', { origin: 'http://localhost:5173' }, 'ok', 200],
    ['linked Origin, upper case, trailing dot', { origin: 'https://MYSITE.tn.' }, 'ok', 200],
    ['IPv6 Origin', { origin: 'http://[::1]:8080' }, 'ok', 200],
    [
      'Origin wins over Referer',
      { origin: 'https://evil.tn', referer: 'https://mysite.tn/' },
      'domain-not-authorized',
      403,
    ],
    ['Referer as fallback', { referer: 'https://mysite.tn/page?x=1' }, 'ok', 200],
    ['foreign Referer', { referer: 'https://evil.tn/' }, 'domain-not-authorized', 403],
    ['neither header', {}, 'no-browser-headers', 200],
    ['no domains, server-side', { keyValues: [`ak_${'f'.repeat(32)}`] }, 'no-browser-headers', 200],
    [
      'no domains, browser',
      { keyValues: [`ak_${'f'.repeat(32)}`], origin: 'http://localhost' },
      'domain-not-authorized',
      403,
    ],
    ['HTTP checked before the key', { scheme: 'http', keyValues: [] }, 'http-not-allowed', 403],
    [
      'key checked before domains',
      { keyValues: [`ak_${'d'.repeat(32)}`], origin: 'https://evil.tn' },
      'key-disabled',
      401,
    ],
  ] as const)('%s -> %s (%i)', (_, over, rule, status) => {
    const decision = decide(facts(over), lookup)
    expect(decision.rule).toBe(rule)
    expect(decision.status).toBe(status)
  })

  it('never puts a full key in its facts', () => {
    const decision = decide(facts({ origin: 'https://evil.tn' }), lookup)
    expect(decision.facts.key).toBe('ak_3f2a…')
    expect(JSON.stringify(decision)).not.toContain(KEY)
  })

  it('explains a domain rejection with the host and the linked domains', () => {
    const decision = decide(facts({ origin: 'http://127.0.0.1:5173' }), lookup)
    expect(explainDecision(decision.rule, decision.facts)).toBe(
      'Origin http://127.0.0.1:5173 -> host 127.0.0.1 is not linked to key ak_3f2a…; linked: [::1], localhost, mysite.tn.',
    )
  })
})
