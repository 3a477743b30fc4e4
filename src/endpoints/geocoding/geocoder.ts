import { distanceKm, round6 } from '../../data/geo.ts'
import { houseDoor, type Street } from '../../data/streets.ts'
import { type Derived, type World, worldFor } from '../../data/world.ts'
import { tokenize } from '../../text/fold.ts'
import { must } from '../../validate/must.ts'
import { type SearchOptions, type SearchResult, search } from '../../vendor/minisearch.ts'
import {
  boxAround,
  componentsOf,
  formatPlace,
  gazetteerPlaces,
  type Lang,
  type Place,
  type PlaceType,
  type StreetEntry,
  streetEntry,
  streetPlace,
} from './places.ts'
import { fromPack, type GeocoderPack, readPack, toPack } from './prebuilt.ts'
import {
  type IndexData,
  type IndexedText,
  type IndexLayout,
  installIndex,
  layOut,
  type TermTree,
  termTree,
} from './search-index.ts'

export interface ForwardQuery {
  q: string
  limit: number
  lang: Lang
  proximity?: { lat: number; lng: number }
  /** `[minLng, minLat, maxLng, maxLat]`. */
  bbox?: [number, number, number, number]
  type?: PlaceType
}

/** One result of `GET /geocoding/forward`, in the documented shape. */
export interface ForwardResult {
  lat: number
  lng: number
  formatted: string
  confidence: number
  type: PlaceType
  components: ReturnType<typeof componentsOf>
  bbox: [number, number, number, number]
}

export interface Geocoder {
  readonly places: readonly Place[]
  /** The places grouped by kind, built once (reverse geocoding scans these, not all places). */
  readonly byKind: Readonly<Record<Place['kind'], readonly Place[]>>
  forward(query: ForwardQuery): ForwardResult[]
}

/** House numbers: 1 to 3 digits with an optional letter ("12", "7b"). Four digits are postcodes. */
const HOUSE_NUMBER = /^\d{1,3}[a-z]?$/
/** The country's name as tokenized (French, English). */
const COUNTRY_WORDS = new Set(['tunisie', 'tunisia'])
const CANDIDATES = 60
/**
 * The words that say a street is meant ("rue", "avenue", "شارع", ...), as tokenized. A query
 * without one asks for a place: a street named after a town ("Rue de Djerba", found in every
 * town) ranks after a place of the same confidence (the island, the town, its delegation).
 */
const STREET_WORDS = new Set(
  tokenize('rue avenue boulevard impasse route place quai souk street road نهج شارع زنقة طريق سوق'),
)
/** What a street loses in rank when the query names no street (a tenth of confidence). */
const UNASKED_STREET = 1

/**
 * Builds the forward geocoder of a seed: an inverted index (searched as MiniSearch searches) over
 * every place's folded names and context words, with fuzzy matching for longer words; read from
 * the build's pack for the default seed (`geocoderParts`).
 * @example createGeocoder(worldFor('demo')).forward({ q: 'Tunis', limit: 5, lang: 'fr' })
 */
export function createGeocoder(
  world: World,
  pack: GeocoderPack | undefined = readPack(world.seed),
): Geocoder {
  const parts = geocoderParts(world, pack)
  const index = installIndex(parts.index)
  let byKind: Record<Place['kind'], Place[]> | undefined
  const tokenized = (names: readonly string[] | undefined) =>
    (names ?? []).map(tokenize).filter((t) => t.length > 0)
  // A place's name words, tokenized the first time a search hits it (most places never are: this
  // saves building ~43,000 small arrays and objects for every world, and their memory).
  const aliasTokens = new Map<string, { main: string[][]; alt: string[][] }>()
  const namesOf = (place: Place) => {
    let names = aliasTokens.get(place.id)
    if (names === undefined) {
      names = { main: tokenized(place.aliases), alt: tokenized(place.alt) }
      aliasTokens.set(place.id, names)
    }
    return names
  }
  const exactOptions: SearchOptions = { ...SEARCH_OPTIONS, fuzzy: false, prefix: false }

  const rank = (query: ForwardQuery, terms: string[], hits: SearchResult[], fuzzy: boolean) => {
    const ranked: Array<{ place: Place; confidence: number; rank: number }> = []
    const streetAsked = terms.some((t) => STREET_WORDS.has(t))
    for (const hit of hits) {
      const place = parts.placeAt(hit.doc)
      const confidence = confidenceOf(hit, terms, namesOf(place), fuzzy)
      if (confidence === 0) continue
      if (query.bbox && !inBox(place, query.bbox)) continue
      let score = confidence * 10 + place.prominence
      if (place.kind === 'street' && !streetAsked) score -= UNASKED_STREET
      if (query.proximity) score += 3 * Math.exp(-distanceKm(query.proximity, place) / 20)
      ranked.push({ place, confidence, rank: score })
      if (ranked.length >= CANDIDATES) break
    }
    return ranked.sort((a, b) => b.rank - a.rank || byId(a.place, b.place))
  }

  return {
    get places() {
      return parts.places()
    },
    get byKind() {
      if (byKind === undefined) {
        byKind = { governorate: [], delegation: [], locality: [], poi: [], street: [] }
        for (const place of parts.places()) byKind[place.kind].push(place)
      }
      return byKind
    },
    forward(query) {
      const words = tokenize(query.q)
      const houseNumber = words.find((w) => HOUSE_NUMBER.test(w))
      // The country at the end of an address ("…, Tunisie", as the answers format it) narrows
      // nothing: every place is in Tunisia (and its typo-tolerant match of "Tunis" would drown the
      // town the address names).
      const named = words.filter((w) => w !== houseNumber)
      const terms = named.length > 1 ? named.filter((w) => !COUNTRY_WORDS.has(w)) : named
      if (terms.length === 0) return []
      const text = terms.join(' ')
      // Exact words first (fast, and what most queries need); typos and prefixes only when that is thin.
      let ranked = rank(query, terms, search(index, text, exactOptions).slice(0, CANDIDATES * 4), false)
      if (ranked.length < query.limit || (ranked[0]?.confidence ?? 0) < 0.8) {
        ranked = rank(query, terms, search(index, text, SEARCH_OPTIONS).slice(0, CANDIDATES * 4), true)
      }
      const results: ForwardResult[] = []
      for (const { place, confidence } of ranked) {
        const asAddress = houseNumber !== undefined && place.kind === 'street'
        const type: PlaceType = asAddress ? 'address' : place.type
        if (query.type && query.type !== type) continue
        results.push(
          asAddress
            ? addressResult(place, parts.streetOf(place), houseNumber, confidence, query.lang)
            : placeResult(place, confidence, query.lang),
        )
        if (results.length >= query.limit) break
      }
      return results
    },
  }
}

/** What a seed's geocoder is made of. */
export interface GeocoderParts {
  /** The place of each of the index's documents (the gazetteer's, then the streets'), made on first use. */
  placeAt(doc: number): Place
  /** Every place, in the index's order, streets with their street. */
  places(): Place[]
  /** A street place's street (its course and house numbers). */
  streetOf(place: Place): Street
  /** The streets' entries, in the index's order after the gazetteer's places. */
  entries(): StreetEntry[]
  index: IndexLayout | (IndexData & { tree: TermTree })
}

/**
 * What a seed's geocoder is made of: its places, its streets' entries and its search index. Read
 * from the build's pack when there is one for the seed (the default seed, in Node, from the
 * package: `prebuilt.ts`), made otherwise.
 * @example geocoderParts(worldFor('demo'), undefined).places().length > 8000
 */
export function geocoderParts(
  world: World,
  pack: GeocoderPack | undefined = readPack(world.seed),
): GeocoderParts {
  const packed = pack && fromPack(pack, world.seed)
  // The gazetteer's places are the same in every world: the pack's, when it was read first.
  const { places: gazetteer, towns } = gazetteerPlaces(() => packed?.gazetteer)
  if (packed) {
    // A search makes the places it hits, without their streets; all of them (reverse geocoding,
    // nearby places, routes) come with their streets, the world's (made then).
    const { streets } = packed
    const made: Place[] = [...gazetteer]
    let complete = false
    const entryAt = (doc: number) => streets.at(doc - gazetteer.length)
    const placeAt = (doc: number) => (made[doc] ??= streetPlace(entryAt(doc), towns))
    const count = gazetteer.length + streets.count
    const streetByKey = (key: string) => must(world.streetByKey(key), 'no street of the world has this key')
    return {
      placeAt,
      places: () => {
        if (!complete) {
          for (let doc = gazetteer.length; doc < count; doc++) {
            const entry = entryAt(doc)
            made[doc] = streetPlace(entry, towns, streetByKey(entry.key))
          }
          complete = true
        }
        return made
      },
      streetOf: (place) => place.street ?? streetByKey(place.id.slice('street:'.length)),
      entries: () => Array.from({ length: streets.count }, (_, i) => streets.at(i)),
      index: packed.index,
    }
  }
  const entries = world.streets.map(streetEntry)
  const places = [
    ...gazetteer,
    ...entries.map((e, i) =>
      streetPlace(e, towns, must(world.streets[i], 'a street entry without its street')),
    ),
  ]
  // Many fields repeat (every street of a town has the same context, many towns a "Rue de la
  // République"): each distinct text is tokenized once while indexing (tokenize is pure).
  const tokenized = new Map<string, string[]>()
  const tokenizeOnce = (text: string) => {
    let tokens = tokenized.get(text)
    if (tokens === undefined) {
      tokens = tokenize(text)
      tokenized.set(text, tokens)
    }
    return tokens
  }
  return {
    placeAt: (doc) => must(places[doc], 'no place of the index has this number'),
    places: () => places,
    streetOf: (place) => must(place.street, 'a street place without its street'),
    entries: () => entries,
    index: layOut(places.map(indexedText), tokenizeOnce),
  }
}

/**
 * A seed's geocoder as the build writes it (`scripts/build-geocoder-pack.ts`): made, never read,
 * its index's radix tree taken from the index it installs.
 * @example JSON.stringify(packGeocoder(worldFor('tmaps')))
 */
export function packGeocoder(world: World): GeocoderPack {
  const parts = geocoderParts(world, undefined)
  const { index } = parts
  if (!('terms' in index)) throw new Error('a geocoder made, not read, has its terms')
  const tree = termTree(installIndex(index))
  return toPack(String(world.seed), gazetteerPlaces(), parts.entries(), { ...index, tree })
}

/** What the search index holds of a place. */
export const indexedText = (p: Place): IndexedText => ({
  name: p.aliases.join(' '),
  alt: (p.alt ?? []).join(' '),
  context: p.context,
})

/**
 * Equal ranks in the order of the places' ids. By their UTF-16 code units: for the ids there are
 * (ASCII letters, digits, ":" and "-"; the same in every world) the order `localeCompare` gives,
 * tested, without its first call's cost (ICU's collator set up in a fresh process).
 */
export const byId = (a: Place, b: Place): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * Confidence in 0..1 from three things: how much of the query the place explains (a word of its
 * name counts fully, a context word such as its town or governorate 0.6), how much of one
 * spelling of its name the query covers, and whether words matched exactly or only fuzzily.
 * A place none of whose name words matched is not a result (0).
 */
function confidenceOf(
  hit: SearchResult,
  terms: string[],
  names: { main: string[][]; alt: string[][] },
  fuzzy: boolean,
): number {
  let nameHits = 0
  let contextHits = 0
  let exact = 0
  const matchedNames = new Set<string>()
  for (const term of terms) {
    let where: 'name' | 'context' | null = null
    for (const docTerm in hit.match) {
      if (docTerm !== term && !(fuzzy && isNear(term, docTerm))) continue
      const fields = hit.match[docTerm]
      if (fields?.includes('name') || fields?.includes('alt')) {
        where = 'name'
        matchedNames.add(docTerm)
        if (docTerm === term) exact++
        break
      }
      where = 'context'
    }
    if (where === 'name') nameHits++
    else if (where === 'context') contextHits++
  }
  if (nameHits === 0) return 0
  const queryCoverage = (nameHits + 0.6 * contextHits) / terms.length
  const coverage = (aliases: string[][], weight: number) => {
    let best = 0
    for (const alias of aliases) {
      let covered = 0
      for (const t of alias) if (matchedNames.has(t)) covered++
      best = Math.max(best, (covered / alias.length) * weight)
    }
    return best
  }
  const nameCoverage = Math.max(coverage(names.main, 1), coverage(names.alt, 0.8))
  const altOnly = coverage(names.main, 1) === 0
  const score = (0.6 * queryCoverage + 0.3 * nameCoverage + 0.1 * (exact / nameHits)) * (altOnly ? 0.85 : 1)
  return Math.round(Math.min(0.99, score) * 100) / 100
}

/** A query word and an indexed word are near when one is the other, a prefix, or a small typo away. */
function isNear(a: string, b: string): boolean {
  if (a === b) return true
  if (a.length >= 3 && b.startsWith(a)) return true
  const max = a.length >= 5 ? Math.ceil(a.length * 0.2) : a.length >= 4 ? 1 : 0
  return max > 0 && Math.abs(a.length - b.length) <= max && levenshtein(a, b) <= max
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitute = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitute)
    }
    prev = row
  }
  return prev[b.length] ?? 0
}

function placeResult(place: Place, confidence: number, lang: Lang): ForwardResult {
  return {
    lat: place.lat,
    lng: place.lng,
    formatted: formatPlace(place, lang),
    confidence,
    type: place.type,
    components: componentsOf(place, lang),
    bbox: place.bbox,
  }
}

/** A house on a street: numbers run along the street's axis, odd and even on either side. */
function addressResult(
  place: Place,
  street: Street,
  houseNumber: string,
  confidence: number,
  lang: Lang,
): ForwardResult {
  const n = Number.parseInt(houseNumber, 10)
  const beyond = n > street.maxNumber
  const { lat, lng } = houseDoor(street, n)
  const point = { lat: round6(lat), lng: round6(lng) }
  return {
    ...point,
    formatted: formatPlace(place, lang, houseNumber),
    confidence: Math.round(confidence * (beyond ? 0.7 : 1) * 100) / 100,
    type: 'address',
    components: componentsOf(place, lang, houseNumber),
    bbox: boxAround(point.lat, point.lng, 0.0003),
  }
}

function inBox(place: Place, [minLng, minLat, maxLng, maxLat]: [number, number, number, number]): boolean {
  return place.lng >= minLng && place.lng <= maxLng && place.lat >= minLat && place.lat <= maxLat
}

/**
 * The search's options: a name counts more than another spelling, which counts more than a context
 * word; fuzzy matching for longer words, a prefix for the last word of a query.
 */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { name: 3, alt: 2, context: 1 },
  fuzzy: (term) => (term.length >= 5 ? 0.2 : term.length >= 4 ? 1 : false),
  prefix: (term, i, terms) => i === terms.length - 1 && term.length >= 3,
  tokenize,
}

/** The geocoder, a part of each world (its search index is built on the first search). */
export const GEOCODER: Derived<Geocoder> = { name: 'geocoder', make: createGeocoder }

/**
 * The geocoder of a data seed: the one its world keeps (immutable data, shared by every mock
 * with that seed, dropped with its world).
 * @example geocoderFor('demo') === geocoderFor('demo') // true
 */
export function geocoderFor(seed: string | number): Geocoder {
  return worldFor(seed).derived(GEOCODER)
}
