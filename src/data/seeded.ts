import { must } from '../validate/must.ts'

/** FNV-1a, 32 bits: turns any seed string into a number for a seeded generator. */
export function hashSeed(seed: string | number): number {
  const text = String(seed)
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/**
 * A stream of 32-bit numbers (mulberry32) from a seed and a sub-stream name: two uses of the same
 * seed never share a sequence, and each is reproducible on its own. For ids and key values,
 * where faker (used for realistic data, in `faker.ts`) would be 128 kB on the browser's first chunk.
 * @example seededInts('demo', 'key-0')() // the same number for the same seed and stream, every time
 */
export function seededInts(seed: string | number, stream: string): () => number {
  let state = (hashSeed(seed) ^ Math.imul(hashSeed(stream), 0x9e3779b1)) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (t ^ (t >>> 14)) >>> 0
  }
}

/**
 * Floats, integers and picks from `seededInts`: what generators need of a random source, in a
 * few lines (faker is for realistic names and is not loaded where only numbers are drawn).
 * @example seededRandom('demo', 'streets').int(20, 120)
 */
export function seededRandom(seed: string | number, stream: string) {
  const next = seededInts(seed, stream)
  const unit = () => next() / 0x1_0000_0000
  return {
    /** A float in [min, max). */
    float: (min: number, max: number) => min + unit() * (max - min),
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(unit() * (max - min + 1)),
    /** `count` distinct items of `list`, in a random order. */
    pick<T>(list: readonly T[], count: number): T[] {
      const copy = [...list]
      for (let i = 0; i < Math.min(count, copy.length); i++) {
        const j = i + Math.floor(unit() * (copy.length - i))
        // Items i and j swap places, moved without being read (`T` may be any type, undefined too).
        copy.splice(i, 1, ...copy.splice(j, 1, ...copy.slice(i, i + 1)))
      }
      return copy.slice(0, Math.max(0, count))
    },
    /** One item of `[..., weight]` tuples, by weight (the last field). */
    weighted<T extends readonly [...unknown[], number]>(list: readonly T[]): T {
      let r = unit() * list.reduce((sum, item) => sum + (item.at(-1) as number), 0)
      for (const item of list) {
        r -= item.at(-1) as number
        if (r < 0) return item
      }
      return must(list.at(-1), 'weighted() was given no items') // rounding left a little over
    },
  }
}

export interface KeyMaterial {
  id: string
  value: string
}

/**
 * Makes key ids and values: from the platform's secure random source, or, with a seed, a
 * reproducible sequence (the n-th key of a seed is always the same).
 * @example createKeyGenerator('demo').next().value.startsWith('ak_') // true
 */
export function createKeyGenerator(seed: string | number | undefined, start = 0) {
  let index = start
  const randomHex = (length: number): string => {
    const bytes = new Uint8Array(length / 2)
    crypto.getRandomValues(bytes)
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  }
  return {
    /** How many keys this generator has made (kept in snapshots so a restored mock goes on). */
    get index() {
      return index
    },
    next(): KeyMaterial {
      const n = index++
      if (seed === undefined) return { id: `key_${randomHex(12)}`, value: `ak_${randomHex(32)}` }
      const next = seededInts(seed, `key-${n}`)
      const hex = (length: number) => {
        let text = ''
        while (text.length < length) text += next().toString(16).padStart(8, '0')
        return text.slice(0, length)
      }
      return { id: `key_${hex(12)}`, value: `ak_${hex(32)}` }
    },
  }
}
