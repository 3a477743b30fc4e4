import { describe, expect, it } from 'vitest'
import { KEY_PATTERN } from '../contract/key-format.ts'
import { createKeyGenerator } from './seeded.ts'

describe('createKeyGenerator', () => {
  it('makes the same keys for the same seed, and other keys for another seed', () => {
    const take = (seed: string | undefined, n: number) => {
      const generator = createKeyGenerator(seed)
      return Array.from({ length: n }, () => generator.next())
    }
    expect(take('demo', 5)).toEqual(take('demo', 5))
    expect(take('demo', 5)).not.toEqual(take('other', 5))
    expect(take(undefined, 5)).not.toEqual(take(undefined, 5))
  })

  it('goes on from a given index (a restored snapshot)', () => {
    const all = createKeyGenerator('demo')
    const first = [all.next(), all.next(), all.next()]
    expect(createKeyGenerator('demo', 2).next()).toEqual(first[2])
  })

  it('makes well-formed, distinct ids and values', () => {
    for (const seed of ['demo', 7, undefined]) {
      const generator = createKeyGenerator(seed)
      const keys = Array.from({ length: 20_000 }, () => generator.next())
      for (const key of keys.slice(0, 200)) {
        expect(key.value).toMatch(KEY_PATTERN)
        expect(key.id).toMatch(/^key_[0-9a-f]{12}$/)
      }
      expect(new Set(keys.map((k) => k.value)).size).toBe(keys.length)
      expect(new Set(keys.map((k) => k.id)).size).toBe(keys.length)
    }
  })
})
