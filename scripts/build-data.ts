/**
 * Builds `src/data/tunisia.json` and `src/data/tunisia-outline.json` from the gazetteer in
 * `../shared/data` (facts under public-domain / CC0 / CC BY licences; see its README).
 *
 * The package ships the trimmed output, so consumers never need `../shared`. Run it again only
 * when the gazetteer changes: `npm run build:data`.
 *
 * What it adds to the facts, and says so in the README:
 * - every locality gets a delegation (the nearest delegation point in its governorate when
 *   GeoNames gives none);
 * - postcodes: the real codes of 63 towns (`real-postcodes.ts`, each with its page) for those towns
 *   and the delegations they are the seats of; every other delegation gets a plausible generated
 *   4-digit code (no open postcode list for Tunisia is known), from the real base code of its
 *   governorate's capital, never a code another place has.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REAL_POSTCODES } from './real-postcodes.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const sharedDir = process.env.TMAPS_SHARED_DATA ?? join(root, '..', 'shared', 'data')

type Point = { lat: number; lon: number }
type RawGovernorate = {
  id: string
  name_fr: string
  name_ar: string
  name_en: string
  name_alt?: string[]
  capital: { name: string; name_ar?: string; lat: number; lon: number }
  bbox: [number, number, number, number]
  population?: number
}
type RawDelegation = Point & { id: string; name_fr: string; name_ar?: string; governorate: string }
type RawLocality = Point & {
  id: string
  name: string
  name_fr?: string
  name_en?: string
  name_ar?: string
  governorate: string
  delegation?: string
  population?: number
  feature_code?: string
}
type RawPoi = Point & {
  id: string
  category: string
  name: string
  name_ar?: string
  governorate: string
  iata?: string
  municipality?: string
}

const places = JSON.parse(readFileSync(join(sharedDir, 'tunisia-places.json'), 'utf8')) as {
  governorates: RawGovernorate[]
  delegations: RawDelegation[]
  localities: RawLocality[]
  pois: RawPoi[]
}
const outline = JSON.parse(readFileSync(join(sharedDir, 'tunisia-outline.geojson'), 'utf8')) as {
  features: Array<{ geometry: unknown; properties: Record<string, unknown> }>
}

/** Base postcode of each governorate's capital (the first code of its postal block). */
const POSTCODE_BASE: Record<string, number> = {
  'TN-11': 1000,
  'TN-12': 2080,
  'TN-13': 2013,
  'TN-14': 2010,
  'TN-21': 8000,
  'TN-22': 1100,
  'TN-23': 7000,
  'TN-31': 9000,
  'TN-32': 8100,
  'TN-33': 7100,
  'TN-34': 6100,
  'TN-41': 3100,
  'TN-42': 1200,
  'TN-43': 9100,
  'TN-51': 4000,
  'TN-52': 5000,
  'TN-53': 5100,
  'TN-61': 3000,
  'TN-71': 2100,
  'TN-72': 2200,
  'TN-73': 4200,
  'TN-81': 6000,
  'TN-82': 4100,
  'TN-83': 3200,
}

const round = (n: number) => Math.round(n * 1e5) / 1e5
const dist2 = (a: Point, b: Point) => {
  const dLat = a.lat - b.lat
  const dLon = (a.lon - b.lon) * Math.cos((a.lat * Math.PI) / 180)
  return dLat * dLat + dLon * dLon
}

const delegationsByGov = new Map<string, RawDelegation[]>()
for (const d of places.delegations) {
  const list = delegationsByGov.get(d.governorate) ?? []
  list.push(d)
  delegationsByGov.set(d.governorate, list)
}

// Postcodes: the real ones first (towns, and the delegations they are the seats of); then the
// delegation nearest the capital gets the base code, the others follow by distance, 10 apart (1 in
// Tunis), so neighbouring delegations get neighbouring codes; a code already taken (a real one, or
// another governorate's block reached) moves on to the next free one.
const postcodeOf = new Map<string, string>()
const localityPostcode = new Map<string, string>()
const localityIds = new Set(places.localities.map((l) => l.id))
const delegationIds = new Set(places.delegations.map((d) => d.id))
for (const [code, town, localities, delegation] of REAL_POSTCODES) {
  for (const id of localities) {
    if (!localityIds.has(id)) throw new Error(`real-postcodes.ts: ${town}: no locality ${id}`)
    localityPostcode.set(id, code)
  }
  if (delegation !== undefined) {
    if (!delegationIds.has(delegation))
      throw new Error(`real-postcodes.ts: ${town}: no delegation ${delegation}`)
    postcodeOf.set(delegation, code)
  }
}
const taken = new Set(REAL_POSTCODES.map(([code]) => code))
for (const gov of places.governorates) {
  const base = POSTCODE_BASE[gov.id]
  if (base === undefined) throw new Error(`No postcode base for ${gov.id}`)
  const capital = gov.capital
  const sorted = [...(delegationsByGov.get(gov.id) ?? [])].sort(
    (a, b) => dist2(a, capital) - dist2(b, capital),
  )
  for (const [i, d] of sorted.entries()) {
    if (postcodeOf.has(d.id)) continue
    let code = base + (gov.id === 'TN-11' ? i : i * 10)
    while (taken.has(String(code).padStart(4, '0'))) code++
    const text = String(code).padStart(4, '0')
    taken.add(text)
    postcodeOf.set(d.id, text)
  }
}

const nearestDelegation = (loc: RawLocality) => {
  const candidates = delegationsByGov.get(loc.governorate) ?? []
  let best: RawDelegation | undefined
  for (const d of candidates) if (!best || dist2(loc, d) < dist2(loc, best)) best = d
  if (!best) throw new Error(`No delegation in ${loc.governorate} for ${loc.id}`)
  return best.id
}

const data = {
  attribution:
    "Place data © GeoNames (CC BY 4.0, www.geonames.org); Data from Who's On First (licence: https://github.com/whosonfirst-data/whosonfirst-data/blob/master/LICENSE.md), including geometry derived from Quattroshapes (CC BY 2.0); Natural Earth (public domain); OurAirports (public domain); UN/LOCODE (UNECE).",
  governorates: places.governorates.map((g) => ({
    id: g.id,
    fr: g.name_fr,
    ar: g.name_ar,
    en: g.name_en,
    alt: (g.name_alt ?? []).filter((n) => n !== g.name_fr && n !== g.name_en),
    lat: round(g.capital.lat),
    lng: round(g.capital.lon),
    bbox: g.bbox,
    population: g.population ?? 0,
  })),
  delegations: places.delegations.map((d) => ({
    id: d.id,
    fr: d.name_fr,
    ...(d.name_ar ? { ar: d.name_ar } : {}),
    gov: d.governorate,
    lat: round(d.lat),
    lng: round(d.lon),
    postcode: postcodeOf.get(d.id) ?? '0000',
  })),
  localities: places.localities.map((l) => ({
    id: l.id,
    name: l.name,
    ...(l.name_fr ? { fr: l.name_fr } : {}),
    ...(l.name_en ? { en: l.name_en } : {}),
    ...(l.name_ar ? { ar: l.name_ar } : {}),
    lat: round(l.lat),
    lng: round(l.lon),
    gov: l.governorate,
    del: l.delegation ?? nearestDelegation(l),
    ...(localityPostcode.has(l.id) ? { postcode: localityPostcode.get(l.id) } : {}),
    ...(l.population ? { pop: l.population } : {}),
    ...(l.feature_code ? { fc: l.feature_code } : {}),
  })),
  pois: places.pois.map((p) => ({
    id: p.id,
    cat: p.category,
    name: p.name,
    ...(p.name_ar ? { ar: p.name_ar } : {}),
    lat: round(p.lat),
    lng: round(p.lon),
    gov: p.governorate,
    ...(p.iata ? { iata: p.iata } : {}),
  })),
}

const outlineOut = {
  type: 'FeatureCollection',
  features: outline.features
    .filter((f) => f.properties.layer !== 'country')
    .map((f) => ({
      type: 'Feature',
      properties: {
        layer: f.properties.layer === 'governorate' ? 'governorate' : 'country',
        ...(f.properties.id ? { id: f.properties.id } : {}),
      },
      geometry: f.geometry,
    })),
}

writeFileSync(join(root, 'src/data/tunisia.json'), `${JSON.stringify(data)}\n`)
writeFileSync(join(root, 'src/data/tunisia-outline.json'), `${JSON.stringify(outlineOut)}\n`)
console.log(
  `wrote src/data/tunisia.json (${data.governorates.length} governorates, ${data.delegations.length} delegations, ${data.localities.length} localities, ${data.pois.length} POIs) and src/data/tunisia-outline.json (${outlineOut.features.length} features)`,
)
