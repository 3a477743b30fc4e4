/**
 * The vocabulary of generated points of interest: what Tunisian shops, services and landmarks are
 * called, in French, English and Arabic. Brands are the chains and banks found in Tunisian towns;
 * people's names are common Tunisian family names. None of it is an address of any one place.
 */

export type FrAr = readonly [fr: string, ar: string]

/** Common Tunisian family names, as pharmacies, clinics and laboratories carry them. */
export const FAMILY_NAMES: readonly FrAr[] = [
  ['Ben Salah', 'بن صالح'],
  ['Gharbi', 'الغربي'],
  ['Jebali', 'الجبالي'],
  ['Mejri', 'الماجري'],
  ['Hammami', 'الحمامي'],
  ['Ayari', 'العياري'],
  ['Jlassi', 'الجلاصي'],
  ['Riahi', 'الرياحي'],
  ['Dridi', 'الدريدي'],
  ['Khelifi', 'الخليفي'],
  ['Sassi', 'الساسي'],
  ['Mansouri', 'المنصوري'],
  ['Zouari', 'الزواري'],
  ['Haddad', 'الحداد'],
  ['Masmoudi', 'المصمودي'],
  ['Ben Amor', 'بن عمر'],
  ['Ben Youssef', 'بن يوسف'],
  ['Ferchichi', 'الفرشيشي'],
  ['Mathlouthi', 'المثلوثي'],
  ['Belhadj', 'بالحاج'],
  ['Kaabi', 'الكعبي'],
  ['Ouertani', 'الورتاني'],
  ['Chebbi', 'الشابي'],
  ['Trabelsi', 'الطرابلسي'],
  ['Bouzid', 'بوزيد'],
  ['Chaabane', 'شعبان'],
  ['Karray', 'كراي'],
  ['Sellami', 'السلامي'],
  ['Tlili', 'التليلي'],
  ['Ben Hassine', 'بن حسين'],
  ['Ghannouchi', 'الغنوشي'],
  ['Baccouche', 'بكوش'],
]

/** Common Tunisian given names (doctors' plates: "Dr Sami Gharbi"). */
export const GIVEN_NAMES: readonly FrAr[] = [
  ['Mohamed', 'محمد'],
  ['Ahmed', 'أحمد'],
  ['Ali', 'علي'],
  ['Sami', 'سامي'],
  ['Karim', 'كريم'],
  ['Nabil', 'نبيل'],
  ['Hichem', 'هشام'],
  ['Walid', 'وليد'],
  ['Yassine', 'ياسين'],
  ['Slim', 'سليم'],
  ['Mehdi', 'مهدي'],
  ['Leila', 'ليلى'],
  ['Amel', 'أمل'],
  ['Fatma', 'فاطمة'],
  ['Sonia', 'سنية'],
  ['Imen', 'إيمان'],
  ['Rim', 'ريم'],
  ['Mouna', 'منى'],
  ['Meriem', 'مريم'],
  ['Olfa', 'ألفة'],
  ['Ines', 'إيناس'],
  ['Nadia', 'نادية'],
]

/** Words shop, café, restaurant and hotel signs are made of. */
export const SIGN_WORDS: readonly FrAr[] = [
  ['El Ferdaous', 'الفردوس'],
  ['Ennakhla', 'النخلة'],
  ['El Medina', 'المدينة'],
  ['Ezzitouna', 'الزيتونة'],
  ['Yasmine', 'الياسمين'],
  ['El Bahja', 'البهجة'],
  ['Essaada', 'السعادة'],
  ['Carthage', 'قرطاج'],
  ['Le Golfe', 'الخليج'],
  ['Les Andalous', 'الأندلس'],
  ['Le Phénicien', 'الفينيقي'],
  ['La Kasbah', 'القصبة'],
  ['El Bey', 'الباي'],
  ['Les Palmiers', 'النخيل'],
  ['El Amel', 'الأمل'],
  ['Ennour', 'النور'],
  ['El Wafa', 'الوفاء'],
  ['Le Printemps', 'الربيع'],
  ['Dar Jedi', 'دار جدي'],
  ['El Khadra', 'الخضراء'],
  ['La Perle', 'اللؤلؤة'],
  ['Les Délices', 'اللذائذ'],
  ['Le Jasmin', 'الياسمين'],
  ['El Manar', 'المنار'],
]

/** Names mosques are given (besides "Grande Mosquée de ..."). */
export const MOSQUE_NAMES: readonly FrAr[] = [
  ['Ennour', 'النور'],
  ['Errahma', 'الرحمة'],
  ['El Fath', 'الفتح'],
  ['Ettaqwa', 'التقوى'],
  ['Essalem', 'السلام'],
  ['El Houda', 'الهدى'],
  ['Ettaouba', 'التوبة'],
  ['El Imen', 'الإيمان'],
  ['Abou Bakr Essedik', 'أبو بكر الصديق'],
  ['Omar Ibn El Khattab', 'عمر بن الخطاب'],
  ['Othman Ibn Affan', 'عثمان بن عفان'],
  ['Ali Ibn Abi Taleb', 'علي بن أبي طالب'],
  ['Okba Ibn Nafaa', 'عقبة بن نافع'],
]

/** Saints whose zaouïas (shrines) dot Tunisian towns. */
export const SAINTS: readonly FrAr[] = [
  ['Sidi Abdelkader', 'سيدي عبد القادر'],
  ['Sidi Mehrez', 'سيدي محرز'],
  ['Sidi Belhassen', 'سيدي بلحسن'],
  ['Sidi Ali Ben Aoun', 'سيدي علي بن عون'],
  ['Sidi Amor', 'سيدي عمر'],
  ['Sidi Salem', 'سيدي سالم'],
  ['Sidi Mansour', 'سيدي منصور'],
  ['Lella Manoubia', 'السيدة المنوبية'],
]

/** Tunisian banks: [name, Arabic name]. */
export const BANKS: readonly FrAr[] = [
  ['BIAT', 'البنك العربي لتونس'],
  ['STB', 'الشركة التونسية للبنك'],
  ['BNA', 'البنك الوطني الفلاحي'],
  ['Attijari Bank', 'التجاري بنك'],
  ['Amen Bank', 'بنك الأمان'],
  ['BH Bank', 'بنك الإسكان'],
  ['UIB', 'الاتحاد الدولي للبنوك'],
  ['UBCI', 'الاتحاد البنكي للتجارة والصناعة'],
  ['ATB', 'البنك العربي التونسي'],
  ['Banque Zitouna', 'بنك الزيتونة'],
  ['Banque de Tunisie', 'بنك تونس'],
  ['La Poste Tunisienne', 'البريد التونسي'],
]

/** Fuel distributors in Tunisia. */
export const FUEL_BRANDS: readonly FrAr[] = [
  ['Agil', 'عجيل'],
  ['Total', 'توتال'],
  ['Shell', 'شل'],
  ['OiLibya', 'أويليبيا'],
  ['Staroil', 'ستار أويل'],
]

/** Supermarket chains: [name, Arabic name, smallest town they open in]. */
export const SUPERMARKETS: ReadonlyArray<readonly [fr: string, ar: string, minPop: number]> = [
  ['Carrefour', 'كارفور', 150_000],
  ['Carrefour Market', 'كارفور ماركت', 20_000],
  ['Monoprix', 'مونوبري', 20_000],
  ['Magasin Général', 'المغازة العامة', 10_000],
  ['Aziza', 'عزيزة', 0],
  ['Géant', 'جيان', 250_000],
]

/** Small shops: [French kind, English kind, Arabic kind]. */
export const SHOP_KINDS: ReadonlyArray<readonly [fr: string, en: string, ar: string]> = [
  ['Boulangerie', 'Bakery', 'مخبزة'],
  ['Pâtisserie', 'Pastry shop', 'مرطبات'],
  ['Épicerie', 'Grocery', 'مواد غذائية'],
  ['Boucherie', 'Butcher', 'جزارة'],
  ['Librairie', 'Bookshop', 'مكتبة'],
  ['Quincaillerie', 'Hardware store', 'خردوات'],
  ['Parfumerie', 'Perfumery', 'عطورات'],
  ['Prêt-à-porter', 'Clothing store', 'ملابس جاهزة'],
]
