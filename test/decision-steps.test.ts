import { describe, expect, it } from 'vitest'
import { type DecidedEntry, decisionFix, decisionSteps } from '../playground/decision-steps.ts'
import { createTmapsCore } from '../src/core/create-core.ts'
import { LOOPBACK_FACTS } from './support/fixtures.ts'

/** The facts of a page on 127.0.0.1 calling with the local-dev key (linked to localhost). */
const FACTS: DecidedEntry['facts'] = LOOPBACK_FACTS

const entry = (
  rule: DecidedEntry['rule'],
  status: number,
  facts: Partial<DecidedEntry['facts']> = {},
  reason = '',
): DecidedEntry => ({ rule, status, endpoint: 'geocoding/forward', reason, facts: { ...FACTS, ...facts } })

const HEAD = ['pass: Scheme https', 'pass: Key ak_14cb… found', 'pass: Status enabled']
const ORIGIN = 'pass: Origin (reconstructed) http://127.0.0.1:5173'
const NOT_REACHED = {
  key: 'not-reached: Key: not reached',
  status: 'not-reached: Status: not reached',
  header: 'not-reached: Origin/Referer: not reached',
  host: 'not-reached: Host match: not reached',
  endpoint: 'not-reached: Endpoint: not reached',
}
const AFTER_STATUS = [NOT_REACHED.header, NOT_REACHED.host, NOT_REACHED.endpoint]
const AFTER_KEY = [NOT_REACHED.status, ...AFTER_STATUS]

const shown = (e: DecidedEntry) => decisionSteps(e).map((s) => `${s.state}: ${s.text}`)

describe('decisionSteps', () => {
  it.each<[string, DecidedEntry, string[]]>([
    [
      'http-not-allowed',
      entry('http-not-allowed', 403, { scheme: 'http', keyId: null }),
      ['fail: Scheme http: only https is answered', NOT_REACHED.key, ...AFTER_KEY],
    ],
    [
      'key-missing',
      entry('key-missing', 401, { key: null, keyId: null }),
      [HEAD[0]!, 'fail: Key: no api_key in the query string', ...AFTER_KEY],
    ],
    [
      'key-repeated',
      entry('key-repeated', 401, { keyId: null }),
      [HEAD[0]!, 'fail: Key: api_key sent more than once', ...AFTER_KEY],
    ],
    [
      'key-malformed',
      entry('key-malformed', 401, { key: 'nope', keyId: null }),
      [HEAD[0]!, 'fail: Key nope malformed (ak_ + 32 lower-case hex)', ...AFTER_KEY],
    ],
    [
      'key-unknown',
      entry('key-unknown', 401, { keyId: null }),
      [HEAD[0]!, 'fail: Key ak_14cb… not found', ...AFTER_KEY],
    ],
    [
      'key-disabled',
      entry('key-disabled', 401),
      [HEAD[0]!, HEAD[1]!, 'fail: Status disabled', ...AFTER_STATUS],
    ],
    ['key-revoked', entry('key-revoked', 401), [HEAD[0]!, HEAD[1]!, 'fail: Status revoked', ...AFTER_STATUS]],
    [
      'domain-not-authorized',
      entry('domain-not-authorized', 403),
      [...HEAD, ORIGIN, 'fail: Host 127.0.0.1 is not linked (linked: localhost)', NOT_REACHED.endpoint],
    ],
    [
      'domain-not-authorized, Origin: null',
      entry('domain-not-authorized', 403, { header: 'null', host: null, simulated: true, linked: [] }),
      [
        ...HEAD,
        'pass: Origin (simulated) null',
        'fail: Host: none can be read from the header (linked: none)',
        NOT_REACHED.endpoint,
      ],
    ],
    [
      'ok, by Referer',
      entry('ok', 200, { via: 'referer', header: 'http://localhost:5173/', host: 'localhost' }),
      [
        ...HEAD,
        'pass: Referer (reconstructed) http://localhost:5173/',
        'pass: Host localhost is linked (linked: localhost)',
        'pass: Endpoint geocoding/forward answered 200',
      ],
    ],
    [
      'no-browser-headers',
      entry('no-browser-headers', 200, { via: 'none', header: null, host: null, linked: null }),
      [
        ...HEAD,
        'skipped: No Origin or Referer: domain list not checked',
        'skipped: Host match: not checked',
        'pass: Endpoint geocoding/forward answered 200',
      ],
    ],
    [
      'missing-param',
      entry('missing-param', 400, { host: 'localhost' }, 'Authorized, but missing required param: q.'),
      [
        ...HEAD,
        ORIGIN,
        'pass: Host localhost is linked (linked: localhost)',
        'fail: Endpoint geocoding/forward answered 400: missing required param: q',
      ],
    ],
    [
      'not-found',
      entry(
        'not-found',
        404,
        { via: 'none', header: null, host: null, linked: null },
        'Authorized, but no TMaps endpoint answers this method and path.',
      ),
      [
        ...HEAD,
        'skipped: No Origin or Referer: domain list not checked',
        'skipped: Host match: not checked',
        'fail: Endpoint geocoding/forward answered 404: not found',
      ],
    ],
    [
      'fault-injected',
      entry('fault-injected', 429),
      [
        'fail: Injected fault answered 429, before the auth check',
        'not-reached: Scheme: not reached',
        NOT_REACHED.key,
        ...AFTER_KEY,
      ],
    ],
  ])('draws %s as its steps', (_, e, expected) => {
    expect(shown(e)).toEqual(expected)
  })

  it('draws a real refusal from the mock’s own log', async () => {
    const core = createTmapsCore()
    await core.ready
    const key = core.snapshot().keys.find((k) => k.name === 'Web app (local dev)')!
    const response = await core.fetch(
      new Request(`${core.options.baseUrl}/geocoding/forward?q=Tunis&api_key=${key.value}`, {
        headers: { Origin: 'http://127.0.0.1:5173' },
      }),
    )
    expect(response.status).toBe(403)
    const logged = core.log.entries()[0]!
    expect(shown(logged)).toEqual([
      'pass: Scheme https',
      `pass: Key ${key.value.slice(0, 7)}… found`,
      'pass: Status enabled',
      'pass: Origin http://127.0.0.1:5173',
      'fail: Host 127.0.0.1 is not linked (linked: localhost)',
      NOT_REACHED.endpoint,
    ])
    expect(decisionFix(logged)).toEqual({ kind: 'link-domain', keyId: key.id, host: '127.0.0.1' })
  })
})

describe('decisionFix', () => {
  it.each<[DecidedEntry['rule'], Partial<DecidedEntry['facts']>, ReturnType<typeof decisionFix>]>([
    ['domain-not-authorized', {}, { kind: 'link-domain', keyId: 'key_1', host: '127.0.0.1' }],
    ['domain-not-authorized', { host: null }, null],
    ['key-disabled', {}, { kind: 'enable-key', keyId: 'key_1' }],
    ['key-revoked', {}, { kind: 'create-server-key' }],
    ['key-unknown', { keyId: null }, { kind: 'create-server-key' }],
    ['key-missing', { keyId: null }, { kind: 'create-server-key' }],
    ['key-malformed', { keyId: null }, { kind: 'create-server-key' }],
    ['http-not-allowed', {}, { kind: 'use-https' }],
    ['key-repeated', {}, null],
    ['ok', {}, null],
    ['missing-param', {}, null],
  ])('offers for %s %j: %j', (rule, facts, expected) => {
    expect(decisionFix(entry(rule, 0, facts))).toEqual(expected)
  })
})
