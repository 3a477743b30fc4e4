import type { Names } from '../../data/lang.ts'
import type { GazetteerPlaces, Place, StreetEntry } from './places.ts'
import type { IndexData, TermTree } from './search-index.ts'

/**
 * The default seed's geocoder, made at build time: a test runner that isolates files in
 * processes pays the first geocode once per file. `npm run build` writes what the seed decides
 * (its streets' names and boxes) and the search index (its radix tree and every term's documents)
 * beside the compiled geocoder (`dist/endpoints/geocoding/geocoder-pack.json`, by
 * `scripts/build-geocoder-pack.ts`); a Node process that geocodes with the default seed reads it
 * instead of naming the seed's ~6,700 streets and indexing ~9,000 places. Anything else (another
 * seed, the browser, the sources under test, a bundle that moved the module away from the file)
 * makes the geocoder as before; the answers are the same either way (`prebuilt.test.ts`).
 *
 * Numbers are stored as the bytes of typed arrays (base64, little-endian), names once each with
 * the streets' numbers into those lists: the file is read and parsed in a few milliseconds.
 */
export interface GeocoderPack {
  format: typeof PACK_FORMAT
  seed: string
  /** The gazetteer's places (the index's first documents; the streets follow) and its towns. */
  gazetteer: {
    /** The names several places share (a town's for its streets, a governorate's), once. */
    names: Names[]
    /** The places, each name as its number in `names`; then the towns not searched of their own. */
    places: PackedPlace[]
    /** How many of `places` are searched (the rest are only towns). */
    searched: number
    /** `GazetteerPlaces.towns`: gazetteer ids, and their places' numbers in `places`. */
    towns: string[]
    townPlaces: number[]
  }
  streets: {
    /** Every distinct text of the streets (names, town ids), once. */
    texts: string[]
    /**
     * Per street (`Uint16Array`): its French and Arabic names, its town, its course's town (in `texts`) and
     * number there.
     */
    refs: string
    /** Per street (`Int32Array`): lat and lng in millionths, its box in ten-thousandths of a degree. */
    numbers: string
  }
  index: {
    tree: TermTree
    average: number[]
    /** `Uint32Array`, per term and field. */
    offsets: string
    sizes: string
    /** `Uint16Array`: the documents of every term and field, and how often the term is in each. */
    docs: string
    counts: string
    /** `Uint16Array`, per document and field. */
    lengths: string
  }
}

/** A place as packed: its names as numbers. */
type PackedPlace = Omit<Place, NameKey | 'street'> & { [K in NameKey]?: number }
const NAME_KEYS = ['name', 'commune', 'delegation', 'governorate'] as const
type NameKey = (typeof NAME_KEYS)[number]

/** Its version: a pack of another is not read (a build writes the pack of its own code). */
const PACK_FORMAT = 1
/** The pack's file, beside this module. */
export const PACK_FILE = 'geocoder-pack.json'
/** The seed whose geocoder the build packs: the default one (`DEFAULT_DATA_SEED`, checked by the build). */
export const PACKED_SEED = 'tmaps'

const REFS = 5
const NUMBERS = 6
/** The degrees a street's numbers are rounded to (`streets.ts`, `streetEntry`): kept exactly as integers. */
const SCALES = [1e6, 1e6, 1e4, 1e4, 1e4, 1e4] as const
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1

const toBase64 = (array: ArrayBufferView) =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64')
/** The bytes of a base64 text, in a buffer of their own (a typed array over them must start aligned). */
const bytesOf = (text: string): ArrayBuffer => {
  const bytes = Buffer.from(text, 'base64')
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

/**
 * A seed's geocoder as the build keeps it: its streets' entries and its index (whose documents
 * are the gazetteer's places, then the streets, in that order). Throws when something does not
 * fit the format (a number that is not rounded as `streetEntry` rounds it, too many documents).
 * @example JSON.stringify(toPack('tmaps', gazetteerPlaces(), entries, { ...layout, tree }))
 */
export function toPack(
  seed: string,
  gazetteer: GazetteerPlaces,
  entries: readonly StreetEntry[],
  index: IndexData & { tree: TermTree },
): GeocoderPack {
  const texts: string[] = []
  const numbered = new Map<string, number>()
  const textOf = (text: string) => {
    let n = numbered.get(text)
    if (n === undefined) {
      n = texts.length
      numbered.set(text, n)
      texts.push(text)
    }
    return n
  }
  const refs = new Uint16Array(entries.length * REFS)
  const numbers = new Int32Array(entries.length * NUMBERS)
  entries.forEach((e, i) => {
    const [courseTown, course] = splitKey(e.key)
    refs.set([textOf(e.fr), textOf(e.ar), textOf(e.town), textOf(courseTown), course], i * REFS)
    ;[e.lat, e.lng, ...e.bbox].forEach((value, k) => {
      const scaled = Math.round(value * SCALES[k]!)
      if (scaled / SCALES[k]! !== value)
        throw new Error(`street ${e.key}: ${value} is not rounded to 1/${SCALES[k]}`)
      numbers[i * NUMBERS + k] = scaled
    })
  })
  if (texts.length > 0xffff || index.lengths.length / 3 > 0xffff)
    throw new Error('the pack numbers texts and documents in 16 bits')
  return {
    format: PACK_FORMAT,
    seed,
    gazetteer: packGazetteer(gazetteer),
    streets: { texts, refs: toBase64(refs), numbers: toBase64(numbers) },
    index: {
      tree: index.tree,
      average: index.average,
      offsets: toBase64(index.offsets),
      sizes: toBase64(index.sizes),
      docs: toBase64(Uint16Array.from(index.docs)),
      counts: toBase64(index.counts),
      lengths: toBase64(index.lengths),
    },
  }
}

function packGazetteer({ places, towns }: GazetteerPlaces): GeocoderPack['gazetteer'] {
  const names: Names[] = []
  /** Names by value: many places carry equal ones (their town's, their governorate's). */
  const numbered = new Map<string, number>()
  const listed = [...places]
  const at = new Map(places.map((p, i) => [p, i]))
  for (const town of towns.values()) {
    if (at.has(town)) continue
    at.set(town, listed.length)
    listed.push(town)
  }
  const packed = listed.map((place) => {
    if ('street' in place) throw new Error(`${place.id}: the gazetteer's places have no street`)
    const copy: Record<string, unknown> = { ...place }
    for (const key of NAME_KEYS) {
      const value = place[key]
      if (value === undefined) continue
      const text = JSON.stringify(value)
      let n = numbered.get(text)
      if (n === undefined) {
        n = names.length
        numbered.set(text, n)
        names.push(value)
      }
      copy[key] = n
    }
    return copy as PackedPlace
  })
  return {
    names,
    places: packed,
    searched: places.length,
    towns: [...towns.keys()],
    townPlaces: [...towns.values()].map((t) => at.get(t)!),
  }
}

function unpackGazetteer({
  names,
  places,
  searched,
  towns,
  townPlaces,
}: GeocoderPack['gazetteer']): GazetteerPlaces {
  const all = places as unknown as Place[]
  for (const place of places as unknown as Array<Record<NameKey, number | Names | undefined>>)
    for (const key of NAME_KEYS) {
      const n = place[key]
      if (typeof n === 'number') place[key] = names[n]
    }
  return { places: all.slice(0, searched), towns: new Map(towns.map((id, i) => [id, all[townPlaces[i]!]!])) }
}

/** A course's key, `<town id>:<number>`: its town and number. */
function splitKey(key: string): [string, number] {
  const at = key.lastIndexOf(':')
  const course = Number(key.slice(at + 1))
  if (!(at > 0 && Number.isInteger(course) && course >= 0 && course <= 0xffff))
    throw new Error(`a course key the pack cannot hold: ${key}`)
  return [key.slice(0, at), course]
}

/** A pack's streets: how many, and each one's entry (made when asked for). */
interface PackedStreets {
  count: number
  at(i: number): StreetEntry
}

/**
 * The gazetteer's places, the streets and the index of a pack (read once: it is changed as it is
 * read); undefined when the pack is not of this format and seed.
 */
export function fromPack(
  pack: GeocoderPack,
  seed: string | number,
): { gazetteer: GazetteerPlaces; streets: PackedStreets; index: IndexData & { tree: TermTree } } | undefined {
  if (!LITTLE_ENDIAN || pack.format !== PACK_FORMAT || pack.seed !== String(seed)) return undefined
  const gazetteer = unpackGazetteer(pack.gazetteer)
  const { texts } = pack.streets
  const refs = new Uint16Array(bytesOf(pack.streets.refs))
  const numbers = new Int32Array(bytesOf(pack.streets.numbers))
  const count = refs.length / REFS
  if (numbers.length !== count * NUMBERS) return undefined
  const keyOf = (i: number) => `${texts[refs[i * REFS + 3]!]}:${refs[i * REFS + 4]}`
  const streets: PackedStreets = {
    count,
    at(i) {
      const r = i * REFS
      const n = i * NUMBERS
      return {
        key: keyOf(i),
        fr: texts[refs[r]!]!,
        ar: texts[refs[r + 1]!]!,
        town: texts[refs[r + 2]!]!,
        lat: numbers[n]! / SCALES[0],
        lng: numbers[n + 1]! / SCALES[1],
        bbox: [
          numbers[n + 2]! / SCALES[2],
          numbers[n + 3]! / SCALES[3],
          numbers[n + 4]! / SCALES[4],
          numbers[n + 5]! / SCALES[5],
        ],
      }
    },
  }
  const { tree, average } = pack.index
  const index = {
    tree,
    average,
    offsets: new Uint32Array(bytesOf(pack.index.offsets)),
    sizes: new Uint32Array(bytesOf(pack.index.sizes)),
    docs: new Uint32Array(new Uint16Array(bytesOf(pack.index.docs))),
    counts: new Uint16Array(bytesOf(pack.index.counts)),
    lengths: new Uint16Array(bytesOf(pack.index.lengths)),
  }
  if (index.lengths.length !== (gazetteer.places.length + count) * 3) return undefined
  return { gazetteer, streets, index }
}

/**
 * The build's pack of a seed's geocoder, in Node (read beside this module), when there is one:
 * only the default seed has one, and only in the built package.
 */
export function readPack(seed: string | number): GeocoderPack | undefined {
  if (String(seed) !== PACKED_SEED) return undefined
  const fs = globalThis.process?.getBuiltinModule?.('node:fs')
  if (!fs) return undefined
  try {
    return JSON.parse(fs.readFileSync(new URL(PACK_FILE, import.meta.url), 'utf8')) as GeocoderPack
  } catch {
    return undefined // not built (the sources), bundled elsewhere, or unreadable: the geocoder is made
  }
}
