import { describe, expect, it } from 'vitest'
import { boundedCache } from './bounded-cache.ts'

describe('boundedCache', () => {
  it('keeps at most its entries and its bytes, dropping the oldest first; never keeps a giant', () => {
    const cache = boundedCache<Uint8Array>(3, 1000, (v) => v.byteLength)
    cache.set('a', new Uint8Array(100))
    cache.set('b', new Uint8Array(100))
    cache.set('c', new Uint8Array(100))
    cache.set('d', new Uint8Array(100)) // four entries: a goes
    expect([cache.get('a'), cache.size, cache.bytes]).toEqual([undefined, 3, 300])
    cache.set('e', new Uint8Array(240))
    cache.set('f', new Uint8Array(240))
    cache.set('g', new Uint8Array(240))
    expect([cache.size, cache.bytes]).toEqual([3, 720])
    const bytes = boundedCache<Uint8Array>(10, 1000, (v) => v.byteLength)
    for (const key of ['p', 'q', 'r', 's', 't']) bytes.set(key, new Uint8Array(240)) // 1,200 bytes asked
    expect([bytes.get('p'), bytes.size, bytes.bytes]).toEqual([undefined, 4, 960]) // the oldest went
    cache.set('huge', new Uint8Array(251)) // over a quarter of the budget: not kept
    expect(cache.get('huge')).toBeUndefined()
    cache.set('g', new Uint8Array(10)) // replaced: its bytes counted once
    expect([cache.size, cache.bytes]).toEqual([3, 490])
  })
})
