import MiniSearch, { type Options } from 'minisearch'

/** What the search index holds of a place: its spellings, other spellings and context words. */
export interface IndexedText {
  id: string
  name: string
  alt: string
  context: string
}

/** The indexed fields, in MiniSearch's order (a field's id is its index here). */
const FIELDS = ['name', 'alt', 'context'] as const

/**
 * One term's documents in one field, ascending, and how often the term is in each: what
 * MiniSearch's search reads of its `Map<document, count>` (`size`, `keys()`, `get()`), as a range
 * of two typed arrays that every term shares (issue #22: they were ~74,000 entries in ~4,400 Maps).
 */
export class Postings {
  readonly docs: Uint32Array
  readonly counts: Uint16Array
  readonly start: number
  readonly end: number
  constructor(docs: Uint32Array, counts: Uint16Array, start = 0, end = docs.length) {
    this.docs = docs
    this.counts = counts
    this.start = start
    this.end = end
  }
  get size(): number {
    return this.end - this.start
  }
  keys(): IterableIterator<number> {
    return this.docs.subarray(this.start, this.end).values()
  }
  get(doc: number): number | undefined {
    let lo = this.start
    let hi = this.end - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const at = this.docs[mid]!
      if (at === doc) return this.counts[mid]
      if (at < doc) lo = mid + 1
      else hi = mid - 1
    }
    return undefined
  }
  has(doc: number): boolean {
    return this.get(doc) !== undefined
  }
  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let i = this.start; i < this.end; i++) yield [this.docs[i]!, this.counts[i]!]
  }
}

/** Each document's number of distinct words per field (MiniSearch's `Map<document, number[]>`), in one array. */
class FieldLengths {
  readonly lengths: Uint16Array
  /** What `get` answers: MiniSearch reads one field of it at once (`get(doc)[field]`). */
  readonly #row: number[] = []
  constructor(lengths: Uint16Array) {
    this.lengths = lengths
  }
  get size(): number {
    return this.lengths.length / FIELDS.length
  }
  get(doc: number): number[] | undefined {
    if (!(doc >= 0 && doc < this.size)) return undefined
    for (let f = 0; f < FIELDS.length; f++) this.#row[f] = this.lengths[doc * FIELDS.length + f]!
    return this.#row
  }
  *[Symbol.iterator](): IterableIterator<[number, number[]]> {
    for (let doc = 0; doc < this.size; doc++) yield [doc, [...this.get(doc)!]]
  }
}

/** Document numbers to ids (MiniSearch's `Map<number, string>`), the ids in an array. */
class DocumentIds {
  readonly ids: readonly string[]
  constructor(ids: readonly string[]) {
    this.ids = ids
  }
  get size(): number {
    return this.ids.length
  }
  has(doc: number): boolean {
    return doc >= 0 && doc < this.ids.length
  }
  get(doc: number): string | undefined {
    return this.ids[doc]
  }
  *[Symbol.iterator](): IterableIterator<[number, string]> {
    for (let doc = 0; doc < this.ids.length; doc++) yield [doc, this.ids[doc]!]
  }
}

/**
 * MiniSearch 7.2's state, as its `add` leaves it: private fields, so package.json pins minisearch
 * to 7.2.0 (search-index.test.ts fails if a version keeps its state otherwise).
 */
interface State {
  _documentCount: number
  _nextId: number
  _documentIds: DocumentIds
  _idToShortId: Map<string, number>
  _fieldLength: FieldLengths
  _avgFieldLength: number[]
  _index: { set(term: string, data: Map<number, Postings>): unknown }
}

/**
 * The MiniSearch index that `addAll(documents)` builds, in the same state to the bit (its radix
 * tree's terms inserted in the order `add` first met them, which decides the order search lists
 * equal-scored results and a result's matched words; each document's field lengths; the running
 * averages computed as `add` computes them), but with each term's documents in `Postings`, the
 * field lengths in one array and the document ids in another: 2.8 MB of heap instead of 8.1 MB
 * (a world's ~8,900 places), built without its Map entries nor a growing list per term (the
 * documents' words are numbered in one pass, the postings laid out in a second), so that the
 * build leaves little garbage behind. `search-index.test.ts` compares its `toJSON()` with that
 * of an index built by `addAll`, byte for byte.
 * @example buildIndex(places.map(indexedPlace), indexOptions()).search('tunis')
 */
export function buildIndex(
  documents: readonly IndexedText[],
  options: Options<IndexedText>,
): MiniSearch<IndexedText> {
  const tokenize = options.tokenize!
  const index = new MiniSearch<IndexedText>(options)
  const state = index as unknown as State
  const fieldCount = FIELDS.length
  // Each distinct term gets a number in the order `add` first meets it (the radix tree's order);
  // a document's words are kept as those numbers, and each term's postings counted, in one pass;
  // then every term's documents are laid out in two typed arrays in a second pass over the
  // numbers. No list per term (there were ~74,000 postings in ~15,000 growing arrays, all garbage
  // once the index was built: the resident memory of a server kept them as its high-water mark).
  const termOf = new Map<string, number>()
  const terms: string[] = []
  let words = new Int32Array(1 << 16)
  let wordCount = 0
  /** Where each document's field starts in `words` (`documents.length * fieldCount + 1` entries). */
  const starts = new Uint32Array(documents.length * fieldCount + 1)
  let postingsOf = new Uint32Array(1 << 14) // per term and field: how many documents
  let seenIn = new Int32Array(1 << 12).fill(-1) // per term: the last document and field it was met in
  const average = [0, 0, 0]
  const lengths = new Uint16Array(documents.length * fieldCount)
  for (let doc = 0; doc < documents.length; doc++) {
    const document = documents[doc]!
    for (let field = 0; field < fieldCount; field++) {
      const slot = doc * fieldCount + field
      starts[slot] = wordCount
      const tokens = tokenize(document[FIELDS[field]!], FIELDS[field])
      let unique = 0
      for (const term of tokens) {
        let id = termOf.get(term)
        if (id === undefined) {
          id = terms.length
          termOf.set(term, id)
          terms.push(term)
          if (id >= seenIn.length) {
            const grown = new Int32Array(seenIn.length * 2).fill(-1)
            grown.set(seenIn)
            seenIn = grown
            const counts = new Uint32Array(seenIn.length * fieldCount)
            counts.set(postingsOf)
            postingsOf = counts
          }
        }
        if (seenIn[id] !== slot) {
          seenIn[id] = slot
          unique++
          postingsOf[id * fieldCount + field]!++
        }
        if (wordCount === words.length) {
          const grown = new Int32Array(words.length * 2)
          grown.set(words)
          words = grown
        }
        words[wordCount++] = id
      }
      // As MiniSearch's addFieldLength: the number of distinct words (the empty one included, as
      // its `new Set(tokens).size`), and the running average by the same operations in the same order.
      lengths[slot] = unique
      const total = (average[field] || 0) * doc + unique
      average[field] = total / (doc + 1)
    }
  }
  starts[documents.length * fieldCount] = wordCount
  const empty = termOf.get('')
  // Each term's fields in turn, terms in the order first met: where its documents start.
  const offsets = new Uint32Array(terms.length * fieldCount)
  let postings = 0
  for (let id = 0; id < terms.length; id++) {
    if (id === empty) continue
    for (let field = 0; field < fieldCount; field++) {
      offsets[id * fieldCount + field] = postings
      postings += postingsOf[id * fieldCount + field]!
    }
  }
  const docs = new Uint32Array(postings)
  const counts = new Uint16Array(postings)
  const filled = offsets.slice()
  for (let doc = 0; doc < documents.length; doc++) {
    for (let field = 0; field < fieldCount; field++) {
      const slot = doc * fieldCount + field
      for (let w = starts[slot]!; w < starts[slot + 1]!; w++) {
        const id = words[w]!
        if (id === empty) continue
        const at = id * fieldCount + field
        const next = filled[at]!
        if (next > offsets[at]! && docs[next - 1] === doc) counts[next - 1]!++
        else {
          docs[next] = doc
          counts[next] = 1
          filled[at] = next + 1
        }
      }
    }
  }
  const ids = documents.map((d) => d.id)
  state._documentCount = documents.length
  state._nextId = documents.length
  state._documentIds = new DocumentIds(ids)
  state._idToShortId = new Map(ids.map((id, doc) => [id, doc]))
  state._fieldLength = new FieldLengths(lengths)
  state._avgFieldLength = documents.length > 0 ? average : []
  for (let id = 0; id < terms.length; id++) {
    if (id === empty) continue
    const data = new Map<number, Postings>()
    for (let field = 0; field < fieldCount; field++) {
      const at = id * fieldCount + field
      if (postingsOf[at] === 0) continue
      data.set(field, new Postings(docs, counts, offsets[at]!, offsets[at]! + postingsOf[at]!))
    }
    state._index.set(terms[id]!, data)
  }
  return index
}
