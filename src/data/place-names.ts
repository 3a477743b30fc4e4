/**
 * Place names as Tunisians write them, where GeoNames (src/data/tunisia.json) gives a transliteration
 * of the Arabic or an English spelling: keyed by the GeoNames `name`, the French name (and the
 * Arabic where GeoNames' is wrong or missing). Sources: the municipalities' own names (commune.tn),
 * road signs and the TGM's station names (Salammbô, Le Kram, Kheireddine). `null` drops an entry
 * that is not a place (GeoNames' "Douane", a customs post given Nabeul's population).
 */
export const PLACE_NAMES: Readonly<Record<string, { fr: string; ar?: string } | null>> = {
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
  Douane: null,
}
