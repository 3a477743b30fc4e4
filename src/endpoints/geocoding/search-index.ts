import { insertTerm, type RadixTree, type TermIndex } from '../../vendor/minisearch.ts'

/** What the search index holds of a place: its spellings, other spellings and context words. */
export interface IndexedText {
  name: string
  alt: string
  context: string
}

/** The indexed fields, in MiniSearch's order (a field's number is its place here). */
const FIELDS = ['name', 'alt', 'context'] as const

/**
 * An index's radix tree (`RadixTree`), node by node in the order of each node's edges, depth first.
 * Each node's number of edges, every edge's text (the empty one leads to a term), and the term each
 * empty edge leads to, as its number in the layout. Installing an index from it makes the same
 * tree, its edges in the same order, without inserting its terms one by one (`installIndex`).
 */
export interface TermTree {
  edges: string[]
  /** Per node, in the order met: its number of edges. */
  degrees: number[]
  /** Per empty edge, in the order met: its term's number in the layout. */
  leaves: number[]
}

/**
 * What an index is made of, its terms numbered in the order MiniSearch's `add` first meets them.
 * Every term's documents (`docs`, and how often it is in each, `counts`) for each field are one
 * range of two typed arrays; then each document's number of distinct words per field and the
 * running averages of those. `installIndex` makes the index of it; a geocoder made at build time
 * keeps it (`prebuilt.ts`).
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
}

/**
 * The layout of the index of `documents`, made without a `Map` entry nor a growing list per term.
 * The documents' words are numbered in one pass and the postings laid out in a second, so that
 * the build leaves little garbage behind.
 * @example installIndex(layOut(places.map(indexedText), tokenize))
 */
export function layOut(
  documents: readonly IndexedText[],
  tokenize: (text: string, field?: string) => string[],
): IndexLayout {
  const fieldCount = FIELDS.length
  // Each distinct term gets a number in the order `add` first meets it (the radix tree's order);
  // a document's words are kept as those numbers, and each term's postings counted, in one pass;
  // then every term's documents are laid out in two typed arrays in a second pass over the
  // numbers. No list per term: growing lists, all garbage once the index is built, would stay in
  // a server's resident memory as its high-water mark.
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
  }
}

/**
 * The search index of a layout, the one MiniSearch's `addAll` builds of the same documents.
 * Its radix tree has the terms inserted in the order `add` first meets them, which decides the
 * order in which a search lists equal-scored results and a result's matched words; the field
 * lengths and their running averages are those `add` computes. Searched with MiniSearch's search
 * (`search` in src/vendor/minisearch.ts), it answers as MiniSearch does, to the bit
 * (`search-index.test.ts` compares the two).
 * @example search(installIndex(layOut(documents, tokenize)), 'tunis', SEARCH_OPTIONS)
 */
export function installIndex(layout: IndexLayout | (IndexData & { tree: TermTree })): TermIndex {
  const { offsets, sizes, docs, counts, lengths, average } = layout
  let tree: RadixTree<number>
  if ('tree' in layout) tree = treeOf(layout.tree)
  else {
    tree = new Map()
    const { terms, empty } = layout
    for (let id = 0; id < terms.length; id++) if (id !== empty) insertTerm(tree, terms[id]!, id)
  }
  return { fields: FIELDS, tree, offsets, sizes, docs, counts, lengths, average }
}

/** The radix tree a `TermTree` lists, each term's number at its leaf. */
function treeOf({ edges, degrees, leaves }: TermTree): RadixTree<number> {
  let edge = 0
  let degree = 0
  let leaf = 0
  const node = (): RadixTree<number> => {
    const made: RadixTree<number> = new Map()
    for (let n = degrees[degree++]!; n > 0; n--) {
      const text = edges[edge++]!
      made.set(text, text === '' ? leaves[leaf++]! : node())
    }
    return made
  }
  return node()
}

/**
 * The radix tree of an index, as a `TermTree` (what a geocoder made at build time keeps of it).
 * @example installIndex({ ...layout, tree: termTree(installIndex(layout)) })
 */
export function termTree(index: TermIndex): TermTree {
  const tree: TermTree = { edges: [], degrees: [], leaves: [] }
  const visit = (node: RadixTree<number>) => {
    tree.degrees.push(node.size)
    for (const [text, child] of node) {
      tree.edges.push(text)
      if (text === '') tree.leaves.push(child as number)
      else visit(child as RadixTree<number>)
    }
  }
  visit(index.tree)
  return tree
}
