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

/**
 * GENERATED names for generated streets: what Tunisian towns commonly name their streets after
 * (national and historical figures, scholars and poets, dates of the national story, the towns of
 * Tunisia and of the Arab world, trees and flowers), each `[French, Arabic]` after the street's
 * type ("Rue Ibn Khaldoun", "نهج ابن خلدون"). They are kinds of names, not the address of any
 * one street: src/data/streets.ts gives them, seeded, to the streets it generates.
 */
// biome-ignore format: a table
export const GENERATED_BASES: ReadonlyArray<readonly [fr: string, ar: string]> = [
  // Figures of the national movement and of the state.
  ['Farhat Hached', 'فرحات حشاد'], ['Hédi Chaker', 'الهادي شاكر'], ['Taïeb Mhiri', 'الطيب المهيري'],
  ['Ali Belhouane', 'علي بلهوان'], ['Hédi Nouira', 'الهادي نويرة'], ['Tahar Haddad', 'الطاهر الحداد'],
  ['Salah Ben Youssef', 'صالح بن يوسف'], ['Ali Bach Hamba', 'علي باش حامبة'], ['Mahmoud El Materi', 'محمود الماطري'],
  ['Bechir Sfar', 'البشير صفر'], ['Ahmed Tlili', 'أحمد التليلي'], ['Abdelaziz Thaalbi', 'عبد العزيز الثعالبي'],
  ['Mohamed Ali El Hammi', 'محمد علي الحامي'], ['Moncef Bey', 'المنصف باي'], ['Kheireddine Pacha', 'خير الدين باشا'],
  ['Hédi Saïdi', 'الهادي السعيدي'], ['Béchir Ben Yahmed', 'البشير بن يحمد'], ['Mongi Slim', 'المنجي سليم'],
  // Scholars, poets, conquerors, figures of the ancient and Arab past.
  ['Ibn Khaldoun', 'ابن خلدون'], ['Aboul Kacem Chebbi', 'أبو القاسم الشابي'], ['Ibn Sina', 'ابن سينا'],
  ['Ibn Rochd', 'ابن رشد'], ['Ibn Jazzar', 'ابن الجزار'], ['Ibn Rachiq', 'ابن رشيق'], ['Ibn Charaf', 'ابن شرف'],
  ['Ibn Arafa', 'ابن عرفة'], ['Imam Sahnoun', 'الإمام سحنون'], ['Assad Ibn El Fourat', 'أسد بن الفرات'],
  ['Ibn Battouta', 'ابن بطوطة'], ['El Jahedh', 'الجاحظ'], ['El Farabi', 'الفارابي'], ['El Khawarizmi', 'الخوارزمي'],
  ['El Moutanabbi', 'المتنبي'], ['Abou Nawas', 'أبو نواس'], ['Ali Douagi', 'علي الدوعاجي'], ['Okba Ibn Nafaa', 'عقبة بن نافع'],
  ['Tarak Ibn Ziad', 'طارق بن زياد'], ['Hassen Ibn Nooman', 'حسان بن النعمان'], ['Khaled Ibn El Walid', 'خالد بن الوليد'],
  ['Omar Ibn El Khattab', 'عمر بن الخطاب'], ['Ali Ibn Abi Taleb', 'علي بن أبي طالب'], ['Salah Eddine El Ayoubi', 'صلاح الدين الأيوبي'],
  ['El Moez', 'المعز'], ['Jugurtha', 'يوغرطة'], ['Hannibal', 'حنبعل'], ['Elyssa', 'عليسة'], ['Massinissa', 'ماسينيسا'],
  ['Ibn Zeidoun', 'ابن زيدون'], ['El Kindi', 'الكندي'], ['Ibn El Haytham', 'ابن الهيثم'],
  ['Ibn Abi Dhiaf', 'ابن أبي الضياف'], ['Mahmoud Messadi', 'محمود المسعدي'], ['Bayram Ettounsi', 'بيرم التونسي'],
  ['Ali Ben Ghedhahem', 'علي بن غذاهم'], ['Habiba Msika', 'حبيبة مسيكة'], ['Tawhida Ben Cheikh', 'توحيدة بن الشيخ'],
  ['Bechira Ben Mrad', 'بشيرة بن مراد'], ['Mohamed Daghbaji', 'محمد الدغباجي'], ['Mosbah Jarbou', 'مصباح الجربوع'],
  ['Youssef Rouissi', 'يوسف الرويسي'], ['Ibn Mandhour', 'ابن منظور'], ['Ibn El Khatib', 'ابن الخطيب'], ['Ibn Hazm', 'ابن حزم'],
  ['El Idrissi', 'الإدريسي'], ['Ibn Zohr', 'ابن زهر'], ['El Ghazali', 'الغزالي'], ['Amilcar', 'أميلكار'], ['Magon', 'ماغون'],
  // Dates.
  ['du 2 Mars 1934', '2 مارس 1934'], ['du 18 Janvier 1952', '18 جانفي 1952'], ['du 1er Juin 1955', 'غرة جوان 1955'],
  ['du 20 Mars 1956', '20 مارس 1956'], ['du 13 Août 1956', '13 أوت 1956'], ['du 25 Juillet 1957', '25 جويلية 1957'],
  ['du 15 Octobre 1963', '15 أكتوبر 1963'], ['du 3 Août', '3 أوت'], ['du 17 Décembre', '17 ديسمبر'], ['du 1er Mai', 'غرة ماي'],
  // Towns of Tunisia and of the Arab world, countries.
  ['de Kairouan', 'القيروان'], ['de Sfax', 'صفاقس'], ['de Sousse', 'سوسة'], ['de Bizerte', 'بنزرت'], ['de Gabès', 'قابس'],
  ['de Gafsa', 'قفصة'], ['de Béja', 'باجة'], ['du Kef', 'الكاف'], ['de Tozeur', 'توزر'], ['de Nefta', 'نفطة'],
  ['de Mahdia', 'المهدية'], ['de Monastir', 'المنستير'], ['de Nabeul', 'نابل'], ['de Jendouba', 'جندوبة'],
  ['de Tataouine', 'تطاوين'], ['de Médenine', 'مدنين'], ['de Zaghouan', 'زغوان'], ['de Siliana', 'سليانة'],
  ['de Kasserine', 'القصرين'], ['de Sidi Bouzid', 'سيدي بوزيد'], ['de Kébili', 'قبلي'], ['de Tabarka', 'طبرقة'],
  ['de Djerba', 'جربة'], ['de Testour', 'تستور'], ['du Caire', 'القاهرة'], ['de Damas', 'دمشق'], ['de Bagdad', 'بغداد'],
  ["d'Alger", 'الجزائر'], ['de Rabat', 'الرباط'], ['de Tripoli', 'طرابلس'], ['de Beyrouth', 'بيروت'], ['de Jérusalem', 'القدس'],
  ["d'Égypte", 'مصر'], ['de Syrie', 'سوريا'], ['du Liban', 'لبنان'], ['de Libye', 'ليبيا'], ['de Mauritanie', 'موريتانيا'],
  ['de Ksar Hellal', 'قصر هلال'], ['de Moknine', 'المكنين'], ['de Msaken', 'مساكن'], ['de Hammamet', 'الحمامات'],
  ['de Kélibia', 'قليبية'], ['de Mateur', 'ماطر'], ['de Douz', 'دوز'], ['de Zarzis', 'جرجيس'], ['de Korba', 'قربة'],
  ["d'El Jem", 'الجم'], ['de Sbeïtla', 'سبيطلة'], ['de Dougga', 'دقة'], ['de Téboursouk', 'تبرسق'], ['de Makthar', 'مكثر'],
  // Trees, flowers, the land.
  ['des Jasmins', 'الياسمين'], ['des Orangers', 'البرتقال'], ['des Oliviers', 'الزيتون'], ['des Palmiers', 'النخيل'],
  ['des Roses', 'الورد'], ['des Amandiers', 'اللوز'], ['des Grenadiers', 'الرمان'], ['des Figuiers', 'التين'],
  ['des Mimosas', 'الميموزا'], ['des Lilas', 'الليلك'], ['des Pins', 'الصنوبر'], ['des Eucalyptus', 'الكالبتوس'],
  ['des Oasis', 'الواحات'], ['des Salines', 'الملاحات'],
  ['des Cyprès', 'السرو'], ['des Acacias', 'الأكاسيا'], ['des Géraniums', 'العطرشية'], ['des Hirondelles', 'الخطاطيف'],
  ['des Cigognes', 'اللقالق'], ['des Vergers', 'البساتين'], ['des Dunes', 'الكثبان'], ['de la Mer', 'البحر'],
]

/**
 * GENERATED names for a medina's lanes, besides MEDINA_WORDS: the families and saints lanes and
 * dead ends are commonly named after ("Impasse Ben Ammar", "Rue Sidi Mansour"). Common names, not
 * the name of any real lane.
 */
// biome-ignore format: a table
export const MEDINA_BASES: ReadonlyArray<readonly [fr: string, ar: string]> = [
  ['Ben Ammar', 'بن عمار'], ['Ben Salem', 'بن سالم'], ['Ben Othman', 'بن عثمان'], ['Ben Hassine', 'بن حسين'],
  ['Ben Younes', 'بن يونس'], ['Ben Khelifa', 'بن خليفة'], ['Ben Abdallah', 'بن عبد الله'], ['Ben Mabrouk', 'بن مبروك'],
  ['Ben Romdhane', 'بن رمضان'], ['Ben Ghorbal', 'بن غربال'], ['Ben Slimane', 'بن سليمان'], ['Ben Naceur', 'بن ناصر'],
  ['Ben Fredj', 'بن فرج'], ['Ben Hamida', 'بن حميدة'], ['Ben Zaied', 'بن زايد'], ['Ben Aïssa', 'بن عيسى'],
  ['Bouzid', 'بوزيد'], ['Bouaziz', 'بوعزيز'], ['Jaziri', 'الجزيري'], ['Trabelsi', 'الطرابلسي'], ['Andaloussi', 'الأندلسي'],
  ['Mestiri', 'المستيري'], ['Gharbi', 'الغربي'], ['Cherif', 'الشريف'], ['Jelassi', 'الجلاصي'], ['Mahjoub', 'محجوب'],
  ['Sidi Ali', 'سيدي علي'], ['Sidi Salem', 'سيدي سالم'], ['Sidi Mansour', 'سيدي منصور'], ['Sidi Amor', 'سيدي عمر'],
  ['Sidi Ahmed', 'سيدي أحمد'], ['Sidi Hassen', 'سيدي حسن'], ['Sidi Abdelkader', 'سيدي عبد القادر'], ['Sidi Brahim', 'سيدي ابراهيم'],
  ['Sidi Bou Khris', 'سيدي بوخريص'], ['Sidi Saad', 'سيدي سعد'], ['Sidi Abdallah', 'سيدي عبد الله'], ['Sidi Daoud', 'سيدي داود'],
  ['Ben Miled', 'بن ميلاد'], ['Ben Rejeb', 'بن رجب'], ['Ben Jemaa', 'بن جمعة'], ['Ben Amor', 'بن عمر'],
  ['Ben Hadj Ali', 'بن الحاج علي'], ['Ben Kilani', 'بن كيلاني'], ['Ben Said', 'بن سعيد'], ['Ben Moussa', 'بن موسى'],
  ['Ben Brahim', 'بن ابراهيم'], ['Kchaou', 'كشو'], ['Karoui', 'القروي'], ['Zouari', 'الزواري'], ['Bahri', 'البحري'],
  ['Mejri', 'الماجري'], ['Baccouche', 'بكوش'], ['Sellami', 'السلامي'], ['Hammami', 'الحمامي'], ['Ferchichi', 'الفرشيشي'],
  ['Sidi Mbarek', 'سيدي مبارك'], ['Sidi Khlif', 'سيدي خليف'], ['Sidi Fredj', 'سيدي فرج'], ['Sidi Youssef', 'سيدي يوسف'],
  ['Sidi Ghrib', 'سيدي غريب'], ['Sidi Zitouni', 'سيدي الزيتوني'], ['Sidi Bou Ali', 'سيدي بوعلي'], ['Lalla Aziza', 'لالة عزيزة'],
]

/**
 * Names of real Tunis streets, squares and souks that no generated street in Tunis (the capital's
 * network, its quarters included) may carry: the names of the city's real streets not placed in
 * src/data/city-streets.ts, from general knowledge of its map (a name kept off generated streets
 * where unsure). In Tunis, a name a real street carries is only on that street. Compared on the
 * name without its type ("Mongi Slim" rules out "Rue Mongi Slim" as well as the avenue).
 */
// biome-ignore format: a table
export const TUNIS_RESERVED: readonly string[] = [
  'Mongi Slim', 'Farhat Hached', 'Taïeb Mhiri', 'Hédi Chaker', 'Ali Bach Hamba', 'Ibn Khaldoun', 'Habib Thameur',
  'Jamel Abdennasser', 'Mohamed V', 'Charles de Gaulle', "d'Angleterre", 'de Yougoslavie', "d'Alger", 'du Caire',
  'de Damas', 'de Syrie', 'de Palestine', 'de Marseille', 'de Rome', 'de Paris', 'de Carthage', 'de France',
  'de la Liberté', 'de la République', "de l'Indépendance", 'du 9 Avril', 'du 14 Janvier', 'Kheireddine Pacha',
  'Moncef Bey', 'Tahar Haddad', 'Aboul Kacem Chebbi', 'Hédi Nouira', 'Bab Bnet', 'de la Kasbah', 'Jemaa Zitouna',
  'Sidi Ben Arous', 'Sidi Mahrez', 'des Teinturiers', 'des Parfumeurs', 'des Chéchias', 'des Libraires', 'des Selliers',
  'des Orfèvres', 'des Andalous', 'Sidi Brahim',
]
