import type { Locality } from './gazetteer.ts'
import type { Poi } from './poi.ts'
import { generateStreets, type Street } from './streets.ts'

/** A part an endpoint derives from a world (the geocoder, the map): made once, kept with it. */
export interface Derived<T> {
  readonly name: string
  make(world: World): T
}

/**
 * Everything one data seed generates, built once and shared by every endpoint: its streets,
 * its towns' places (made town by town on first use), and what the endpoints derive from them
 * (the geocoder and its address book, the map's world), kept with it and dropped with it. It is
 * immutable data, not state: mocks with the same seed share it and leak nothing to each other.
 */
export interface World {
  readonly seed: string | number
  /** Every generated street, town by town. */
  readonly streets: readonly Street[]
  /** The streets of one town. */
  streetsOf(localityId: string): readonly Street[]
  /** A street by its course's key (`<locality id>:<index>`, as the routing graph knows it). */
  streetByKey(key: string): Street | undefined
  /**
   * The generated places of one town, standing on the streets around it where they are near one (made by
   * `make`, `townPois`, the first time: the map's worker never loads the places' module).
   */
  placesOf(town: Locality, make: (seed: string | number) => Poi[]): readonly Poi[]
  /** A part derived from this world, made on first use. */
  derived<T>(part: Derived<T>): T
}

const worlds = new Map<string, World>()
/** Worlds kept at once (a test suite with many seeds stays bounded; the oldest goes first). */
export const KEPT_WORLDS = 8

/**
 * The world of a data seed, kept (at most 8 seeds): each part is made when first asked for
 * (the streets, a town's places, the geocoder, the map).
 * @example worldFor('demo').streetsOf('gn:2464470').length
 */
export function worldFor(seed: string | number): World {
  const key = String(seed)
  let world = worlds.get(key)
  if (world) {
    // Most recently used last: the oldest is dropped first.
    worlds.delete(key)
    worlds.set(key, world)
    return world
  }
  world = buildWorld(seed)
  const oldest = worlds.size >= KEPT_WORLDS ? worlds.keys().next().value : undefined
  if (oldest !== undefined) worlds.delete(oldest)
  worlds.set(key, world)
  return world
}

function buildWorld(seed: string | number): World {
  // Streets are made on first use: a map of the country, or a route, never needs them.
  let made: { streets: Street[]; byTown: Map<string, Street[]>; byKey: Map<string, Street> } | undefined
  const allStreets = () => {
    if (!made) {
      const streets = generateStreets(seed)
      const byTown = new Map<string, Street[]>()
      for (const street of streets) {
        const list = byTown.get(street.locality.id)
        if (list) list.push(street)
        else byTown.set(street.locality.id, [street])
      }
      made = { streets, byTown, byKey: new Map(streets.map((s) => [s.key, s])) }
    }
    return made
  }
  const places = new Map<string, readonly Poi[]>()
  const parts = new Map<Derived<unknown>, unknown>()
  const world: World = {
    seed,
    get streets() {
      return allStreets().streets
    },
    streetsOf: (id) => allStreets().byTown.get(id) ?? [],
    streetByKey: (key) => allStreets().byKey.get(key),
    placesOf(town, make) {
      let list = places.get(town.id)
      if (!list) {
        list = make(seed)
        places.set(town.id, list)
      }
      return list
    },
    derived<T>(part: Derived<T>): T {
      if (!parts.has(part)) parts.set(part, part.make(world))
      return parts.get(part) as T
    },
  }
  return world
}
