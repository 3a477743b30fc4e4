import type { Faker } from '@faker-js/faker'
// The base locale's entry only: the package's main entry loads every locale (about 40 MB of memory).
import { faker as baseFaker } from '@faker-js/faker/locale/base'

const FakerClass = baseFaker.constructor as new (options: { locale: unknown }) => Faker

/** FNV-1a, 32 bits: turns any seed string into a number for faker's generator. */
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
 * A faker instance seeded from a string and a sub-stream name, so two uses of the same seed
 * (keys, streets, POIs) never share a sequence and each is reproducible on its own.
 * @example seededFaker('demo', 'streets').number.int(10)
 */
export function seededFaker(seed: string | number, stream: string): Faker {
  const faker = new FakerClass({ locale: baseFaker.rawDefinitions })
  faker.seed([hashSeed(seed), hashSeed(stream)])
  return faker
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
      const faker = seededFaker(seed, `key-${n}`)
      return {
        id: `key_${faker.string.hexadecimal({ length: 12, casing: 'lower', prefix: '' })}`,
        value: `ak_${faker.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' })}`,
      }
    },
  }
}
