import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { answerCacheKey, apiKeyValues } from './pipeline.ts'

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

describe('answerCacheKey', () => {
  it('is the path and the query without api_key, whatever the query', () => {
    const general = (search: string) =>
      `/p?${search
        .slice(1)
        .split('&')
        .filter((part) => !part.startsWith('api_key='))
        .join('&')}`
    const piece = fc.constantFrom('api_key=', 'ak_1', '&', '?', 'q=1', 'x', 'xapi_key=', '=', '')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const search = pieces.length === 0 ? '' : `?${pieces.join('')}`
        expect(answerCacheKey('/p', search)).toBe(general(search))
      }),
      { numRuns: 3000 },
    )
  })
})
