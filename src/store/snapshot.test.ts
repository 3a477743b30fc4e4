import { describe, expect, it } from 'vitest'
import { parseSnapshot } from './snapshot.ts'

// The messages zod's English locale and prettifyError gave (before the snapshot was validated without zod),
// recorded from it and compared with it over 90,000 random snapshots: the same, word for word.
const KEY = {
  id: 'key_1',
  name: 'a',
  value: `ak_${'a'.repeat(32)}`,
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
}
const OK = {
  format: 'tmaps-mock/snapshot',
  version: 1,
  keys: [{ ...KEY, extra: 1 }],
  domains: [{ hostname: 'localhost', createdAt: '2026-01-03T00:00:00.000Z' }],
  links: [{ keyId: 'key_1', hostname: 'localhost', createdAt: '2026-01-04T00:00:00Z' }],
}
const problems = (value: unknown) => {
  try {
    parseSnapshot(value)
  } catch (error) {
    return (error as Error).message.split('\n').slice(1).join('\n')
  }
  throw new Error('the snapshot was accepted')
}

describe('parseSnapshot', () => {
  it('reads a snapshot in its own field order, unknown fields dropped, `active` read as enabled, defaults filled in', () => {
    expect(JSON.stringify(parseSnapshot(JSON.stringify(OK)))).toBe(
      '{"format":"tmaps-mock/snapshot","version":1,"keys":[{"id":"key_1","name":"a","value":"ak_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"enabled","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-02T00:00:00.000Z"}],"domains":[{"hostname":"localhost","createdAt":"2026-01-03T00:00:00.000Z"}],"links":[{"keyId":"key_1","hostname":"localhost","createdAt":"2026-01-04T00:00:00Z"}],"usage":{},"keyIndex":0}',
    )
  })

  it.each([
    ['not an object', null, '✖ Invalid input: expected object, received null'],
    ['a list', [], '✖ Invalid input: expected object, received array'],
    [
      'another format and version',
      { ...OK, format: 'x', version: 2 },
      '✖ Invalid input: expected "tmaps-mock/snapshot"\n  → at format\n✖ Invalid input: expected 1\n  → at version',
    ],
    [
      'fields of the wrong type',
      { ...OK, keys: [{ id: 1, name: null, value: 'nope', status: 'weird', createdAt: 3 }] },
      '✖ Invalid input: expected string, received number\n  → at keys[0].id\n✖ Invalid input: expected string, received null\n  → at keys[0].name\n✖ not a TMaps key (ak_ + 32 lower-case hex)\n  → at keys[0].value\n✖ Invalid option: expected one of "enabled"|"disabled"|"revoked"\n  → at keys[0].status\n✖ Invalid input: expected string, received number\n  → at keys[0].createdAt\n✖ Invalid input: expected string, received undefined\n  → at keys[0].updatedAt',
    ],
    [
      'a hostname not normalized, and a domain of the wrong type',
      { ...OK, domains: [{ hostname: 'HTTP://X', createdAt: OK.domains[0]!.createdAt }, { hostname: 7 }] },
      '✖ not a normalized hostname (lower case, punycode, no scheme, port or path)\n  → at domains[0]\n✖ Invalid input: expected string, received number\n  → at domains[1].hostname\n✖ Invalid input: expected string, received undefined\n  → at domains[1].createdAt',
    ],
    [
      'usage and keyIndex out of range (shortest path first)',
      {
        ...OK,
        usage: { key_1: [{ date: '2026-1-1', total: -1, byStatus: { 200: 1.5 }, byEndpoint: [] }] },
        keyIndex: -2,
      },
      '✖ Too small: expected number to be >=0\n  → at keyIndex\n✖ Invalid string: must match pattern /^\\d{4}-\\d{2}-\\d{2}$/\n  → at usage.key_1[0].date\n✖ Too small: expected number to be >=0\n  → at usage.key_1[0].total\n✖ Invalid input: expected record, received array\n  → at usage.key_1[0].byEndpoint\n✖ Invalid input: expected int, received number\n  → at usage.key_1[0].byStatus.200',
    ],
    [
      'duplicates and links to nothing',
      {
        ...OK,
        keys: [KEY, KEY],
        domains: [OK.domains[0], OK.domains[0]],
        links: [OK.links[0], OK.links[0], { keyId: 'k2', hostname: 'h2', createdAt: OK.links[0]!.createdAt }],
      },
      '✖ duplicate domain\n  → at domains[1]\n✖ duplicate link\n  → at links[1]\n✖ duplicate key id\n  → at keys[1].id\n✖ duplicate key value\n  → at keys[1].value\n✖ links a key that is not in keys\n  → at links[2].keyId\n✖ links a domain that is not in domains\n  → at links[2].hostname',
    ],
    [
      'a Date where a string goes, a Map where counts go',
      { ...OK, keys: [{ ...KEY, createdAt: new Date(0) }], usage: { key_1: new Map() } },
      '✖ Invalid input: expected array, received Map\n  → at usage.key_1\n✖ Invalid input: expected string, received Date\n  → at keys[0].createdAt',
    ],
    [
      'dates that are not ISO 8601 date-times, and key names POST /keys refuses (issue #45)',
      {
        ...OK,
        keys: [
          { ...KEY, name: 'n'.repeat(100_000), createdAt: 'not a date', updatedAt: '2026-02-30T00:00:00Z' },
          { ...KEY, id: 'key_2', value: `ak_${'b'.repeat(32)}`, name: '  ' },
        ],
        domains: [{ hostname: 'localhost', createdAt: '2026-01-01' }],
        links: [{ ...OK.links[0], createdAt: 1 }],
      },
      '✖ is 100000 characters long; a key name has at most 100 (as POST /keys takes them)\n  → at keys[0].name\n✖ not an ISO 8601 date-time, e.g. 2026-01-01T00:00:00.000Z (as the console writes them)\n  → at keys[0].createdAt\n✖ not an ISO 8601 date-time, e.g. 2026-01-01T00:00:00.000Z (as the console writes them)\n  → at keys[0].updatedAt\n✖ is empty; a key needs a name (as POST /keys takes them)\n  → at keys[1].name\n✖ not an ISO 8601 date-time, e.g. 2026-01-01T00:00:00.000Z (as the console writes them)\n  → at domains[0].createdAt\n✖ Invalid input: expected string, received number\n  → at links[0].createdAt',
    ],
  ])('names each problem of %s by its path', (_, value, expected) => {
    expect(problems(value)).toBe(expected)
  })

  it('checks across records only once every field has the right type', () => {
    expect(problems({ ...OK, keys: [KEY, KEY], links: [{ ...OK.links[0], keyId: 5 }] })).toBe(
      '✖ Invalid input: expected string, received number\n  → at links[0].keyId',
    )
  })
})
