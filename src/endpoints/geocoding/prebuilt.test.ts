import { describe, expect, it } from 'vitest'
import { DEFAULT_DATA_SEED } from '../../core/options.ts'
import { worldFor } from '../../data/world.ts'
import { byId, createGeocoder, type ForwardQuery, geocoderParts, packGeocoder } from './geocoder.ts'
import { makeGazetteerPlaces } from './places.ts'
import { fromPack, type GeocoderPack, PACKED_SEED, readPack } from './prebuilt.ts'
import { installIndex, termTree } from './search-index.ts'

/** The pack `npm run build` writes (scripts/build-geocoder-pack.ts), as a reader gets it: through JSON. */
const packOf = (seed: string) => JSON.parse(JSON.stringify(packGeocoder(worldFor(seed)))) as GeocoderPack

describe('the geocoder made at build time (the default seed’s pack)', () => {
  const world = worldFor(PACKED_SEED)
  const built = geocoderParts(world, undefined)
  const pack = packOf(PACKED_SEED)

  it('is the default seed’s', () => {
    expect(PACKED_SEED).toBe(DEFAULT_DATA_SEED)
  })

  it('reads back the index the geocoder builds, to the byte (terms in the same tree order)', () => {
    const read = geocoderParts(world, structuredClone(pack))
    expect('tree' in read.index).toBe(true)
    const a = installIndex(read.index)
    const b = installIndex(built.index)
    // The trees node by node, each node's edges in their order; then the documents of every term.
    expect(termTree(a).edges.length).toBeGreaterThan(5_000)
    expect(termTree(a)).toStrictEqual(termTree(b))
    expect({ ...a, tree: undefined }).toStrictEqual({ ...b, tree: undefined })
  })

  it('reads back every place, the streets’ courses found when first read', () => {
    const read = geocoderParts(world, structuredClone(pack))
    const places = read.places()
    expect(places).toHaveLength(built.places().length)
    expect(places.length).toBeGreaterThan(8_000)
    for (const [doc, place] of places.entries()) {
      const made = built.places()[doc]!
      expect({ ...place, street: undefined }).toStrictEqual({ ...made, street: undefined })
      // The street itself (its course, its house numbers): the world's, the same object.
      expect(place.street).toBe(made.street)
    }
    expect(read.entries()).toStrictEqual(built.entries())
  })

  it('reads back the gazetteer’s places and towns as they are made', () => {
    const { gazetteer } = fromPack(structuredClone(pack), PACKED_SEED)!
    const made = makeGazetteerPlaces()
    expect(gazetteer.places).toStrictEqual(made.places)
    expect([...gazetteer.towns.keys()]).toStrictEqual([...made.towns.keys()])
    expect([...gazetteer.towns.values()]).toStrictEqual([...made.towns.values()])
  })

  it('answers as the geocoder made without it, question for question', () => {
    const read = createGeocoder(world, structuredClone(pack))
    const made = createGeocoder(world, undefined)
    const questions: ForwardQuery[] = []
    const add = (q: string, extra: Partial<ForwardQuery> = {}) =>
      questions.push({ q, limit: 10, lang: (['fr', 'en', 'ar'] as const)[questions.length % 3]!, ...extra })
    for (const [i, place] of made.places.entries()) {
      if (i % 23 !== 0) continue
      add(place.name.fr)
      add(place.name.ar)
      add(place.name.fr.slice(0, -2))
      if (place.kind === 'street') add(`${(i % 90) + 1} ${place.name.fr}, ${place.commune!.fr}`)
      if (i % 3 === 0) add(place.name.fr, { proximity: { lat: place.lat, lng: place.lng }, type: place.type })
    }
    for (const q of [
      'Tunis',
      'Sfax',
      'Avenue Habib Bourguiba',
      'rue de la republique',
      'aeroport',
      'zzzz',
      '1001',
    ])
      add(q, { limit: 20 })
    expect(questions.length).toBeGreaterThan(1_500)
    for (const question of questions) expect(read.forward(question)).toStrictEqual(made.forward(question))
  }, 120_000)

  it('is not read for another seed, another format, or from the sources (where none is built)', () => {
    expect(fromPack(structuredClone(pack), 'demo')).toBeUndefined()
    expect(fromPack({ ...structuredClone(pack), format: 2 as never }, PACKED_SEED)).toBeUndefined()
    expect(readPack('demo')).toBeUndefined()
    // The tests run the sources: no pack beside them, the geocoder is made (the built one is
    // tested from dist/ in test/consumer/package.test.ts).
    expect(readPack(PACKED_SEED)).toBeUndefined()
    const demo = geocoderParts(worldFor('demo'), structuredClone(pack))
    expect('terms' in demo.index).toBe(true)
  })

  it('orders equal ranks by id as localeCompare does, for every id there is', () => {
    const places = built.places()
    const byLocale = [...places].sort((a, b) => a.id.localeCompare(b.id)).map((p) => p.id)
    expect([...places].sort(byId).map((p) => p.id)).toStrictEqual(byLocale)
  })
})
