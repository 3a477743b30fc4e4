import type { Locality } from './gazetteer.ts'
import type { Names } from './lang.ts'

/**
 * Place names as Tunisians write them, where GeoNames (src/data/tunisia.json) gives a transliteration
 * of the Arabic or an English spelling: keyed by the GeoNames `name`, the French name (and the
 * Arabic where GeoNames' is wrong or missing). Sources: the municipalities' own names (commune.tn),
 * road signs and the TGM's station names (Salammbô, Le Kram, Kheireddine). `partOf` marks an entry
 * that is not a place of its own but a point inside the town it names (GeoNames' "Douane", a
 * customs post given Nabeul's population): never labelled nor answered as a locality, but what
 * stands there belongs to that town.
 */
const PLACE_NAMES: Readonly<Record<string, { fr: string; ar?: string; partOf?: true }>> = {
  Aryanah: { fr: 'Ariana', ar: 'أريانة' },
  "L'Ariana": { fr: 'Ariana', ar: 'أريانة' },
  Salambaw: { fr: 'Salammbô', ar: 'صلامبو' },
  'Khayr ad Din': { fr: 'Kheireddine', ar: 'خير الدين' },
  'Al Karm': { fr: 'Le Kram', ar: 'الكرم' },
  'Mennzel Bou Zelfa': { fr: 'Menzel Bouzelfa', ar: 'منزل بوزلفة' },
  'Galaat el Andeless': { fr: 'Galaat el Andalous', ar: 'قلعة الأندلس' },
  "Sidi Da'ud": { fr: 'Sidi Daoud', ar: 'سيدي داود' },
  Sukrah: { fr: 'La Soukra', ar: 'السكرة' },
  Gamart: { fr: 'Gammarth', ar: 'قمرت' },
  Qamart: { fr: 'Gammarth', ar: 'قمرت' },
  // The two ends of Djerba's crossings as signs and the ferry company (SONOTRAK: Ajim - Jorf) write
  // them; GeoNames' Arabic "آل جرف" for Jorf is a misspelling of "الجرف".
  'Al Jurf': { fr: 'Jorf', ar: 'الجرف' },
  'El Qantara': { fr: 'El Kantara', ar: 'القنطرة' },
  // GeoNames' French name of this Gabès village is a film director's ("André Téchiné").
  Techine: { fr: 'Techine' },
  Douane: { fr: 'Nabeul', ar: 'نابل', partOf: true },
  // WOF's "Sosah" is a point in Sousse's centre, not a town beside it.
  Sosah: { fr: 'Sousse', ar: 'سوسة', partOf: true },
  // GeoNames' transliterations of the Arabic where Tunisians write a French form (municipality and
  // district names as their signs and the communes write them), and Arabic names GeoNames lacks.
  Carthage: { fr: 'Carthage', ar: 'قرطاج' },
  Moknine: { fr: 'Moknine', ar: 'المكنين' },
  Qallalah: { fr: 'Guellala', ar: 'قلالة' },
  "Al Ma'i": { fr: 'El May', ar: 'الماي' },
  'Al Qasr as Said': { fr: 'Ksar Saïd', ar: 'قصر السعيد' },
  Kasnadar: { fr: 'Khaznadar', ar: 'خزندار' },
  'Sidi Bu Jafar': { fr: 'Sidi Bou Jaafar', ar: 'سيدي بوجعفر' },
  'Djerf el Kanntara': { fr: 'Djerf el Kantara' },
  'Fonndouk Choucha': { fr: 'Fondouk Choucha', ar: 'فندق شوشة' },
  // WOF's "Sidi Abi Said" is Sidi Bou Saïd itself (the same point, 30 m apart), not a second village.
  'Sidi Abi Said': { fr: 'Sidi Bou Saïd', ar: 'سيدي بو سعيد', partOf: true },
  // Monastir's islet (the Ribat's island) by the name the town gives it.
  'Sidi al Ghudamisi': { fr: 'Sidi El Ghedamsi', ar: 'سيدي الغدامسي' },
}

/**
 * Names of the gazetteer's points of interest besides its own French one (by its id): the English
 * name, and for an island its bare name ("Djerba", "جربة"), called so as often as "Île de
 * Djerba", and its Arabic, which the gazetteer lacks. Sources: the places' articles in the French,
 * English and Arabic Wikipedias. A port's English name is made by rule ("Port of Sousse").
 */
export const POI_NAMES: Readonly<Record<string, { en: string; ar?: string; aliases?: readonly string[] }>> = {
  'landmark:djerba': { en: 'Djerba Island', ar: 'جزيرة جربة', aliases: ['Djerba', 'Jerba', 'جربة'] },
  'landmark:medina-of-tunis': { en: 'Medina of Tunis' },
  'landmark:carthage': { en: 'Archaeological Site of Carthage' },
  'landmark:sidi-bou-said': { en: 'Sidi Bou Said' },
}

/** A gazetteer point of interest's English name: its own, a port's by rule, else the French. */
export function poiEnglishName(poi: { id: string; cat: string; name: string }): string {
  const own = POI_NAMES[poi.id]?.en
  if (own !== undefined) return own
  return poi.cat === 'port' ? poi.name.replace(/^Port de (la |l'|)/, 'Port of ') : poi.name
}

/** The same name but for accents, case, hyphens and apostrophes ("Kélibia" and "Kelibia"). */
const sameName = (a: string, b: string) => {
  const bare = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[-'’\s]+/g, ' ')
      .toLowerCase()
  return bare(a) === bare(b)
}

/**
 * A locality's names as the map draws them and the geocoder answers them (one function for both,
 * and for the generated places and routing's road names): the French spelling used in Tunisia
 * (`PLACE_NAMES`, else the gazetteer's French name, else its GeoNames name), the same in English
 * (unaccented where the gazetteer's English name says so), and the Arabic without the governorate
 * some gazetteer names carry after a comma ("سكرة، تونس").
 * @example placeName({ name: 'Aryanah', ... }) // { fr: 'Ariana', en: 'Ariana', ar: 'أريانة' }
 */
export function placeName(l: Locality): Names {
  const named = PLACE_NAMES[l.name]
  const fr = named?.fr ?? l.fr ?? l.name
  // GeoNames' English names are mostly transliterations of the Arabic ("Aryanah", "Masakin",
  // "Majaz al Bab") or old names ("Bizerta", "Leptis Parva" for Lamta), not what English texts,
  // maps and signs in Tunisia use: the French name, but where only its accents differ.
  const en = named ? named.fr : l.en !== undefined && sameName(l.en, fr) ? l.en : fr
  const ar = ((named?.ar ?? l.ar ?? fr).split('،')[0] ?? '').trim()
  return { fr, en, ar }
}

/** Whether a locality is a place of its own (labelled, answered as a locality). */
export const isOwnPlace = (l: Locality): boolean => !PLACE_NAMES[l.name]?.partOf

/**
 * The gazetteer's other spellings of a locality (its GeoNames name, its French, English and Arabic
 * names) that `placeName` does not give: search still finds the place by them.
 * @example otherSpellings({ name: 'Aryanah', ... }) // ['Aryanah']
 */
export function otherSpellings(l: Locality): string[] {
  const names = Object.values(placeName(l))
  return [...new Set([l.name, l.fr, l.en, l.ar])].filter(
    (n): n is string => typeof n === 'string' && !names.includes(n),
  )
}
