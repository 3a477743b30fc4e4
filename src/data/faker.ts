import type { Faker } from '@faker-js/faker'
// The base locale's entry only: the package's main entry loads every locale (about 40 MB of memory).
import { faker as baseFaker } from '@faker-js/faker/locale/base'
import { hashSeed } from './seeded.ts'

const FakerClass = baseFaker.constructor as new (options: { locale: unknown }) => Faker

/**
 * A faker instance seeded from a string and a sub-stream name, so two uses of the same seed
 * (streets, POIs) never share a sequence and each is reproducible on its own.
 * @example seededFaker('demo', 'streets').number.int(10)
 */
export function seededFaker(seed: string | number, stream: string): Faker {
  const faker = new FakerClass({ locale: baseFaker.rawDefinitions })
  faker.seed([hashSeed(seed), hashSeed(stream)])
  return faker
}
