/** Articles and particles that carry no meaning in a place name (fr, en, Arabic transliteration). */
const STOP_WORDS = new Set([
  'el',
  'al',
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'l',
  'd',
  'the',
  'of',
  'et',
  'and',
  'ال',
])

/** An elided French article or particle ("l'", "d'", "qu'") and its apostrophe. */
const ELISION = /(?<![\p{L}\p{N}])([ldLD]|[qQ]u)[’'`´]/gu

const ARABIC_MARKS = /[\u064B-\u065F\u0670\u0640]/g
const LATIN_MARKS = /[\u0300-\u036f]/g

/**
 * A text without case or accents (every combining mark), for comparing names as written:
 * "Sfax" and "SFAX", "Médenine" and "Medenine" meet. Unlike `foldWord`, no spelling variants.
 * @example foldAccents('Avenue de Médenine') // 'avenue de medenine'
 */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/**
 * The street words Tunisians type in Arabizi, as the Arabic words they stand for (شارع avenue or
 * boulevard, نهج rue, زنقة impasse, طريق route), which the streets' Arabic names hold:
 * "chare3 el 7abib bourguiba" finds the avenue, as "شارع الحبيب بورقيبة" does.
 */
const ARABIZI_STREET_WORDS: Record<string, string> = Object.fromEntries(
  (
    [
      ['شارع', ['chare3', 'char3', 'chara3', 'chari3', 'chere3', 'share3', 'shari3', 'chare3a']],
      ['نهج', ['nahj', 'nhej', 'nahej', 'nehj', 'nhaj']],
      ['زنقة', ['zan9a', 'zen9a', 'zan9et', 'zanga', 'zenga']],
      ['طريق', ['tri9', 'tari9', 'tree9', 'trig', 'triq', 'tri9et']],
    ] as const
  ).flatMap(([arabic, spellings]) => spellings.map((spelling) => [spelling, arabic])),
)

/** Arabizi digits used for Arabic letters in chat transliteration (9 = ق, 7 = ح, 3 = ع, 5 = خ, 2 = ء). */
const ARABIZI: Record<string, string> = { '9': 'k', '7': 'h', '3': 'a', '5': 'kh', '2': 'a' }

/**
 * Folds one word so that spelling variants meet: case, accents, Arabic letter forms and the
 * usual French/English transliterations of Tunisian names (Djerba/Jerba, Kairouan/Qairouan,
 * Chebba/Shebba, Hammamet/Hamamet), and Arabizi digits inside words (9ayrawen).
 * @example foldWord('Djerba') === foldWord('Jerba') // true
 */
export function foldWord(word: string): string {
  let folded = FOLDED.get(word)
  if (folded === undefined) {
    // A world's geocoder folds ~10^5 words, most of them the same few thousand (Rue, Avenue, ...).
    if (FOLDED.size >= MAX_FOLDED) FOLDED.clear()
    folded = fold(word)
    FOLDED.set(word, folded)
  }
  return folded
}

/** Words folded before: a pure function's answers, bounded (cleared whole when full). */
const FOLDED = new Map<string, string>()
const MAX_FOLDED = 50_000

function fold(word: string): string {
  let w = word.toLowerCase().normalize('NFD').replace(LATIN_MARKS, '')
  if (/[\u0600-\u06ff]/.test(w)) {
    w = w
      .replace(ARABIC_MARKS, '')
      .replace(/[أإآٱ]/g, 'ا')
      .replace(/ة/g, 'ه')
      .replace(/ى/g, 'ي')
      .replace(/ؤ/g, 'و')
      .replace(/ئ/g, 'ي')
    return w.length > 3 && w.startsWith('ال') ? w.slice(2) : w
  }
  if (/[a-z]/.test(w) && /\d/.test(w) && !/^\d+[a-z]?$/.test(w)) {
    // A consonant digit before a consonant stands for a syllable whose short vowel Arabizi leaves
    // out and French spellings write as "e": "9lebia" is Kelibia, "9bili" Kebili.
    w = w.replace(/[579](?=[bcdfghjklmnpqrstvxz])/g, (d) => `${ARABIZI[d]}e`)
    w = w.replace(/[23579]/g, (d) => ARABIZI[d] ?? d)
  }
  return w
    .replace(/dj/g, 'j')
    .replace(/ph/g, 'f')
    .replace(/ch|sch/g, 'sh')
    .replace(/q/g, 'k')
    .replace(/ck/g, 'k')
    .replace(/ou/g, 'u')
    .replace(/w/g, 'u')
    .replace(/y/g, 'i')
    .replace(/ee/g, 'i')
    .replace(/([a-z])\1+/g, '$1')
}

/**
 * Splits text into folded words, dropping articles and punctuation.
 * @example tokenize("Sidi Bou Saïd, Tunis") // ['sidi', 'bu', 'said', 'tunis']
 */
export function tokenize(text: string): string[] {
  const words = text
    // French elision ("l'Ariana", "d'Ariana") parts words; any other apostrophe is a letter's mark
    // inside a name ("M'saken", "Sidi Da'ud", "El M’khalif"): it joins its word ("Msaken" finds M'saken).
    .replace(ELISION, '$1 ')
    .replace(/[’'`´]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
  const out: string[] = []
  for (const word of words) {
    const lower = ARABIZI_STREET_WORDS[word.toLowerCase()] ?? word.toLowerCase()
    if (STOP_WORDS.has(lower)) continue
    // "El-Jem", "Ben-Arous" were split above; glued Arabic articles ("الحبيب") are folded by foldWord.
    const folded = foldWord(lower)
    if (folded !== '' && !STOP_WORDS.has(folded)) out.push(folded)
  }
  return out
}
