import { ofPlace } from '../../data/french.ts'
import { DELEGATIONS, delegation, GOVERNORATES, governorate, LOCALITIES, POIS } from '../../data/gazetteer.ts'
import { radians } from '../../data/geo.ts'
import { KIND_WORDS, LANDMARKS, SUPERSEDED_POIS } from '../../data/landmarks.ts'
import type { Lang, Names } from '../../data/lang.ts'
import { isOwnPlace, otherSpellings, POI_NAMES, placeName, poiEnglishName } from '../../data/place-names.ts'
import type { Street } from '../../data/streets.ts'
import { nearestTown } from '../../data/towns.ts'
import { WATERS } from '../../data/waters.ts'
import { must } from '../../validate/must.ts'

export { LANGS, type Lang, type Names } from '../../data/lang.ts'

/** The result types of the TMaps geocoding API. */
export type PlaceType = 'address' | 'street' | 'poi' | 'locality'
export const PLACE_TYPES: readonly PlaceType[] = ['address', 'street', 'poi', 'locality']

/** Everything the geocoding endpoints know of one place, in every language. */
export interface Place {
  id: string
  kind: 'governorate' | 'delegation' | 'locality' | 'poi' | 'street'
  type: Exclude<PlaceType, 'address'>
  name: Names
  lat: number
  lng: number
  /** `[minLng, minLat, maxLng, maxLat]`. */
  bbox: [number, number, number, number]
  postcode?: string
  commune?: Names
  delegation?: Names
  governorate: Names
  /** 0..1: how well known the place is (population, rank), to order equal matches. */
  prominence: number
  /** Words searched besides the name (commune, governorate, postcode). */
  context: string
  /** Every current spelling of the name that search should find. */
  aliases: string[]
  /** Historical or foreign spellings: found, but trusted less than `aliases`. */
  alt?: string[]
  street?: Street
}

/**
 * The street of a street's place, as the geocoder gives it to the endpoints that read streets
 * (`byKind.street`: each with its street).
 */
export const streetOf = (place: Place): Street => must(place.street, 'a street place without its street')

const COUNTRY: Names = { fr: 'Tunisie', en: 'Tunisia', ar: 'تونس' }

const round4 = (n: number) => Math.round(n * 1e4) / 1e4
export const boxAround = (lat: number, lng: number, half: number): [number, number, number, number] => {
  const halfLng = half / Math.cos(radians(lat))
  return [round4(lng - halfLng), round4(lat - half), round4(lng + halfLng), round4(lat + half)]
}

const govNames = (id: string): Names => {
  const g = governorate(id)
  return { fr: g.fr, en: g.en, ar: g.ar }
}
const delNames = (id: string): Names => {
  const d = delegation(id)
  return { fr: d.fr, en: d.fr, ar: d.ar ?? d.fr }
}
const prominenceOf = (pop: number | undefined) => Math.min(1, Math.log10(1 + (pop ?? 0)) / 6.5)

/** What a place in a town takes of the town's place: a town's place has each of them. */
interface TownParts {
  postcode: string
  commune: Names
  delegation: Names
  governorate: Names
}
const townParts = ({ postcode, commune, delegation, governorate }: Place): TownParts => ({
  postcode: must(postcode, 'a town place without its postcode'),
  commune: must(commune, 'a town place without its commune'),
  delegation: must(delegation, 'a town place without its delegation'),
  governorate,
})
/** The town of a gazetteer point: the town nearby and reverse geocoding name. */
const townOf = (localityPlaces: ReadonlyMap<string, Place>, at: { id: string; lat: number; lng: number }) =>
  townParts(must(localityPlaces.get(nearestTown(at).id), `no town place near ${at.id}`))

/**
 * The gazetteer's places (governorates, delegations, towns, its points of interest and the
 * landmarks), the same in every world: made once, shared (immutable); `prebuilt` gives them
 * ready-made when it can (`prebuilt.ts`). `towns` has every town by its gazetteer id, with those
 * that are part of another town and not searched of their own.
 */
export const gazetteerPlaces = (prebuilt?: () => GazetteerPlaces | undefined): GazetteerPlaces =>
  (gazetteer ??= prebuilt?.() ?? makeGazetteerPlaces())
let gazetteer: GazetteerPlaces | undefined

export interface GazetteerPlaces {
  places: readonly Place[]
  towns: ReadonlyMap<string, Place>
}

export function makeGazetteerPlaces(): GazetteerPlaces {
  const places: Place[] = []
  for (const g of GOVERNORATES) {
    const names = govNames(g.id)
    places.push({
      id: `gov:${g.id}`,
      kind: 'governorate',
      type: 'locality',
      name: names,
      lat: g.lat,
      lng: g.lng,
      bbox: g.bbox as [number, number, number, number],
      governorate: names,
      prominence: prominenceOf(g.population) * 0.9,
      context: 'gouvernorat governorate ولاية',
      aliases: [g.fr, g.en, g.ar],
      alt: g.alt,
    })
  }
  for (const d of DELEGATIONS) {
    places.push({
      id: `del:${d.id}`,
      kind: 'delegation',
      type: 'locality',
      name: delNames(d.id),
      lat: d.lat,
      lng: d.lng,
      bbox: boxAround(d.lat, d.lng, 0.03),
      postcode: d.postcode,
      delegation: delNames(d.id),
      governorate: govNames(d.gov),
      prominence: 0.3,
      context: `${governorate(d.gov).fr} ${governorate(d.gov).ar} ${d.postcode} délégation delegation معتمدية`,
      aliases: [d.fr, ...(d.ar ? [d.ar] : []), d.postcode],
    })
  }
  const localityPlaces = new Map<string, Place>()
  for (const l of LOCALITIES) {
    const g = governorate(l.gov)
    const d = delegation(l.del)
    const names = placeName(l)
    // The gazetteer's English name is searched as a name even where the answers use the French
    // one ("Bizerta", "Aryanah"): it ranks the town as before.
    const other = otherSpellings(l).filter((n) => n !== l.en)
    const place: Place = {
      id: `loc:${l.id}`,
      kind: 'locality',
      type: 'locality',
      name: names,
      lat: l.lat,
      lng: l.lng,
      bbox: boxAround(l.lat, l.lng, 0.005 + Math.sqrt(l.pop ?? 0) / 30000),
      postcode: l.postcode ?? d.postcode,
      commune: { ...names },
      delegation: delNames(d.id),
      governorate: govNames(l.gov),
      prominence: prominenceOf(l.pop) + (l.fc === 'PPLC' || l.fc === 'PPLA' ? 0.1 : 0),
      context: `${g.fr} ${g.ar} ${d.fr} ${l.postcode ?? d.postcode}`,
      aliases: [...new Set([...Object.values(names), ...(l.en ? [l.en] : [])])],
      // GeoNames' and other transliterations ("Aryanah", "Salambaw"): still found.
      ...(other.length > 0 && { alt: other }),
    }
    // A point that is part of another town (GeoNames' "Douane" in Nabeul) names what stands
    // there after that town but is not answered as a locality of its own.
    if (isOwnPlace(l)) places.push(place)
    localityPlaces.set(l.id, place)
  }
  for (const p of POIS) {
    // Its town as nearby and reverse name it, so that every endpoint gives one address.
    if (!SUPERSEDED_POIS.has(p.id)) places.push(gazetteerPoiPlace(p, townOf(localityPlaces, p)))
  }
  for (const l of LANDMARKS) {
    const town = townOf(localityPlaces, l)
    places.push({
      id: `poi:landmark:${l.id}`,
      kind: 'poi',
      type: 'poi',
      name: l.name,
      lat: l.lat,
      lng: l.lng,
      bbox: boxAround(l.lat, l.lng, 0.001),
      ...town,
      prominence: 0.75,
      context: `${l.city} ${town.commune.fr} ${town.governorate.fr} ${KIND_WORDS[l.kind]}`,
      aliases: [l.name.fr, l.name.en, l.name.ar, ...(l.aliases ?? [])],
    })
  }
  // The chotts, sebkhas and lakes the map names: "Chott el Djerid" is the salt flat, not Hammam Chott.
  for (const w of WATERS) {
    const town = townOf(localityPlaces, { id: w.id, lat: w.lat, lng: w.lng })
    places.push({
      id: `poi:water:${w.id}`,
      kind: 'poi',
      type: 'poi',
      name: w.name,
      lat: w.lat,
      lng: w.lng,
      bbox: boxAround(w.lat, w.lng, 0.05),
      ...town,
      prominence: 0.75,
      context: `${town.commune.fr} ${town.governorate.fr} lac lake sebkha chott بحيرة سبخة شط`,
      aliases: [...new Set(Object.values(w.name))],
    })
  }
  return { places, towns: localityPlaces }
}

/**
 * What a street's place is made of, besides its town: what a seed decides (its names) and its course's box.
 */
export interface StreetEntry {
  /** Its course's key (the place's id is `street:<key>`). */
  key: string
  fr: string
  ar: string
  /** The gazetteer id of the town it belongs to. */
  town: string
  lat: number
  lng: number
  /** `[minLng, minLat, maxLng, maxLat]`. */
  bbox: [number, number, number, number]
}

export function streetEntry(s: Street): StreetEntry {
  let [minLat, minLng, maxLat, maxLng] = [90, 180, -90, -180]
  // Pairs below `length`: the fallbacks are never taken.
  for (let i = 0; i < s.points.length; i += 2) {
    const lat = s.points[i] ?? s.lat
    const lng = s.points[i + 1] ?? s.lng
    minLat = Math.min(minLat, lat)
    maxLat = Math.max(maxLat, lat)
    minLng = Math.min(minLng, lng)
    maxLng = Math.max(maxLng, lng)
  }
  return {
    key: s.key,
    fr: s.fr,
    ar: s.ar,
    town: s.locality.id,
    lat: s.lat,
    lng: s.lng,
    bbox: [
      round4(minLng - 0.0002),
      round4(minLat - 0.0002),
      round4(maxLng + 0.0002),
      round4(maxLat + 0.0002),
    ],
  }
}

/**
 * What every street of a town takes of it, made once per town and shared: its parts, and the words
 * the street is searched by besides its name.
 */
const streetTowns = new WeakMap<Place, TownParts & { context: string }>()

/**
 * A street's place, with the street itself (its course and house numbers) when it is given: a
 * geocoder read ready-made (`prebuilt.ts`) answers a search without the world's streets, and
 * gives its places their streets when they are all asked for (reverse geocoding, nearby, routes).
 */
export function streetPlace(entry: StreetEntry, towns: ReadonlyMap<string, Place>, street?: Street): Place {
  const loc = must(towns.get(entry.town), 'a street whose town has no place')
  let town = streetTowns.get(loc)
  if (town === undefined) {
    town = { ...townParts(loc), context: `${loc.aliases.join(' ')} ${loc.governorate.fr} ${loc.postcode}` }
    streetTowns.set(loc, town)
  }
  return {
    id: `street:${entry.key}`,
    kind: 'street',
    type: 'street',
    name: { fr: entry.fr, en: entry.fr, ar: entry.ar },
    lat: entry.lat,
    lng: entry.lng,
    bbox: entry.bbox,
    postcode: town.postcode,
    commune: town.commune,
    delegation: town.delegation,
    governorate: town.governorate,
    // Under its town's weight: a street of a big town must not outrank the same name in the small
    // town a query names ("537 Avenue Farhat Hached, 6000 Manzil" is Manzil's, not Gabès's).
    prominence: loc.prominence * 0.6,
    context: town.context,
    aliases: [entry.fr, entry.ar],
    street,
  }
}

/** The commune of a point of interest or a street: each has its town's. */
const communeOf = (place: Place) => must(place.commune, 'a point of interest or a street without its commune')

/**
 * The formatted address of a place in a language, e.g. "Avenue Habib Bourguiba, 1001 Tunis, Tunisia".
 * @example formatPlace(place, 'en', '12')
 */
export function formatPlace(place: Place, lang: Lang, houseNumber?: string): string {
  const sep = lang === 'ar' ? '، ' : ', '
  const country = COUNTRY[lang]
  const name = place.name[lang]
  switch (place.kind) {
    case 'governorate':
      return [
        lang === 'fr'
          ? `Gouvernorat ${ofPlace(name)}`
          : lang === 'en'
            ? `${name} Governorate`
            : `ولاية ${name}`,
        country,
      ].join(sep)
    case 'delegation':
      return [
        lang === 'fr'
          ? `Délégation ${ofPlace(name)}`
          : lang === 'en'
            ? `${name} Delegation`
            : `معتمدية ${name}`,
        place.governorate[lang],
        country,
      ].join(sep)
    case 'locality':
      return [
        `${place.postcode} ${name}`,
        ...(place.governorate[lang] === name ? [] : [place.governorate[lang]]),
        country,
      ].join(sep)
    case 'poi':
      return [name, `${place.postcode} ${communeOf(place)[lang]}`, country].join(sep)
    case 'street':
      return [
        houseNumber ? `${houseNumber} ${name}` : name,
        `${place.postcode} ${communeOf(place)[lang]}`,
        country,
      ].join(sep)
  }
}

/** The documented `components` of a result, in a language; keys with no value are left out. */
export function componentsOf(place: Place, lang: Lang, houseNumber?: string) {
  return {
    ...(houseNumber ? { housenumber: houseNumber } : {}),
    ...(place.kind === 'street' ? { street: place.name[lang] } : {}),
    ...(place.postcode ? { postcode: place.postcode } : {}),
    ...(place.commune ? { commune: place.commune[lang] } : {}),
    ...(place.delegation ? { delegation: place.delegation[lang] } : {}),
    governorate: place.governorate[lang],
    country: 'TN',
  }
}

/** A point of interest of the gazetteer (a port, an airport, a heritage site) as a place in its town. */
function gazetteerPoiPlace(p: (typeof POIS)[number], town: ReturnType<typeof townOf>): Place {
  const more = POI_NAMES[p.id]
  const ar = p.ar ?? more?.ar
  return {
    id: `poi:${p.id}`,
    kind: 'poi',
    type: 'poi',
    name: { fr: p.name, en: poiEnglishName(p), ar: ar ?? p.name },
    lat: p.lat,
    lng: p.lng,
    bbox: boxAround(p.lat, p.lng, 0.002),
    ...town,
    prominence: 0.7,
    context: `${town.commune.fr} ${town.governorate.fr} ${p.cat} ${p.iata ?? ''}`,
    aliases: [p.name, ...(ar ? [ar] : []), ...(more?.aliases ?? [])],
  }
}
