import type { Locality } from './gazetteer.ts'
import type { Names } from './lang.ts'

/**
 * The `categories` of `GET /geocoding/nearby`: the 18 documented ones, and `bakery`, which the
 * docs' own example uses (`categories=restaurant,cafe,bakery`) though their list lacks it: the
 * mock accepts it (a boulangerie answers to `shopping` and `bakery`).
 */
export const POI_CATEGORIES = [
  'restaurant',
  'cafe',
  'school',
  'hospital',
  'pharmacy',
  'bank',
  'atm',
  'fuel',
  'hotel',
  'parking',
  'transit',
  'municipality',
  'health',
  'education',
  'shopping',
  'culture',
  'mosque',
  'place_of_worship',
  'bakery',
] as const
export type PoiCategory = (typeof POI_CATEGORIES)[number]

/** One generated (or gazetteer) point of interest. */
export interface Poi {
  id: string
  name: Names
  /** The main category. */
  category: PoiCategory
  /** Every category the place answers to: a mosque is also a place of worship, a school is education. */
  categories: PoiCategory[]
  lat: number
  lng: number
  /** The town it belongs to. */
  locality: Locality
  phone?: string
  /** OpenStreetMap `opening_hours` syntax. */
  openingHours?: string
}
