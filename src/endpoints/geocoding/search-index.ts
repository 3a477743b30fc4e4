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
 * (a world's ~8,900 places), built without its Map entries. `search-index.test.ts`
 * compares its `toJSON()` with that of an index built by `addAll`, byte for byte.
 * @example buildIndex(places.map(indexedPlace), indexOptions()).search('tunis')
 */
export function buildIndex(
  documents: readonly IndexedText[],
  options: Options<IndexedText>,
): MiniSearch<IndexedText> {
  const tokenize = options.tokenize!
  const index = new MiniSearch<IndexedText>(options)
  const state = index as unknown as State
  // term -> per field: documents and counts as growing lists (a document's words arrive in turn).
  const terms = new Map<string, Array<{ docs: number[]; counts: number[] } | undefined>>()
  const average = [0, 0, 0]
  const lengths = new Uint16Array(documents.length * FIELDS.length)
  let postings = 0
  for (let doc = 0; doc < documents.length; doc++) {
    const document = documents[doc]!
    for (let field = 0; field < FIELDS.length; field++) {
      const tokens = tokenize(document[FIELDS[field]!], FIELDS[field])
      const unique = new Set(tokens).size
      lengths[doc * FIELDS.length + field] = unique
      // As MiniSearch's addFieldLength: the same operations in the same order, so the same bits.
      const total = (average[field] || 0) * doc + unique
      average[field] = total / (doc + 1)
      for (const term of tokens) {
        if (!term) continue
        let fields = terms.get(term)
        if (fields === undefined) {
          fields = []
          terms.set(term, fields)
        }
        let list = fields[field]
        if (list === undefined) {
          list = { docs: [], counts: [] }
          fields[field] = list
        }
        const last = list.docs.length - 1
        if (last >= 0 && list.docs[last] === doc) list.counts[last]!++
        else {
          list.docs.push(doc)
          list.counts.push(1)
          postings++
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
  const docs = new Uint32Array(postings)
  const counts = new Uint16Array(postings)
  let at = 0
  for (const [term, fields] of terms) {
    const data = new Map<number, Postings>()
    fields.forEach((list, field) => {
      if (list === undefined) return
      docs.set(list.docs, at)
      counts.set(list.counts, at)
      data.set(field, new Postings(docs, counts, at, at + list.docs.length))
      at += list.docs.length
    })
    state._index.set(term, data)
  }
  return index
}
