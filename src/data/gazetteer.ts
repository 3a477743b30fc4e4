import { must } from '../validate/must.ts'
import places from './tunisia.json' with { type: 'json' }

interface Governorate {
  id: string
  fr: string
  ar: string
  en: string
  alt: string[]
  lat: number
  lng: number
  bbox: number[]
  population: number
}
interface Delegation {
  id: string
  fr: string
  ar?: string
  gov: string
  lat: number
  lng: number
  postcode: string
}
export interface Locality {
  id: string
  name: string
  fr?: string
  en?: string
  ar?: string
  lat: number
  lng: number
  gov: string
  del: string
  /** The town's real postcode, where a source gives it (scripts/real-postcodes.ts); else its delegation's. */
  postcode?: string
  pop?: number
  fc?: string
}
interface Poi {
  id: string
  cat: string
  name: string
  ar?: string
  lat: number
  lng: number
  gov: string
  iata?: string
}

export const GOVERNORATES: readonly Governorate[] = places.governorates
export const DELEGATIONS: readonly Delegation[] = places.delegations
export const LOCALITIES: readonly Locality[] = places.localities
export const POIS: readonly Poi[] = places.pois

const governorateById = new Map(GOVERNORATES.map((g) => [g.id, g]))
const delegationById = new Map(DELEGATIONS.map((d) => [d.id, d]))

/** A governorate by ISO 3166-2 id (`TN-11`); the gazetteer's references always resolve. */
export function governorate(id: string): Governorate {
  return must(governorateById.get(id), `no governorate ${id} in the gazetteer`)
}

/** A delegation by id (`TN-11-1152`). */
export function delegation(id: string): Delegation {
  return must(delegationById.get(id), `no delegation ${id} in the gazetteer`)
}
