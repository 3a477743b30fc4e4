import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiKeyValues } from './pipeline.ts'

describe('apiKeyValues', () => {
  it('reads api_key values exactly as URLSearchParams does, for any query string', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'api_key',
        'api%5Fkey',
        'api+key',
        'q',
        '',
        '=',
        '%',
        '%zz',
        '+',
        '&',
        'ak_12',
        '%20',
        'x=y',
      ),
      fc.string({ maxLength: 6 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const search = `?${pieces.join('')}`
        expect(apiKeyValues(search)).toEqual(new URLSearchParams(search).getAll('api_key'))
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['', []],
    ['?', []],
    ['?api_key=ak_1&q=x', ['ak_1']],
    ['?api_key=a&api_key=b', ['a', 'b']],
    ['?api_key', ['']],
    ['?api%5Fkey=a%2Bb+c', ['a+b c']],
  ])('reads %j as %j', (search, values) => {
    expect(apiKeyValues(search)).toEqual(values)
  })
})
