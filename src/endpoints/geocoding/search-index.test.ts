import MiniSearch, { type Options } from 'minisearch'
import { describe, expect, it } from 'vitest'
import { worldFor } from '../../data/world.ts'
import { tokenize } from '../../text/fold.ts'
import { forEachWithPrefix, type SearchOptions, search, type TermIndex } from '../../vendor/minisearch.ts'
import { geocoderParts, indexedText, SEARCH_OPTIONS } from './geocoder.ts'
import { installIndex, layOut } from './search-index.ts'

const keepTerm = (term: string) => term

/** MiniSearch's search options for ours: OR, and the terms as tokenized (no lowercasing of its own). */
const miniSearchOptions = (options: SearchOptions) => ({
  ...options,
  combineWith: 'OR' as const,
  processTerm: keepTerm,
})

/** The options of a MiniSearch index of the same documents, searched the same way. */
const indexOptions: Options = {
  fields: ['name', 'alt', 'context'],
  tokenize,
  processTerm: keepTerm,
  searchOptions: miniSearchOptions(SEARCH_OPTIONS),
}

/** An index as MiniSearch's `toJSON` writes one: its terms in the order its radix tree lists them. */
function asMiniSearchJSON(index: TermIndex, ids: readonly string[]) {
  const fieldCount = index.fields.length
  const terms: Array<[string, Record<number, Record<number, number>>]> = []
  forEachWithPrefix(index.tree, '', (term, id) => {
    const data: Record<number, Record<number, number>> = {}
    for (let field = 0; field < fieldCount; field++) {
      const at = id * fieldCount + field
      if (index.sizes[at] === 0) continue
      const counts: Record<number, number> = {}
      for (let k = index.offsets[at]!; k < index.offsets[at]! + index.sizes[at]!; k++)
        counts[index.docs[k]!] = index.counts[k]!
      data[field] = counts
    }
    terms.push([term, data])
  })
  return {
    documentCount: ids.length,
    nextId: ids.length,
    documentIds: Object.fromEntries(ids.map((id, doc) => [doc, id])),
    fieldIds: Object.fromEntries(index.fields.map((field, i) => [field, i])),
    fieldLength: Object.fromEntries(
      ids.map((_, doc) => [
        doc,
        Array.from(index.lengths.subarray(doc * fieldCount, (doc + 1) * fieldCount)),
      ]),
    ),
    averageFieldLength: index.average,
    storedFields: {},
    dirtCount: 0,
    index: terms,
    serializationVersion: 2,
  }
}

/** Questions: fixed ones, and some documents' names whole, cut short, misspelt, and with their town. */
function questions(documents: ReadonlyArray<{ name: string; context: string }>): string[] {
  const asked = [
    'tunis',
    'avenue habib burgiba',
    'sfax',
    'rue',
    'sidi bu',
    'جربة',
    'la marsa plage',
    'zzzz',
    '',
  ]
  documents.forEach(({ name, context }, i) => {
    if (i % 229 !== 0) return
    const words = name.split(' ').slice(0, 3)
    const first = words[0]!
    asked.push(words.join(' '), words.join(' ').slice(0, -2), `${first[1] ?? ''}${first[0]}${first.slice(2)}`)
    asked.push(`${first} ${context.split(' ')[0] ?? ''}`)
  })
  return asked
}

describe('the geocoder’s search index', () => {
  // Answers depend on the index's every detail: the order its radix tree lists terms in decides
  // the order of equal-scored results and of a result's matched words, the running averages of
  // field lengths decide scores to the last bit. MiniSearch's toJSON lists all of it in the tree's
  // order; its search answers must be ours, in the same order, scores to the bit (their JSON).
  it.each(['tmaps', 'demo'])(
    'for seed %s, is the index MiniSearch’s addAll builds, and answers as MiniSearch does',
    (seed) => {
      const places = geocoderParts(worldFor(seed), undefined).places()
      const documents = places.map(indexedText)
      const ids = places.map((p) => p.id)
      const built = new MiniSearch(indexOptions)
      built.addAll(documents.map((d, doc) => ({ id: ids[doc], ...d })))
      const index = installIndex(layOut(documents, tokenize))
      expect(JSON.stringify(asMiniSearchJSON(index, ids)) === JSON.stringify(built)).toBe(true)
      const exact: SearchOptions = { ...SEARCH_OPTIONS, fuzzy: false, prefix: false }
      const asked = questions(documents)
      expect(asked.length).toBeGreaterThan(150)
      for (const options of [SEARCH_OPTIONS, exact])
        for (const q of asked) {
          const ours = search(index, q, options).map((r) => ({
            id: ids[r.doc],
            score: r.score,
            terms: Object.keys(r.match),
            queryTerms: r.queryTerms,
            match: r.match,
          }))
          expect(JSON.stringify(ours), q).toBe(JSON.stringify(built.search(q, miniSearchOptions(options))))
        }
    },
    120_000,
  )
})
