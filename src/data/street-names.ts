/**
 * Namesakes of streets found in most Tunisian towns, with their Arabic form. They are facts of
 * Tunisian naming (national figures, dates, cities), not addresses of any one town.
 */
export const STREET_NAMESAKES: ReadonlyArray<readonly [fr: string, ar: string]> = [
  ['Habib Bourguiba', 'الحبيب بورقيبة'],
  ['Farhat Hached', 'فرحات حشاد'],
  ['Hédi Chaker', 'الهادي شاكر'],
  ['Taïeb Mhiri', 'الطيب المهيري'],
  ['Mongi Slim', 'المنجي سليم'],
  ['Ali Belhouane', 'علي بلهوان'],
  ['Hédi Nouira', 'الهادي نويرة'],
  ['Tahar Haddad', 'الطاهر الحداد'],
  ['Aboul Kacem Chebbi', 'أبو القاسم الشابي'],
  ['Ibn Khaldoun', 'ابن خلدون'],
  ['Kheireddine Pacha', 'خير الدين باشا'],
  ['Mohamed V', 'محمد الخامس'],
  ['de la Liberté', 'الحرية'],
  ['de la République', 'الجمهورية'],
  ["de l'Indépendance", 'الاستقلال'],
  ['du 14 Janvier', '14 جانفي'],
  ['du 20 Mars', '20 مارس'],
  ['du 9 Avril', '9 أفريل'],
  ['des Martyrs', 'الشهداء'],
  ['de Carthage', 'قرطاج'],
  ['de Paris', 'باريس'],
  ['de Marseille', 'مرسيليا'],
  ['de Palestine', 'فلسطين'],
  ['Jugurtha', 'يوغرطة'],
  ['Hannibal', 'حنبعل'],
  ['Elyssa', 'عليسة'],
  ['Ibn Sina', 'ابن سينا'],
  ['Ibn Rochd', 'ابن رشد'],
  ['Okba Ibn Nafaa', 'عقبة بن نافع'],
  ['Tarak Ibn Ziad', 'طارق بن زياد'],
  ['Salah Ben Youssef', 'صالح بن يوسف'],
  ['Ali Bach Hamba', 'علي باش حامبة'],
  ['Habib Thameur', 'الحبيب ثامر'],
  ['Mahmoud El Materi', 'محمود الماطري'],
  ['Bechir Sfar', 'البشير صفر'],
  ['Ahmed Tlili', 'أحمد التليلي'],
  ['Jamel Abdennasser', 'جمال عبد الناصر'],
  ['Hassen Ibn Nooman', 'حسان بن النعمان'],
  ["de l'Environnement", 'البيئة'],
  ['des Jasmins', 'الياسمين'],
  ['des Orangers', 'البرتقال'],
  ['des Oliviers', 'الزيتون'],
  ['de la Corniche', 'الكورنيش'],
  ['Ibn Jazzar', 'ابن الجزار'],
  ['El Moez', 'المعز'],
]

/** Street types with their Arabic word and how common they are (weights). */
export const STREET_TYPES: ReadonlyArray<readonly [fr: string, ar: string, weight: number]> = [
  ['Rue', 'نهج', 6],
  ['Avenue', 'شارع', 3],
  ['Boulevard', 'شارع', 1],
  ['Impasse', 'زنقة', 1],
  ['Route', 'طريق', 1],
]

/**
 * The real main streets of the largest cities (names are facts of each city), used first for
 * their town's generated streets, in this order; the rest of a town's streets take namesakes.
 * Each is `[French, Arabic]`. Their geometry is generated like any other street's.
 */
// biome-ignore format: a table
export const CITY_STREETS: Readonly<Record<string, ReadonlyArray<readonly [fr: string, ar: string]>>> = {
  Tunis: [
    ['Avenue de France', 'شارع فرنسا'], ['Avenue de Paris', 'شارع باريس'], ['Avenue de Carthage', 'شارع قرطاج'],
    ['Avenue Mohamed V', 'شارع محمد الخامس'], ['Avenue de la Liberté', 'شارع الحرية'], ['Rue de Marseille', 'نهج مرسيليا'],
    ['Rue de Rome', 'نهج روما'], ['Rue Charles de Gaulle', 'نهج شارل ديغول'], ['Rue Jamel Abdennasser', 'نهج جمال عبد الناصر'],
    ['Avenue Habib Thameur', 'شارع الحبيب ثامر'], ["Rue d'Angleterre", 'نهج انجلترا'], ['Rue de Yougoslavie', 'نهج يوغسلافيا'],
    ['Rue Ibn Khaldoun', 'نهج ابن خلدون'], ['Rue de la Kasbah', 'نهج القصبة'], ['Rue Jemaa Zitouna', 'نهج جامع الزيتونة'],
    ['Boulevard du 9 Avril 1938', 'شارع 9 أفريل 1938'], ['Boulevard Bab Bnet', 'شارع باب بنات'], ['Avenue Mongi Slim', 'شارع المنجي سليم'],
  ],
  Sfax: [
    ['Avenue Hédi Chaker', 'شارع الهادي شاكر'], ['Avenue Majida Boulila', 'شارع ماجدة بوليلة'], ['Avenue des Martyrs', 'شارع الشهداء'],
    ['Route de Gremda', 'طريق قرمدة'], ['Route de Tunis', 'طريق تونس'], ["Route de l'Aéroport", 'طريق المطار'],
    ['Route de Mahdia', 'طريق المهدية'], ['Route de Gabès', 'طريق قابس'], ['Avenue Ali Belhouane', 'شارع علي بلهوان'],
  ],
  Sousse: [
    ['Avenue Léopold Sédar Senghor', 'شارع ليوبولد سيدار سنغور'], ['Boulevard Yahia Ibn Omar', 'شارع يحيى بن عمر'],
    ['Avenue Hédi Chaker', 'شارع الهادي شاكر'], ['Boulevard de la Corniche', 'شارع الكورنيش'], ['Avenue de la République', 'شارع الجمهورية'],
    ['Avenue Mohamed V', 'شارع محمد الخامس'],
  ],
  Kairouan: [
    ['Avenue de la République', 'شارع الجمهورية'], ['Avenue Ibn El Jazzar', 'شارع ابن الجزار'], ['Avenue Ali Belhouane', 'شارع علي بلهوان'],
    ['Avenue Okba Ibn Nafaa', 'شارع عقبة بن نافع'],
  ],
  Bizerte: [
    ['Boulevard Hassen Nouri', 'شارع حسن النوري'], ['Avenue Taïeb Mhiri', 'شارع الطيب المهيري'], ['Quai Tarak Ibn Ziad', 'رصيف طارق بن زياد'],
    ["Rue d'Espagne", 'نهج إسبانيا'],
  ],
  Gabès: [['Avenue Farhat Hached', 'شارع فرحات حشاد'], ['Avenue de la République', 'شارع الجمهورية']],
  Ariana: [['Avenue de la République', 'شارع الجمهورية'], ['Avenue Taïeb Mhiri', 'شارع الطيب المهيري']],
  Hammamet: [['Avenue de la République', 'شارع الجمهورية'], ['Avenue des Nations Unies', 'شارع الأمم المتحدة']],
}

/**
 * What a medina's lanes are commonly named after (trades, wells, fountains, ovens, baths): generic
 * words of Tunisian medinas, given to generated lanes, not the names of any real lane.
 */
// biome-ignore format: a table
export const MEDINA_WORDS: ReadonlyArray<readonly [fr: string, ar: string]> = [
  ['des Teinturiers', 'الصباغين'], ['des Forgerons', 'الحدادين'], ['des Tisserands', 'النساجين'],
  ['des Orfèvres', 'الصاغة'], ['des Parfumeurs', 'العطارين'], ['des Libraires', 'الكتبيين'],
  ['des Selliers', 'السراجين'], ['des Chéchias', 'الشواشية'], ['des Potiers', 'الفخارين'],
  ['du Puits', 'البئر'], ['de la Fontaine', 'السبالة'], ['du Four', 'الكوشة'], ['du Hammam', 'الحمام'],
  ['de la Mosquée', 'الجامع'], ['de la Zaouia', 'الزاوية'], ['du Marabout', 'الولي'], ['des Andalous', 'الأندلس'],
  ['du Divan', 'الديوان'], ['de la Médersa', 'المدرسة'], ['du Fondouk', 'الفندق'], ['des Oliviers', 'الزيتون'],
  ['du Palmier', 'النخلة'], ['de la Treille', 'العريشة'], ['du Jasmin', 'الياسمين'],
]

/** A medina lane's types, with their Arabic word and how common they are (weights). */
export const MEDINA_TYPES: ReadonlyArray<readonly [fr: string, ar: string, weight: number]> = [
  ['Rue', 'نهج', 3],
  ['Impasse', 'زنقة', 3],
  ['Souk', 'سوق', 1],
]
