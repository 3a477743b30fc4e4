import { radians } from './geo.ts'
import places from './tunisia.json' with { type: 'json' }

export interface Governorate {
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
export interface Delegation {
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
  pop?: number
  fc?: string
}
export interface Poi {
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
  return governorateById.get(id)!
}

/** A delegation by id (`TN-11-1152`). */
export function delegation(id: string): Delegation {
  return delegationById.get(id)!
}

/** The delegation nearest a point within a governorate (for POIs, which carry none). */
export function nearestDelegation(gov: string, lat: number, lng: number): Delegation {
  let best: Delegation | undefined
  let bestD = Number.POSITIVE_INFINITY
  for (const d of DELEGATIONS) {
    if (d.gov !== gov) continue
    const dLat = d.lat - lat
    const dLng = (d.lng - lng) * Math.cos(radians(lat))
    const dist = dLat * dLat + dLng * dLng
    if (dist < bestD) {
      bestD = dist
      best = d
    }
  }
  return best!
}
