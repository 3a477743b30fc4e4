import type { Names } from './lang.ts'

/** A lake, lagoon or salt flat: its names, the point it is named at, and the zooms the map names it at. */
interface Water {
  id: string
  name: Names
  lat: number
  lng: number
  /** Where the map names it (a label's rank: the bigger, the sooner another label gives way). */
  rank: number
  minZoom: number
  maxZoom: number
}

/**
 * The chotts, sebkhas and lakes the map names, and the geocoder finds ("Chott el Djerid", "Lac de
 * Tunis"): at the published points scripts/build-land.ts names them by (fr.wikipedia / GeoNames),
 * the lakes inside the water the map draws for them (Lake Tunis's north lake, Ichkeul's GSHHG
 * outline, Lake Bizerte's GSHHG water). Names in French, English and Arabic (facts).
 */
// biome-ignore format: a table reads best with one water a line
export const WATERS: readonly Water[] = [
  { id: 'chott-el-djerid', name: { fr: 'Chott el Djerid', en: 'Chott el Djerid', ar: 'شط الجريد' }, lat: 33.7, lng: 8.4, rank: 8e5, minZoom: 7, maxZoom: 11 },
  { id: 'chott-el-fejej', name: { fr: 'Chott el Fejej', en: 'Chott el Fejej', ar: 'شط الفجاج' }, lat: 33.92, lng: 9.2, rank: 7e5, minZoom: 8, maxZoom: 11 },
  { id: 'chott-el-gharsa', name: { fr: 'Chott el Gharsa', en: 'Chott el Gharsa', ar: 'شط الغرسة' }, lat: 34.1175, lng: 7.87, rank: 7e5, minZoom: 8, maxZoom: 11 },
  { id: 'sebkhet-en-noual', name: { fr: 'Sebkhet en Noual', en: 'Sebkhet en Noual', ar: 'سبخة النوال' }, lat: 34.4, lng: 9.8, rank: 5e5, minZoom: 9, maxZoom: 12 },
  { id: 'sebkhet-kelbia', name: { fr: 'Sebkhet Kelbia', en: 'Sebkhet Kelbia', ar: 'سبخة الكلبية' }, lat: 35.84, lng: 10.27, rank: 5e5, minZoom: 9, maxZoom: 12 },
  { id: 'sebkhet-el-melah', name: { fr: 'Sebkhet el Melah', en: 'Sebkhet el Melah', ar: 'سبخة الملح' }, lat: 33.38, lng: 10.95, rank: 5e5, minZoom: 9, maxZoom: 12 },
  { id: 'lac-de-bizerte', name: { fr: 'Lac de Bizerte', en: 'Lake Bizerte', ar: 'بحيرة بنزرت' }, lat: 37.19, lng: 9.85, rank: 6e5, minZoom: 9, maxZoom: 13 },
  { id: 'lac-ichkeul', name: { fr: 'Lac Ichkeul', en: 'Lake Ichkeul', ar: 'بحيرة إشكل' }, lat: 37.161, lng: 9.667, rank: 5e5, minZoom: 9, maxZoom: 13 },
  { id: 'lac-de-tunis', name: { fr: 'Lac de Tunis', en: 'Lake of Tunis', ar: 'بحيرة تونس' }, lat: 36.83, lng: 10.25, rank: 6e5, minZoom: 10, maxZoom: 14 },
  { id: 'sebkhet-sejoumi', name: { fr: 'Sebkhet Séjoumi', en: 'Sebkhet Séjoumi', ar: 'سبخة السيجومي' }, lat: 36.7644, lng: 10.1469, rank: 4e5, minZoom: 10, maxZoom: 14 },
  { id: 'sebkhet-ariana', name: { fr: 'Sebkhet Ariana', en: 'Sebkhet Ariana', ar: 'سبخة أريانة' }, lat: 36.91, lng: 10.22, rank: 4e5, minZoom: 10, maxZoom: 14 },
]
