import { describe, expect, it } from 'vitest'
import { must } from './must.ts'

describe('must', () => {
  it('gives the value back, falsy ones too', () => {
    const item = { id: 'a' }
    expect(must(item, 'an item')).toBe(item)
    expect(must(0, 'a count')).toBe(0)
    expect(must('', 'a text')).toBe('')
    expect(must(false, 'a flag')).toBe(false)
  })

  it('throws an Error naming the broken invariant, as a bug of tmaps-mock, for undefined and null', () => {
    expect(() => must(undefined, 'no governorate TN-99 in the gazetteer')).toThrow(
      'tmaps-mock: no governorate TN-99 in the gazetteer (this is a bug in tmaps-mock, please report it)',
    )
    expect(() => must(null, 'the page has no #app element')).toThrow(Error)
  })
})
