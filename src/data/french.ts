/** French place-name grammar: "de" before a name, elided or contracted as French writes it. */

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
