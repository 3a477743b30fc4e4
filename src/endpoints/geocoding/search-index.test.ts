import { readFileSync } from 'node:fs'
import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { worldFor } from '../../data/world.ts'
import { geocoderParts, indexedText, indexOptions } from './geocoder.ts'
import { buildIndex, Postings } from './search-index.ts'

const documents = (seed: string | number) =>
  geocoderParts(worldFor(seed), undefined).places().map(indexedText)

describe('the geocoder’s search index', () => {
  // Answers depend on the index's every detail: the order its radix tree lists terms in decides
  // the order of equal-scored results and of a result's matched words, the running averages of
  // field lengths decide scores to the last bit. toJSON lists all of it in the tree's order.
  it.each(['tmaps', 'demo', 42])(
    'for seed %s, is in the state MiniSearch’s addAll leaves, to the byte',
    (seed) => {
      const docs = documents(seed)
      const built = new MiniSearch(indexOptions())
      built.addAll(docs)
      const compact = buildIndex(docs, indexOptions())
      expect(JSON.stringify(compact) === JSON.stringify(built)).toBe(true)
      for (const q of ['tunis', 'avenue habib burgiba', 'sfax', 'rue', 'sidi bu', 'جربة'])
        expect(compact.search(q)).toStrictEqual(built.search(q))
    },
    120_000,
  )

  it('answers what a Map of documents to counts answers', () => {
    const postings = new Postings(Uint32Array.of(2, 5, 9, 40), Uint16Array.of(1, 3, 1, 2))
    const map = new Map([
      [2, 1],
      [5, 3],
      [9, 1],
      [40, 2],
    ])
    expect(postings.size).toBe(map.size)
    expect([...postings.keys()]).toEqual([...map.keys()])
    expect([...postings]).toEqual([...map])
    for (const doc of [0, 2, 3, 5, 9, 10, 40, 41]) {
      expect(postings.get(doc)).toBe(map.get(doc))
      expect(postings.has(doc)).toBe(map.has(doc))
    }
  })

  // search-index.ts writes and reads MiniSearch's private fields (issue #36): pinned to the one
  // version it was written against (no range in package.json), and the fields checked here, so an
  // upgrade fails this test first, not a geocode.
  it('reads MiniSearch’s private fields only as the pinned version has them', () => {
    const pinned = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))
      .dependencies.minisearch
    const installed = JSON.parse(
      readFileSync(new URL('../../../node_modules/minisearch/package.json', import.meta.url), 'utf8'),
    ).version
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/)
    expect(installed).toBe(pinned)
    const index = new MiniSearch({ fields: ['text'] })
    index.addAll([{ id: 'a', text: 'sfax' }])
    const state = index as unknown as Record<string, unknown> & { _index: Record<string, unknown> }
    expect(state._idToShortId).toBeInstanceOf(Map)
    expect(state._index._tree).toBeInstanceOf(Map)
    expect('_size' in state._index).toBe(true)
    for (const field of ['_documentCount', '_nextId', '_documentIds', '_fieldLength', '_avgFieldLength'])
      expect(field in state, field).toBe(true)
  })
})
