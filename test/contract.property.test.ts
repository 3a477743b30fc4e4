import fc from 'fast-check'
import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'

/**
 * The reference model: the contract as the issue states it, written independently of the
 * engine. Hosts are known by construction (the generator picks a canonical host and then
 * decorates it), so the model never parses a header.
 */
type Status = 'enabled' | 'disabled' | 'revoked'
interface ModelKey {
  status: Status
  domains: number[]
}
type KeyChoice =
  | { kind: 'none' }
  | { kind: 'empty' }
  | { kind: 'existing'; index: number; repeated: boolean }
  | { kind: 'unknown' }
  | { kind: 'malformed'; value: string }
type HeaderChoice =
  | { kind: 'absent' }
  | {
      kind: 'host'
      domain: number
      scheme: 'http' | 'https'
      port: number | null
      upper: boolean
      dot: boolean
      path: string
    }
  | { kind: 'junk'; value: string }

/** Canonical hosts, and how a person would type each into the console. */
const DOMAINS: Array<{ canonical: string; typed: string; inUrl: string }> = [
  { canonical: 'localhost', typed: 'localhost', inUrl: 'localhost' },
  { canonical: '127.0.0.1', typed: '127.0.0.1', inUrl: '127.0.0.1' },
  { canonical: 'mysite.tn', typed: 'MySite.tn', inUrl: 'mysite.tn' },
  { canonical: 'app.mysite.tn', typed: 'app.mysite.tn.', inUrl: 'app.mysite.tn' },
  { canonical: 'xn--mller-kva.tn', typed: 'müller.tn', inUrl: 'xn--mller-kva.tn' },
  { canonical: '[::1]', typed: '::1', inUrl: '[::1]' },
  { canonical: 'evil.tn', typed: 'evil.tn', inUrl: 'evil.tn' },
]

function model(
  keys: ModelKey[],
  scheme: string,
  key: KeyChoice,
  origin: HeaderChoice,
  referer: HeaderChoice,
): 200 | 401 | 403 {
  if (scheme !== 'https') return 403
  if (key.kind !== 'existing' || key.repeated) return 401
  const k = keys[key.index]!
  if (k.status !== 'enabled') return 401
  const header = origin.kind !== 'absent' ? origin : referer
  if (header.kind === 'absent') return 200
  if (header.kind === 'junk') return 403
  return k.domains.includes(header.domain) ? 200 : 403
}

const statusArb = fc.constantFrom<Status>('enabled', 'disabled', 'revoked')
const keysArb = fc.array(
  fc.record({ status: statusArb, domains: fc.uniqueArray(fc.nat(DOMAINS.length - 1), { maxLength: 4 }) }),
  {
    minLength: 1,
    maxLength: 4,
  },
)
const keyChoiceArb = (count: number): fc.Arbitrary<KeyChoice> =>
  fc.oneof(
    fc.constant<KeyChoice>({ kind: 'none' }),
    fc.constant<KeyChoice>({ kind: 'empty' }),
    fc.record({ kind: fc.constant('existing' as const), index: fc.nat(count - 1), repeated: fc.boolean() }),
    fc.record({
      kind: fc.constant('existing' as const),
      index: fc.nat(count - 1),
      repeated: fc.constant(false),
    }),
    fc.constant<KeyChoice>({ kind: 'unknown' }),
    fc.record({
      kind: fc.constant('malformed' as const),
      value: fc
        .oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^ak_[0-9A-Fa-f]{30,34}$/))
        .filter((v) => !/^ak_[0-9a-f]{32}$/.test(v)),
    }),
  )
const headerArb: fc.Arbitrary<HeaderChoice> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<HeaderChoice>({ kind: 'absent' }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('host' as const),
      domain: fc.nat(DOMAINS.length - 1),
      scheme: fc.constantFrom('http' as const, 'https' as const),
      port: fc.option(fc.integer({ min: 1, max: 65535 })),
      upper: fc.boolean(),
      dot: fc.boolean(),
      path: fc.constantFrom('', '/', '/page?x=1', '/a/b#frag'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('junk' as const),
      value: fc.constantFrom('null', '', 'localhost', 'file:///x', '//localhost', 'http://', 'not a url'),
    }),
  },
)

function headerValue(choice: HeaderChoice, asOrigin: boolean): string | undefined {
  if (choice.kind === 'absent') return undefined
  if (choice.kind === 'junk') return choice.value
  const d = DOMAINS[choice.domain]!
  // IPv6 and IPv4 literals cannot take a trailing dot.
  const dot = choice.dot && !d.inUrl.startsWith('[') && !/^\d/.test(d.inUrl) ? '.' : ''
  const host = `${choice.upper ? d.inUrl.toUpperCase() : d.inUrl}${dot}${choice.port === null ? '' : `:${choice.port}`}`
  return `${choice.scheme}://${host}${asOrigin ? '' : choice.path}`
}

describe('the engine agrees with the reference model', () => {
  it('on random consoles and requests: never 200 when refused, never refused when accepted', async () => {
    await fc.assert(
      fc.asyncProperty(
        keysArb.chain((keys) =>
          fc.record({
            keys: fc.constant(keys),
            scheme: fc.constantFrom('https', 'https', 'https', 'http'),
            key: keyChoiceArb(keys.length),
            origin: headerArb,
            referer: headerArb,
            runtime: fc.constantFrom('fetch', 'getResponse'),
          }),
        ),
        async ({ keys, scheme, key, origin, referer, runtime }) => {
          const mock = createTmapsMock({ state: 'empty', seed: 'property' })
          await mock.ready
          const values: string[] = []
          for (const [i, k] of keys.entries()) {
            const created = await mock.console.createKey({
              name: `k${i}`,
              domains: k.domains.map((d) => DOMAINS[d]!.typed),
            })
            if (k.status !== 'enabled') await mock.console.disableKey(created.id)
            if (k.status === 'revoked') await mock.console.revokeKey(created.id)
            values.push(created.value)
          }
          const params = new URLSearchParams({ q: 'Tunis', limit: '1' })
          if (key.kind === 'empty') params.append('api_key', '')
          if (key.kind === 'existing') {
            params.append('api_key', values[key.index]!)
            if (key.repeated) params.append('api_key', values[key.index]!)
          }
          if (key.kind === 'unknown') params.append('api_key', `ak_${'0'.repeat(31)}1`)
          if (key.kind === 'malformed') params.append('api_key', key.value)
          const headers = new Headers()
          const o = headerValue(origin, true)
          const r = headerValue(referer, false)
          if (o !== undefined) headers.set('Origin', o)
          if (r !== undefined) headers.set('Referer', r)
          const request = new Request(`${scheme}://api.tmaps.tn/geocoding/forward?${params}`, { headers })
          const response =
            runtime === 'fetch' ? await mock.fetch(request) : await getResponse(mock.handlers, request)
          const expected = model(keys, scheme, key, origin, referer)
          expect(response?.status).toBe(expected)
        },
      ),
      { numRuns: 300 },
    )
  })
})
