/**
 * Place-name grammar: French "de" elided or contracted as French writes it; Arabic "in" joined as Arabic
 * writes it.
 */

const VOWEL = /^[AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouyàâäéèêëîïôöùûü]/

/**
 * "de" + a place name, as French writes it: `d'Ariana`, `d'El Ala`, `du Kef` (Le Kef), `des
 * Andalous` (Les Andalous), `de l'Ariana` (L'Ariana), `de La Marsa`, `de Hammamet` (the h of
 * Tunisian names is not elided).
 * @example ofPlace('Ariana') // "d'Ariana"
 */
export function ofPlace(name: string): string {
  if (/^Le /.test(name)) return `du ${name.slice(3)}`
  if (/^Les /.test(name)) return `des ${name.slice(4)}`
  if (/^L['’]/.test(name)) return `de l'${name.slice(2)}`
  if (VOWEL.test(name)) return `d'${name}`
  return `de ${name}`
}

const ARABIC = /^[\u0600-\u06FF]/

/**
 * "in" + a place name in Arabic: the preposition joined to an Arabic name (بصفاقس), or "في"
 * before a name the gazetteer knows only in Latin letters (no ب glued to a Latin word).
 * @example inPlaceAr('صفاقس') // 'بصفاقس'
 */
export function inPlaceAr(name: string): string {
  return ARABIC.test(name) ? `ب${name}` : `في ${name}`
}
