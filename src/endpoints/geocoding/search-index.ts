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

/**
 * Each document's number of distinct words per field (MiniSearch's `Map<document, number[]>`), in one array.
 */
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
  _index: { set(term: string, data: Map<number, Postings>): unknown; _tree: TreeNode; _size?: number }
}

/** A node of MiniSearch's radix tree: edges to nodes, and the empty edge to a term's data. */
type TreeNode = Map<string, TreeNode | Map<number, Postings>>

/**
 * MiniSearch's radix tree of an index's terms, node by node in its iteration order (depth first):
 * each node's number of edges, every edge's text (the empty one leads to a term's data), and the
 * term each empty edge leads to, as its number in the layout. Installing an index from it makes
 * the same tree, in the same order, without inserting its terms one by one (`installIndex`).
 */
export interface TermTree {
  edges: string[]
  /** Per node, in the order met: its number of edges. */
  degrees: number[]
  /** Per empty edge, in the order met: its term's number in the layout. */
  leaves: number[]
}

/**
 * What an index is made of, in the order MiniSearch's `add` first met its terms: every term's
 * documents (`docs`, and how often it is in each, `counts`) for each field in one range of two
 * typed arrays, each document's number of distinct words per field, the running averages of
 * those, and the documents' ids. `installIndex` makes the index of it; a geocoder made at build
 * time keeps it (`prebuilt.ts`).
 */
export interface IndexLayout extends IndexData {
  /** The terms, in the order first met. The empty term (`empty`, -1 when none) is not indexed. */
  terms: string[]
  empty: number
}

/** The documents of an index's terms: its layout (`IndexLayout`) but for the terms themselves. */
export interface IndexData {
  /** Per term and field (`term * 3 + field`): where its documents start in `docs`, and how many. */
  offsets: Uint32Array
  sizes: Uint32Array
  docs: Uint32Array
  counts: Uint16Array
  /** Per document and field: its number of distinct words. */
  lengths: Uint16Array
  average: number[]
  ids: string[]
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
  return installIndex(layOut(documents, options.tokenize!), options)
}

/** The layout of the index of `documents`: see `buildIndex`. */
export function layOut(
  documents: readonly IndexedText[],
  tokenize: (text: string, field?: string) => string[],
): IndexLayout {
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
  return {
    terms,
    empty: empty ?? -1,
    offsets,
    sizes: postingsOf.slice(0, terms.length * fieldCount),
    docs,
    counts,
    lengths,
    average: documents.length > 0 ? average : [],
    ids: documents.map((d) => d.id),
  }
}

/**
 * The MiniSearch index of a layout, in the state `addAll` would leave it in (`buildIndex`).
 * @example installIndex(layOut(documents, tokenize), indexOptions())
 */
export function installIndex(
  layout: IndexLayout | (IndexData & { tree: TermTree }),
  options: Options<IndexedText>,
): MiniSearch<IndexedText> {
  const { offsets, sizes, docs, counts, lengths, average, ids } = layout
  const fieldCount = FIELDS.length
  const index = new MiniSearch<IndexedText>(options)
  const state = index as unknown as State
  state._documentCount = ids.length
  state._nextId = ids.length
  state._documentIds = new DocumentIds(ids)
  state._idToShortId = new Map(ids.map((id, doc) => [id, doc]))
  state._fieldLength = new FieldLengths(lengths)
  state._avgFieldLength = average
  const dataOf = (id: number) => {
    const data = new Map<number, Postings>()
    for (let field = 0; field < fieldCount; field++) {
      const at = id * fieldCount + field
      if (sizes[at] === 0) continue
      data.set(field, new Postings(docs, counts, offsets[at]!, offsets[at]! + sizes[at]!))
    }
    return data
  }
  if ('tree' in layout) {
    const { tree } = layout
    let edge = 0
    let degree = 0
    let leaf = 0
    const node = (): TreeNode => {
      const made: TreeNode = new Map()
      for (let n = tree.degrees[degree++]!; n > 0; n--) {
        const text = tree.edges[edge++]!
        made.set(text, text === '' ? dataOf(tree.leaves[leaf++]!) : node())
      }
      return made
    }
    state._index._tree = node()
    state._index._size = undefined
    return index
  }
  const { terms, empty } = layout
  for (let id = 0; id < terms.length; id++) if (id !== empty) state._index.set(terms[id]!, dataOf(id))
  return index
}

/** The number of a document in an index, by its id (MiniSearch's short id: its place in the layout). */
export function documentOf(index: MiniSearch<IndexedText>, id: string): number | undefined {
  return (index as unknown as State)._idToShortId.get(id)
}

/**
 * The radix tree of an index installed from `layout` (its terms numbered as there).
 * @example installIndex({ ...layout, tree: termTree(installIndex(layout, options), layout) }, options)
 */
export function termTree(index: MiniSearch<IndexedText>, layout: IndexLayout): TermTree {
  const numbers = new Map(layout.terms.map((term, id) => [term, id]))
  const tree: TermTree = { edges: [], degrees: [], leaves: [] }
  const visit = (node: TreeNode, prefix: string) => {
    tree.degrees.push(node.size)
    for (const [text, child] of node) {
      tree.edges.push(text)
      if (text === '') tree.leaves.push(numbers.get(prefix)!)
      else visit(child as TreeNode, prefix + text)
    }
  }
  visit((index as unknown as State)._index._tree, '')
  return tree
}
