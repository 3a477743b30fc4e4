/*!
 * MiniSearch's search, the part of it the geocoder uses, from minisearch 7.2.0
 * (https://github.com/lucaong/minisearch, src/MiniSearch.ts and src/SearchableMap/): its radix tree
 * of terms (a term's path made, a term looked up, the terms under a prefix in the order its
 * `SearchableMap` lists them, the terms within an edit distance) and its BM25+ scoring of a query's
 * terms, exact, prefix and fuzzy, combined with OR. Kept as its code computes, operation for
 * operation, so that scores are the same to the bit and equal scores come in the same order.
 * Changed: a term's documents are read from typed arrays (`TermIndex`) instead of MiniSearch's
 * `Map`s, a result names its document by number, and what the geocoder never asks for is left
 * out (stored fields, document boosts, term boosts, filters, AND and AND_NOT, query trees,
 * adding and removing documents). The search options it does not set are MiniSearch's defaults.
 *
 * Copyright 2022 Luca Ongaro
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 * and associated documentation files (the "Software"), to deal in the Software without
 * restriction, including without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or
 * substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
 * BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 * NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
 * DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */

/**
 * A radix tree of terms, as MiniSearch's `SearchableMap` keeps one.
 * Each node maps the text of an edge to the next node, and its empty edge to the value of the term
 * spelled on the way there. The order of each node's edges is the order they were made in: it
 * decides the order in which prefix and fuzzy matches are listed, so the same terms inserted in
 * the same order make the same tree.
 */
export type RadixTree<T> = Map<string, RadixTree<T> | T>

/** The edge to a term's value. */
const LEAF = ''

/** Sets a term's value in a tree, making its path as `SearchableMap#set` does. */
export function insertTerm<T>(tree: RadixTree<T>, term: string, value: T): void {
  createPath(tree, term).set(LEAF, value)
}

function createPath<T>(root: RadixTree<T>, key: string): RadixTree<T> {
  let node = root
  const keyLength = key.length
  outer: for (let pos = 0; node && pos < keyLength; ) {
    for (const k of node.keys()) {
      // Check whether this key is a candidate: the first characters must match.
      if (k !== LEAF && key[pos] === k[0]) {
        const len = Math.min(keyLength - pos, k.length)
        // Advance offset to the point where key and k no longer match.
        let offset = 1
        while (offset < len && key[pos + offset] === k[offset]) ++offset
        const child = node.get(k) as RadixTree<T>
        if (offset === k.length) {
          // The existing key is shorter than the key we need to create.
          node = child
        } else {
          // Partial match: an intermediate node holds both the existing subtree and the new node.
          const intermediate: RadixTree<T> = new Map()
          intermediate.set(k.slice(offset), child)
          node.set(key.slice(pos, pos + offset), intermediate)
          node.delete(k)
          node = intermediate
        }
        pos += offset
        continue outer
      }
    }
    // Create a final child node to contain the final suffix of the key.
    const child: RadixTree<T> = new Map()
    node.set(key.slice(pos), child)
    return child
  }
  return node
}

/** The node a key ends at, if it ends at one (`SearchableMap`'s `lookup`). */
function lookup<T>(tree: RadixTree<T> | undefined, key: string): RadixTree<T> | undefined {
  if (key.length === 0 || tree == null) return tree
  for (const k of tree.keys()) {
    if (k !== LEAF && key.startsWith(k)) return lookup(tree.get(k) as RadixTree<T>, key.slice(k.length))
  }
  return undefined
}

/** A term's value (`SearchableMap#get`). */
function termAt<T>(tree: RadixTree<T>, term: string): T | undefined {
  return lookup(tree, term)?.get(LEAF) as T | undefined
}

/**
 * Calls `visit` with each term that starts with `prefix` and its value.
 * In the order `SearchableMap#atPrefix` lists them: each node's edges from the last made to the
 * first, depth first.
 */
export function forEachWithPrefix<T>(
  tree: RadixTree<T>,
  prefix: string,
  visit: (term: string, value: T) => void,
): void {
  const node = subtreeAt(tree, prefix)
  if (node !== undefined) visitFromLast(node, prefix, visit)
}

/**
 * The subtree of the terms under a prefix (`atPrefix`).
 * When the prefix ends inside an edge, a node of its own leads to the rest of that edge.
 */
function subtreeAt<T>(tree: RadixTree<T>, prefix: string): RadixTree<T> | undefined {
  let node: RadixTree<T> = tree
  let key = prefix
  // `trackDown`: down the edges the key starts with.
  descend: while (key.length > 0) {
    for (const k of node.keys()) {
      if (k !== LEAF && key.startsWith(k)) {
        node = node.get(k) as RadixTree<T>
        key = key.slice(k.length)
        continue descend
      }
    }
    for (const k of node.keys()) {
      if (k !== LEAF && k.startsWith(key)) return new Map([[k.slice(key.length), node.get(k)!]])
    }
    return undefined
  }
  return node
}

/** `SearchableMap`'s `TreeIterator`: a node's edges from the last to the first, each subtree in turn. */
function visitFromLast<T>(node: RadixTree<T>, prefix: string, visit: (term: string, value: T) => void): void {
  const keys = Array.from(node.keys())
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!
    if (key === LEAF) visit(prefix, node.get(LEAF) as T)
    else visitFromLast(node.get(key) as RadixTree<T>, prefix + key, visit)
  }
}

/** The terms within `maxDistance` edits of `query`, with their values and distances (`fuzzySearch`). */
function fuzzySearch<T>(node: RadixTree<T>, query: string, maxDistance: number): Map<string, [T, number]> {
  const results = new Map<string, [T, number]>()
  // Number of columns in the Levenshtein matrix.
  const n = query.length + 1
  // Matching terms can never be longer than N + maxDistance.
  const m = n + maxDistance
  // Fill first matrix row and column with numbers: 0 1 2 3 ...
  const matrix = new Uint8Array(m * n).fill(maxDistance + 1)
  for (let j = 0; j < n; ++j) matrix[j] = j
  for (let i = 1; i < m; ++i) matrix[i * n] = i
  recurse(node, query, maxDistance, results, matrix, 1, n, '')
  return results
}

// A Levenshtein matrix for the query, its rows updated along the tree's edges as long as a node
// can still lead to a term within the maximum edit distance (after http://stevehanov.ca/blog/?id=114).
function recurse<T>(
  node: RadixTree<T>,
  query: string,
  maxDistance: number,
  results: Map<string, [T, number]>,
  matrix: Uint8Array,
  m: number,
  n: number,
  prefix: string,
): void {
  const offset = m * n
  key: for (const key of node.keys()) {
    if (key === LEAF) {
      // A leaf: kept if its edit distance is within the maximum.
      const distance = matrix[offset - 1]!
      if (distance <= maxDistance) results.set(prefix, [node.get(key) as T, distance])
    } else {
      // Each character of the edge adds a row; the edge's subtree is searched only if the
      // smallest distance in the last row is still within the maximum.
      let i = m
      for (let pos = 0; pos < key.length; ++pos, ++i) {
        const char = key[pos]
        const thisRowOffset = n * i
        const prevRowOffset = thisRowOffset - n
        let minDistance = matrix[thisRowOffset]!
        const jmin = Math.max(0, i - maxDistance - 1)
        const jmax = Math.min(n - 1, i + maxDistance)
        for (let j = jmin; j < jmax; ++j) {
          const different = char !== query[j]
          const rpl = matrix[prevRowOffset + j]! + +different
          const del = matrix[prevRowOffset + j + 1]! + 1
          const ins = matrix[thisRowOffset + j]! + 1
          const dist = Math.min(rpl, del, ins)
          matrix[thisRowOffset + j + 1] = dist
          if (dist < minDistance) minDistance = dist
        }
        // Distances never decrease further down: no term of this subtree matches.
        if (minDistance > maxDistance) continue key
      }
      recurse(node.get(key) as RadixTree<T>, query, maxDistance, results, matrix, i, n, prefix + key)
    }
  }
}

/**
 * An index as the search reads it. Its terms are numbered: the radix tree leads from a term to its
 * number. Per term and field (`term * fields.length + field`), the term's documents are
 * `docs[offsets[i]]` to `docs[offsets[i] + sizes[i] - 1]`, ascending, with how often it is in each
 * (`counts`); per document and field (`document * fields.length + field`), its number of distinct
 * terms (`lengths`), and per field their average (`average`, as MiniSearch's `add` computes it).
 */
export interface TermIndex {
  /** The indexed fields: a field's number is its place here. */
  fields: readonly string[]
  tree: RadixTree<number>
  offsets: Uint32Array
  sizes: Uint32Array
  docs: Uint32Array
  counts: Uint16Array
  lengths: Uint16Array
  average: readonly number[]
}

/** How a query is searched: MiniSearch's search options of these names (the others at their defaults). */
export interface SearchOptions {
  /** Per field, what its scores are multiplied by (1 when not given). */
  boost: Readonly<Record<string, number>>
  /** Per query term: the edit distance allowed (a fraction of its length when under 1), or none. */
  fuzzy: boolean | number | ((term: string, i: number, terms: string[]) => boolean | number)
  /** Per query term: whether the terms it starts also match. */
  prefix: boolean | ((term: string, i: number, terms: string[]) => boolean)
  /** The query's terms (its empty ones are left out). */
  tokenize: (text: string) => string[]
}

/** A document a query matched: its score, the query's terms it matched and its own terms that matched. */
export interface SearchResult {
  doc: number
  score: number
  queryTerms: string[]
  match: Record<string, string[]>
}

/** MiniSearch's default weights of prefix and fuzzy matches, largest edit distance and BM25+ parameters. */
const WEIGHTS = { fuzzy: 0.45, prefix: 0.375 }
const MAX_FUZZY = 6
const BM25 = { k: 1.2, b: 0.7, d: 0.5 }

interface QuerySpec {
  term: string
  fuzzy: boolean | number
  prefix: boolean
}

interface RawResult {
  score: number
  terms: string[]
  match: Record<string, string[]>
}

/**
 * The documents that match a query, best first, as MiniSearch's `search` finds and orders them.
 * Results of equal score come in the order they were found.
 * @example search(index, 'sfax', { boost: { name: 3 }, fuzzy: 0.2, prefix: true, tokenize })[0]?.doc
 */
export function search(index: TermIndex, query: string, options: SearchOptions): SearchResult[] {
  const terms = options.tokenize(query).filter((term) => !!term)
  const queries = terms.map(termToQuerySpec(options))
  const perTerm = queries.map((spec) => executeQuerySpec(index, spec, options))
  const combined = perTerm.length === 0 ? new Map<number, RawResult>() : perTerm.reduce(or)
  const results: SearchResult[] = []
  for (const [doc, { score, terms, match }] of combined) {
    // The number of query terms matched multiplies the score (MiniSearch's "quality").
    const quality = terms.length || 1
    results.push({ doc, score: score * quality, queryTerms: terms, match })
  }
  return results.sort(byScore)
}

const termToQuerySpec =
  (options: SearchOptions) =>
  (term: string, i: number, terms: string[]): QuerySpec => {
    const fuzzy = typeof options.fuzzy === 'function' ? options.fuzzy(term, i, terms) : options.fuzzy || false
    const prefix =
      typeof options.prefix === 'function' ? options.prefix(term, i, terms) : options.prefix === true
    return { term, fuzzy, prefix }
  }

function executeQuerySpec(
  index: TermIndex,
  query: QuerySpec,
  options: SearchOptions,
): Map<number, RawResult> {
  const boosts = index.fields.map(
    (field) => (Object.hasOwn(options.boost, field) && options.boost[field]) || 1,
  )
  const { tree } = index
  const results = termResults(index, query.term, query.term, 1, termAt(tree, query.term), boosts)
  let fuzzyMatches: Map<string, [number, number]> | undefined
  if (query.fuzzy) {
    const fuzzy = query.fuzzy === true ? 0.2 : query.fuzzy
    const maxDistance = fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(query.term.length * fuzzy)) : fuzzy
    if (maxDistance) fuzzyMatches = fuzzySearch(tree, query.term, maxDistance)
  }
  if (query.prefix) {
    forEachWithPrefix(tree, query.term, (term, data) => {
      const distance = term.length - query.term.length
      if (!distance) return // Skip exact match.
      // A term that is both a prefix and a fuzzy match is scored as a prefix match.
      fuzzyMatches?.delete(term)
      // The weight approaches 0 as the distance grows, slower than a fuzzy match's.
      const weight = (WEIGHTS.prefix * term.length) / (term.length + 0.3 * distance)
      termResults(index, query.term, term, weight, data, boosts, results)
    })
  }
  if (fuzzyMatches) {
    for (const term of fuzzyMatches.keys()) {
      const [data, distance] = fuzzyMatches.get(term)!
      if (!distance) continue // Skip exact match.
      const weight = (WEIGHTS.fuzzy * term.length) / (term.length + distance)
      termResults(index, query.term, term, weight, data, boosts, results)
    }
  }
  return results
}

/** Adds a term's documents to `results`, scored (MiniSearch's `termResults`, no term or document boost). */
function termResults(
  index: TermIndex,
  sourceTerm: string,
  derivedTerm: string,
  termWeight: number,
  term: number | undefined,
  fieldBoosts: readonly number[],
  results = new Map<number, RawResult>(),
): Map<number, RawResult> {
  if (term === undefined) return results
  const { fields, offsets, sizes, docs, counts, lengths, average } = index
  const fieldCount = fields.length
  const documentCount = lengths.length / fieldCount
  for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
    const field = fields[fieldId]!
    const fieldBoost = fieldBoosts[fieldId]!
    const at = term * fieldCount + fieldId
    const matchingFields = sizes[at]!
    if (matchingFields === 0) continue
    const avgFieldLength = average[fieldId]!
    for (let k = offsets[at]!, end = k + matchingFields; k < end; k++) {
      const docId = docs[k]!
      const termFreq = counts[k]!
      const fieldLength = lengths[docId * fieldCount + fieldId]!
      const rawScore = calcBM25Score(termFreq, matchingFields, documentCount, fieldLength, avgFieldLength)
      const weightedScore = termWeight * fieldBoost * rawScore
      const result = results.get(docId)
      if (result) {
        result.score += weightedScore
        assignUniqueTerm(result.terms, sourceTerm)
        const match = Object.hasOwn(result.match, derivedTerm) ? result.match[derivedTerm] : undefined
        if (match) match.push(field)
        else result.match[derivedTerm] = [field]
      } else {
        results.set(docId, { score: weightedScore, terms: [sourceTerm], match: { [derivedTerm]: [field] } })
      }
    }
  }
  return results
}

function or(a: Map<number, RawResult>, b: Map<number, RawResult>): Map<number, RawResult> {
  for (const docId of b.keys()) {
    const existing = a.get(docId)
    if (existing == null) {
      a.set(docId, b.get(docId)!)
    } else {
      const { score, terms, match } = b.get(docId)!
      existing.score = existing.score + score
      existing.match = Object.assign(existing.match, match)
      for (const term of terms) assignUniqueTerm(existing.terms, term)
    }
  }
  return a
}

function calcBM25Score(
  termFreq: number,
  matchingCount: number,
  totalCount: number,
  fieldLength: number,
  avgFieldLength: number,
): number {
  const { k, b, d } = BM25
  const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5))
  return (
    invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)))
  )
}

function assignUniqueTerm(target: string[], term: string): void {
  if (!target.includes(term)) target.push(term)
}

const byScore = ({ score: a }: { score: number }, { score: b }: { score: number }) => b - a
