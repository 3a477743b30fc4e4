/**
 * The famous axes and squares of the largest cities, where they really are. Every point below is
 * either a coordinate read from a public page (named in `SOURCES`, mostly Wikipedia articles'
 * coordinates, CC BY-SA) or a point derived from such points, and each street says which: a street
 * is drawn as straight lines between the squares, gates and buildings its pages name along it
 * (the course between them is an approximation, said so per street). Collected for tmaps-mock in
 * November 2026. The rest of every town's streets is generated (src/data/streets.ts).
 */

/** `[lat, lng]` in WGS84 degrees. */
type Anchor = readonly [lat: number, lng: number]

/** A real street or square: its names, its points, where they come from. */
export interface RealStreet {
  /** The town it belongs to, as the gazetteer names it. */
  town: string
  fr: string
  ar: string
  /** A square is a short street through its point (addresses on it are on the square). */
  square?: true
  /** A lane of a medina (its souks): as narrow as the medina's other lanes, not an avenue. */
  lane?: true
  /** Its course, `[lat, lng]` points in order. */
  points: readonly Anchor[]
  /** Where its points come from, and what is approximated. */
  source: string
  /** The point forward geocoding answers for it (default: the middle of its course). */
  at?: Anchor
}

// Coordinates read from public pages (fr.wikipedia's infobox coordinates unless said).
/** Place de la Victoire (Bab Bhar / Porte de France), 36°47′57″N 10°10′32″E. */
const VICTOIRE: Anchor = [36.79917, 10.17556]
/** Place de l'Indépendance (cathedral, Ibn Khaldoun's statue), 36°47′58″N 10°10′43″E. */
const INDEPENDANCE: Anchor = [36.79944, 10.17861]
/** Place du 14-Janvier 2011 (the clock tower), 36°48′01″N 10°11′10″E. */
const QUATORZE_JANVIER: Anchor = [36.80028, 10.18611]
/**
 * Gare de Tunis Marine (TGM), where the avenue ends: the station's point of src/data/tgm.ts (two
 * public files agree within 17 m); Wikipedia's rounded 36.8, 10.198611 lies ~590 m east, in the lake.
 */
const TUNIS_MARINE: Anchor = [36.80066, 10.19192]
/** Place de la République (Passage), 36°48′21″N 10°10′49″E. */
const REPUBLIQUE: Anchor = [36.80583, 10.18028]
/** Place Pasteur (Belvédère), 36°49′19″N 10°10′43″E. */
const PASTEUR: Anchor = [36.82194, 10.17861]
/** Place de Palestine, 36°48′54″N 10°10′47″E. */
const PALESTINE: Anchor = [36.815, 10.17972]
/** Place Mongi-Bali (beside Place Barcelone and the station), 36°47′44″N 10°10′46″E. */
const MONGI_BALI: Anchor = [36.79556, 10.17944]
/** Gare de Tunis, on the Place Barcelone, 36°47′42″N 10°10′50″E. */
const GARE: Anchor = [36.795, 10.180556]
/** Place de la Kasbah, 36°47′52″N 10°10′03″E. */
const KASBAH: Anchor = [36.79778, 10.1675]
/** Zitouna Mosque (src/data/landmarks.ts). */
const ZITOUNA: Anchor = [36.7972, 10.1711]
/** Bab Saadoun (src/data/landmarks.ts). */
const BAB_SAADOUN: Anchor = [36.808681, 10.159028]
/**
 * Where Avenue de Paris / Avenue de Carthage cross Avenue Habib Bourguiba: on the line from Place
 * Pasteur through Place de la République (the pages say Carthage, Paris and Liberté are one line
 * ending at Place Pasteur), where it meets the line from Place de l'Indépendance to the clock tower.
 * The Théâtre municipal (landmarks.ts, 36.7992, 10.1808) stands at this corner, on the avenue's
 * south side.
 */
const PARIS_CARTHAGE: Anchor = [36.8, 10.1809]
/**
 * The point TMaps' own documentation answers for "Avenue Habib Bourguiba, Tunis" and uses as
 * "Tunis centre" (api-reference.md's forward and reverse samples): on the avenue, by Avenue de Paris.
 */
const DOCS_POINT: Anchor = [36.8002, 10.1815]

/** Mosquée Bourguiba, Monastir, which stands on the Rue de l'Indépendance: 35°46′28″N 10°49′50″E. */
const MONASTIR_BOURGUIBA_MOSQUE: Anchor = [35.7743848, 10.8305025]
/** Musée de Nabeul, on the Avenue Habib-Bourguiba: 36°27′3″N 10°44′11″E. */
const NABEUL_MUSEUM: Anchor = [36.450833, 10.736389]

/** The public pages the points above were read from. */
const SOURCES = {
  victoire: 'https://iiab.me/kiwix/content/wikipedia_fr_all_maxi_2022-09/A/Place_de_la_Victoire_(Tunis)',
  independance: "https://fr.wikipedia.org/wiki/Place_de_l'Indépendance_(Tunis)",
  quatorzeJanvier: 'https://fr.m.wikipedia.org/wiki/Place_du_14-Janvier_2011_(Tunis)',
  republique: 'https://fr.wikipedia.org/wiki/Place_de_la_République_(Tunis) (mirror opmmarketplace.com)',
  pasteur: 'https://iiab.me/kiwix/content/wikipedia_fr_all_maxi_2022-09/A/Place_Pasteur_(Tunis)',
  palestine: 'https://nl.frwiki.wiki/wiki/Place_de_Palestine_(Tunis)',
  mongiBali: 'https://es.frwiki.wiki/wiki/Place_Mongi-Bali_(Tunis)',
  kasbah: 'https://www.wikizero.net/wiki/fr/Place_de_la_Kasbah_(Tunis)',
  gare: 'https://www.wikizero.com/fr/Gare_de_Tunis (the Gare de Tunis, 36°47′42″N 10°10′50″E, "située sur la place de Barcelone")',
  bourguiba:
    'https://kampuspedia.com/fr/Avenue_Habib-Bourguiba (from Place de l’Indépendance to Gare de Tunis-Marine; its crossings in order) and https://fr.qwe.wiki/wiki/Avenue_Habib_Bourguiba (36.800054, 10.185184)',
  carthage:
    'https://www.webdo.tn/fr/actualite/chroniques/neuf-nuances-presque-oubliees-de-lavenue-de-carthage/187884 (Carthage continues Paris and Liberté; Place Pasteur at the other end; it leads to the station and Place Barcelone)',
  rome: 'https://franco.wiki/fr/Rue_de_Rome_(Tunis).html (from Place de l’Indépendance north to Avenue Habib-Thameur; prolonged south by Rue Jamel-Abdennasser)',
  zitouna:
    'https://archive-photo-tunisie.blogspot.com/2011/06/divers.html (from Bab el Bhar the Rue Jamâ ez-Zitouna runs to the Great Mosque)',
  sousse: 'src/data/landmarks.ts (Great Mosque of Sousse, Stade olympique de Sousse)',
  sfax: 'src/data/landmarks.ts (Great Mosque of Sfax, Dar Jellouli) and http://alecso.info/virtualvisits/sfax (Hôtel de ville at the crossing of Avenue Habib Bourguiba and Avenue Hédi Chaker)',
  monastir:
    "https://franco.wiki/fr/Mosquée_Bourguiba.html (fr.wikipedia: the mosque is in Monastir, rue de l'Indépendance, 35° 46′ 28″ N, 10° 49′ 50″ E) and the en.wikipedia article's 35.7743848, 10.8305025 (mirror bafybeiemxf5….ipfs.cf-ipfs.com/wiki/Hanafi_Mosque_of_Bourguiba.html)",
  nabeul:
    'https://de.wikiup.org/wiki/Museum_von_Nabeul (de.wikipedia: the museum at 36° 27′ 3″ N, 10° 44′ 11″ E), http://commune-nabeul.gov.tn (the commune gives its address: Rue Habib Bourguiba), https://1001tunisia.com/?p=21565 (from the Place de la Jarre, 50 m on foot towards the sea on Habib-Bourguiba Avenue to the museum) and https://magazine.lapresse.tn/?p=211944 (the boulevard Habib Bourguiba was laid out in 1962 from the jarre, by the station, to the sea)',
} as const

/** A point `m` metres east and `n` metres north of `a`. */
function offset(a: Anchor, east: number, north: number): Anchor {
  return [a[0] + north / 110_540, a[1] + east / (111_320 * Math.cos((a[0] * Math.PI) / 180))]
}

/** A square: a short street through its point, ~60 m long east-west. */
function square(town: string, fr: string, ar: string, at: Anchor, source: string): RealStreet {
  return { town, fr, ar, square: true, points: [offset(at, -30, 0), at, offset(at, 30, 0)], source }
}

/** A point on the line from `a` to `b` at fraction `t`. */
const along = (a: Anchor, b: Anchor, t: number): Anchor => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
]

// Sousse and Sfax: points of src/data/landmarks.ts.
const SOUSSE_GREAT_MOSQUE: Anchor = [35.826667, 10.639722]
const SFAX_GREAT_MOSQUE: Anchor = [34.73611, 10.76083]

/**
 * The real streets and squares, town by town. A street's own page or the pages of the squares at
 * its ends give its course; where only its ends are known, it is drawn straight between them.
 */
// biome-ignore format: a table
export const REAL_STREETS: readonly RealStreet[] = [
  // Tunis: the Ville Nouvelle's axes.
  { town: 'Tunis', fr: 'Avenue de France', ar: 'شارع فرنسا', points: [VICTOIRE, INDEPENDANCE],
    source: `${SOURCES.victoire}; ${SOURCES.independance} (its two ends; straight between them)` },
  { town: 'Tunis', fr: 'Avenue Habib Bourguiba', ar: 'شارع الحبيب بورقيبة', points: [INDEPENDANCE, PARIS_CARTHAGE, DOCS_POINT, QUATORZE_JANVIER, TUNIS_MARINE], at: DOCS_POINT,
    source: `${SOURCES.bourguiba}; ${SOURCES.quatorzeJanvier}; TMaps' documentation's sample point (straight between the squares it crosses)` },
  { town: 'Tunis', fr: 'Avenue Mohamed V', ar: 'شارع محمد الخامس', points: [QUATORZE_JANVIER, along(QUATORZE_JANVIER, PASTEUR, 0.5), PASTEUR],
    source: `${SOURCES.quatorzeJanvier}; ${SOURCES.pasteur} (both squares name it; straight between them: an approximation)` },
  { town: 'Tunis', fr: 'Avenue de la Liberté', ar: 'شارع الحرية', points: [REPUBLIQUE, along(REPUBLIQUE, PASTEUR, 0.5), PASTEUR],
    source: `${SOURCES.republique}; ${SOURCES.pasteur} (it starts at Place de la République and reaches Place Pasteur; straight between them: an approximation)` },
  { town: 'Tunis', fr: 'Avenue de Paris', ar: 'شارع باريس', points: [PARIS_CARTHAGE, along(PARIS_CARTHAGE, REPUBLIQUE, 0.5), REPUBLIQUE],
    source: `${SOURCES.republique}; ${SOURCES.carthage}` },
  { town: 'Tunis', fr: 'Avenue de Carthage', ar: 'شارع قرطاج', points: [PARIS_CARTHAGE, [36.795, 10.1814], [36.7905, 10.1819]],
    source: `${SOURCES.carthage} (south of Bourguiba on the line of Paris and Liberté, past the station; where it ends, 36.7905, is an approximation)` },
  { town: 'Tunis', fr: 'Rue de Rome', ar: 'نهج روما', points: [INDEPENDANCE, [36.8013, 10.1787], [36.803, 10.1787]],
    source: `${SOURCES.rome}; ${SOURCES.independance} (its north end at Avenue Habib-Thameur, 36.803, is an approximation)` },
  { town: 'Tunis', fr: 'Avenue Habib Thameur', ar: 'شارع الحبيب ثامر', points: [[36.803, 10.1787], REPUBLIQUE],
    source: `${SOURCES.rome}; ${SOURCES.republique} (from the end of Rue de Rome to Place de la République; straight: an approximation)` },
  { town: 'Tunis', fr: 'Rue Jamel Abdennasser', ar: 'نهج جمال عبد الناصر', points: [INDEPENDANCE, [36.7975, 10.1788], [36.7957, 10.1789]],
    source: `${SOURCES.rome}; ${SOURCES.mongiBali} (it prolongs Rue de Rome south to Place Mongi-Bali's west side)` },
  { town: 'Tunis', fr: 'Rue de Marseille', ar: 'نهج مرسيليا', points: [[36.79982, 10.182], [36.8025, 10.1818], [36.805, 10.1815]],
    source: `${SOURCES.bourguiba} (it meets Bourguiba on its north side just east of Avenue de Paris, which it runs beside; its course north is an approximation)` },
  { town: 'Tunis', fr: 'Rue Jemaa Zitouna', ar: 'نهج جامع الزيتونة', lane: true, points: [VICTOIRE, along(VICTOIRE, ZITOUNA, 0.5), along(VICTOIRE, ZITOUNA, 0.91)],
    source: `${SOURCES.zitouna}; ${SOURCES.victoire}; Zitouna Mosque in src/data/landmarks.ts (straight between them; the real lane bends; it ends at the mosque's east front, ~40 m short of the mosque's point)` },
  { town: 'Tunis', fr: 'Rue de la Kasbah', ar: 'نهج القصبة', lane: true, points: [VICTOIRE, [36.7992, 10.1715], KASBAH],
    source: `${SOURCES.victoire}; ${SOURCES.kasbah} (from Bab Bhar west to the Kasbah; its bend, 36.7992, 10.1715, is an approximation)` },
  { town: 'Tunis', fr: 'Boulevard du 9 Avril 1938', ar: 'شارع 9 أفريل 1938', points: [BAB_SAADOUN, [36.8035, 10.1618], [36.7995, 10.1652]],
    source: 'Bab Saadoun in src/data/landmarks.ts; the boulevard runs south from it along the Medina\'s west side towards the Kasbah (course read by the engineer from the city\'s layout: an approximation)' },
  { town: 'Tunis', fr: 'Boulevard Bab Bnet', ar: 'شارع باب بنات', points: [[36.7995, 10.1652], KASBAH],
    source: `${SOURCES.kasbah} (the square names it; its course north of the square is an approximation)` },
  // Tunis: squares.
  square('Tunis', 'Place de la Victoire', 'ساحة النصر', VICTOIRE, SOURCES.victoire),
  square('Tunis', "Place de l'Indépendance", 'ساحة الاستقلال', INDEPENDANCE, SOURCES.independance),
  square('Tunis', 'Place du 14 Janvier 2011', 'ساحة 14 جانفي 2011', QUATORZE_JANVIER, SOURCES.quatorzeJanvier),
  square('Tunis', 'Place de la République', 'ساحة الجمهورية', REPUBLIQUE, SOURCES.republique),
  square('Tunis', 'Place Pasteur', 'ساحة باستور', PASTEUR, SOURCES.pasteur),
  square('Tunis', 'Place de Palestine', 'ساحة فلسطين', PALESTINE, SOURCES.palestine),
  square('Tunis', 'Place Mongi Bali', 'ساحة المنجي بالي', MONGI_BALI, SOURCES.mongiBali),
  square('Tunis', 'Place de la Kasbah', 'ساحة القصبة', KASBAH, SOURCES.kasbah),
  { town: 'Tunis', fr: 'Place Barcelone', ar: 'ساحة برشلونة', square: true, points: [GARE, [36.7958, 10.1812]], at: [36.7958, 10.1812],
    source: `${SOURCES.gare} (the station stands on the place: the square runs from it north-east to the middle of the place src/map/land-use.ts draws, ~105 m; an approximation)` },
  // Sousse: the Great Mosque stands at the Medina's north-east corner by Bab Bhar; the modern town's
  // main avenue runs north from there (its course read by the engineer from the city's layout).
  { town: 'Sousse', fr: 'Avenue Habib Bourguiba', ar: 'شارع الحبيب بورقيبة', points: [offset(SOUSSE_GREAT_MOSQUE, 120, 60), offset(SOUSSE_GREAT_MOSQUE, 60, 450), offset(SOUSSE_GREAT_MOSQUE, -40, 900)],
    source: `${SOURCES.sousse} (its start by the Great Mosque; its course north: an approximation)` },
  square('Sousse', 'Place Farhat Hached', 'ساحة فرحات حشاد', offset(SOUSSE_GREAT_MOSQUE, 120, 60),
    `${SOURCES.sousse} (Bab Bhar's square beside the Great Mosque: an approximation of its centre)`),
  // Sfax: the Medina's Great Mosque; the colonial Bab Bhar quarter lies south of the walls, where
  // Avenue Habib Bourguiba and Avenue Hédi Chaker cross at the Hôtel de ville.
  { town: 'Sfax', fr: 'Avenue Hédi Chaker', ar: 'شارع الهادي شاكر', points: [offset(SFAX_GREAT_MOSQUE, -60, -420), offset(SFAX_GREAT_MOSQUE, -20, -700), offset(SFAX_GREAT_MOSQUE, 20, -980)],
    source: `${SOURCES.sfax} (south from Bab Diwan to the Hôtel de ville; distances from the mosque are an approximation)` },
  { town: 'Sfax', fr: 'Avenue Habib Bourguiba', ar: 'شارع الحبيب بورقيبة', points: [offset(SFAX_GREAT_MOSQUE, -700, -690), offset(SFAX_GREAT_MOSQUE, -20, -700), offset(SFAX_GREAT_MOSQUE, 700, -710)],
    source: `${SOURCES.sfax} (east-west through the Hôtel de ville; its course is an approximation)` },
  // Nabeul: the avenue runs from the Place de la Jarre past the museum (50 m on) to the sea. Its
  // course beyond the museum is drawn straight south, towards the nearest shore of the land mask
  // (1.1 km): an approximation; the jarre is put 50 m from the museum the other way.
  { town: 'Nabeul', fr: 'Avenue Habib Bourguiba', ar: 'شارع الحبيب بورقيبة', points: [offset(NABEUL_MUSEUM, 0, 50), NABEUL_MUSEUM, offset(NABEUL_MUSEUM, 0, -500), offset(NABEUL_MUSEUM, 0, -950)], at: NABEUL_MUSEUM,
    source: `${SOURCES.nabeul} (the jarre and the museum are on it; its course towards the sea, straight south, is an approximation)` },
  square('Nabeul', 'Place de la Jarre', 'ساحة الجرة', offset(NABEUL_MUSEUM, 0, 50),
    `${SOURCES.nabeul} (50 m from the museum, away from the sea: an approximation of its centre)`),
  // Monastir: the Rue de l'Indépendance, known here by one point (the Mosquée Bourguiba on it); its
  // course, 150 m either side east-west, is an approximation.
  { town: 'Monastir', fr: "Rue de l'Indépendance", ar: 'نهج الاستقلال', points: [offset(MONASTIR_BOURGUIBA_MOSQUE, -150, 0), MONASTIR_BOURGUIBA_MOSQUE, offset(MONASTIR_BOURGUIBA_MOSQUE, 150, 0)], at: MONASTIR_BOURGUIBA_MOSQUE,
    source: `${SOURCES.monastir} (one point; its orientation is an approximation)` },
]
