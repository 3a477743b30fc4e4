import type { Names } from './lang.ts'
import { TGM_STATIONS } from './tgm.ts'

/** The kinds of landmark in the list (each maps to the nearby endpoint's categories). */
export type LandmarkKind =
  | 'mosque'
  | 'church'
  | 'synagogue'
  | 'museum'
  | 'theatre'
  | 'stadium'
  | 'archaeological_site'
  | 'hospital'
  | 'station'
  | 'monument'
  | 'fort'
  | 'palace'

/** A real place, where it stands (WGS84), with its names and the public page its point was read from. */
interface Landmark {
  id: string
  kind: LandmarkKind
  name: Names
  /** Other names people search it by. */
  aliases?: string[]
  /** The town it is in, as the gazetteer names it. */
  city: string
  lat: number
  lng: number
  /** Where the coordinates were read (Wikipedia and its mirrors mostly; see `docs` in the README). */
  source: string
  /** This is the great mosque of that town: no generated "Grande Mosquée" is made there. */
  greatMosqueOf?: string
}

const TGM_SOURCE =
  'https://wikipedia.org/wiki/Tunis-Goulette-Marsa (the station, its order); coordinates: two public GitHub data files, their mean or one of them (src/data/tgm.ts says which)'

/**
 * The stations as landmarks (kind `station`), so that the geocoder finds them ("Gare TGM La
 * Goulette", "Station Carthage Byrsa") and the map draws them. Tunis Marine is a landmark already
 * (src/data/landmarks.ts, at fr.wikipedia's point).
 */
const TGM_LANDMARKS: readonly Landmark[] = TGM_STATIONS.filter((s) => s.id !== 'tunis-marine').map((s) => ({
  id: `gare-tgm-${s.id}`,
  kind: 'station',
  name: { fr: `Gare TGM ${s.fr}`, en: `${s.fr} TGM station`, ar: `محطة ${s.ar}` },
  aliases: [`Station ${s.fr}`, `Gare de ${s.fr}`, `TGM ${s.fr}`, `Station TGM ${s.fr}`],
  city: tgmTown(s.id),
  lat: s.lat,
  lng: s.lng,
  source: TGM_SOURCE,
}))

/** The town a station is in, as the gazetteer names it. */
function tgmTown(id: string): string {
  if (id === 'le-bac' || id.startsWith('la-goulette') || id === 'nouvelle-goulette' || id === 'khereddine')
    return 'La Goulette'
  if (id === 'l-aeroport' || id === 'le-kram') return 'Le Kram'
  if (id.startsWith('carthage')) return 'Carthage'
  if (id === 'sidi-bou-said') return 'Sidi Bou Saïd'
  return 'La Marsa'
}

/**
 * Landmarks of the main cities, placed at the building or site (facts: names and coordinates,
 * each read from the public page in `source`, mostly Wikipedia articles' coordinates; Arabic
 * names from the same pages, or their common Arabic name where the page had none). Collected
 * for tmaps-mock in November 2026; the README lists how, and what was not found.
 */
// biome-ignore format: a table reads best with one landmark a line
export const LANDMARKS: readonly Landmark[] = [
  { id: 'mosquee-zitouna', kind: 'mosque', name: { fr: "Mosquée Zitouna", en: "Al-Zaytuna Mosque", ar: "جامع الزيتونة" }, aliases: ["Grande Mosquée de Tunis", "Jamaa Zitouna", "Mosquée Ez-Zitouna"], city: "Tunis", lat: 36.7972, lng: 10.1711, greatMosqueOf: 'Tunis', source: "https://review.clateway.com/wiki/view_html.php?q=Al-Zaytuna_Mosque" },
  { id: 'cathedrale-saint-vincent-de-paul-de-tunis', kind: 'church', name: { fr: "Cathédrale Saint-Vincent-de-Paul de Tunis", en: "Cathedral of St. Vincent de Paul", ar: "كاتدرائية القديس فنسون دو بول بتونس" }, aliases: ["Cathédrale de Tunis"], city: "Tunis", lat: 36.8, lng: 10.178889, source: "http://fr.wikipedia.org/wiki/Cathédrale_Saint-Vincent-de-Paul_de_Tunis?ns=0&oldid=184506271" },
  { id: 'theatre-municipal-de-tunis', kind: 'theatre', name: { fr: "Théâtre municipal de Tunis", en: "Municipal Theatre of Tunis", ar: "المسرح البلدي بتونس" }, city: "Tunis", lat: 36.7992, lng: 10.1808, source: "https://it.aroundus.com/p/9630183-teatro-municipal-de-tunez" },
  { id: 'musee-national-du-bardo', kind: 'museum', name: { fr: "Musée national du Bardo", en: "Bardo National Museum", ar: "المتحف الوطني بباردو" }, aliases: ["Musée du Bardo"], city: "Le Bardo", lat: 36.809386, lng: 10.134508, source: "http://en.wikipedia.org/wiki/Bardo_National_Museum" },
  { id: 'porte-de-france', kind: 'monument', name: { fr: "Porte de France", en: "Bab el Bhar (Sea Gate)", ar: "باب البحر" }, aliases: ["Bab el Bhar", "Bab Bhar"], city: "Tunis", lat: 36.799165, lng: 10.175618, source: "https://en.m.wikipedia.org/wiki/Bab_el_Bhar" },
  { id: 'gare-de-tunis', kind: 'station', name: { fr: "Gare de Tunis", en: "Tunis railway station", ar: "محطة تونس" }, aliases: ["Gare centrale de Tunis", "Gare de Tunis Barcelone"], city: "Tunis", lat: 36.795, lng: 10.180556, source: "https://www.wikizero.com/fr/Gare_de_Tunis" },
  { id: 'gare-de-tunis-marine', kind: 'station', name: { fr: "Gare de Tunis Marine", en: "Tunis Marine station", ar: "محطة تونس البحرية" }, city: "Tunis", lat: 36.80066, lng: 10.19192, source: "https://iiab.me/kiwix/content/wikipedia_fr_all_maxi_2022-09/A/Gare_de_Tunis_Marine (its rounded 36°48′00″N 10°11′55″E lies ~590 m east, in Lake Tunis: the point is the TGM station's of src/data/tgm.ts, where two public files agree within 17 m)" },
  { id: 'stade-hammadi-agrebi', kind: 'stadium', name: { fr: "Stade Hammadi-Agrebi", en: "Hammadi Agrebi Stadium", ar: "ملعب حمادي العقربي" }, aliases: ["Stade olympique de Radès", "Stade de Radès"], city: "Radès", lat: 36.74778, lng: 10.27278, source: "https://en.m.wikipedia.org./wiki/Stade_du_7_Novembre" },
  { id: 'stade-olympique-d-el-menzah', kind: 'stadium', name: { fr: "Stade olympique d'El Menzah", en: "El Menzah Stadium", ar: "الملعب الأولمبي المنزه" }, city: "Tunis", lat: 36.839778, lng: 10.185361, source: "https://enwikipedia.net/wiki/Stade_El_Menzah" },
  { id: 'hopital-charles-nicolle', kind: 'hospital', name: { fr: "Hôpital Charles-Nicolle", en: "Charles Nicolle Hospital", ar: "مستشفى شارل نيكول" }, city: "Tunis", lat: 36.802222, lng: 10.161111, source: "https://franco.wiki/fr/H%C3%B4pital_Charles-Nicolle.html" },
  { id: 'hopital-aziza-othmana', kind: 'hospital', name: { fr: "Hôpital Aziza-Othmana", en: "Aziza Othmana Hospital", ar: "مستشفى عزيزة عثمانة" }, city: "Tunis", lat: 36.804479, lng: 10.168527, source: "https://hessslslslsls.azureedge.net/wiki/List_of_hospitals_in_Tunisia" },
  { id: 'hopital-d-enfants-bechir-hamza', kind: 'hospital', name: { fr: "Hôpital d'enfants Béchir-Hamza", en: "Béchir-Hamza Children's Hospital", ar: "مستشفى الأطفال البشير حمزة" }, city: "Tunis", lat: 36.806965, lng: 10.159248, source: "https://hessslslslsls.azureedge.net/wiki/List_of_hospitals_in_Tunisia" },
  { id: 'hopital-mongi-slim', kind: 'hospital', name: { fr: "Hôpital Mongi-Slim", en: "Mongi Slim Hospital", ar: "مستشفى المنجي سليم" }, city: "La Marsa", lat: 36.867222, lng: 10.291111, source: "https://fr.teknopedia.teknokrat.ac.id/wiki/H%C3%B4pital_Mongi-Slim_de_La_Marsa" },
  { id: 'bab-saadoun', kind: 'monument', name: { fr: "Bab Saadoun", en: "Bab Saadoun", ar: "باب سعدون" }, city: "Tunis", lat: 36.808681, lng: 10.159028, source: "https://fr.nearbywiki.org/detail/1132472" },
  { id: 'tourbet-el-bey', kind: 'monument', name: { fr: "Tourbet el Bey", en: "Tourbet el Bey", ar: "تربة الباي" }, city: "Tunis", lat: 36.793653, lng: 10.173042, source: "http://piglix.com/piglix/Tourbet_el_Bey" },
  { id: 'grande-synagogue-de-tunis', kind: 'synagogue', name: { fr: "Grande synagogue de Tunis", en: "Great Synagogue of Tunis", ar: "كنيس تونس" }, city: "Tunis", lat: 36.810278, lng: 10.18, source: "https://wikious.com/fr/Grande_synagogue_de_Tunis" },
  { id: 'mosquee-youssef-dey', kind: 'mosque', name: { fr: "Mosquée Youssef Dey", en: "Youssef Dey Mosque", ar: "جامع يوسف داي" }, city: "Tunis", lat: 36.797, lng: 10.1695, source: "https://it.aroundus.com/p/9629961-youssef-dey-mosque" },
  { id: 'mosquee-de-la-kasbah', kind: 'mosque', name: { fr: "Mosquée de la Kasbah", en: "Kasbah Mosque", ar: "جامع القصبة" }, city: "Tunis", lat: 36.79667, lng: 10.16778, source: "https://en.wikipedia.org/wiki/Kasbah_Mosque" },
  { id: 'mosquee-hammouda-pacha', kind: 'mosque', name: { fr: "Mosquée Hammouda-Pacha", en: "Hammouda Pacha Mosque", ar: "جامع حمودة باشا" }, city: "Tunis", lat: 36.79833, lng: 10.17083, source: "https://en.wikipedia.org/wiki/Hammouda_Pacha_Mosque" },
  { id: 'thermes-d-antonin', kind: 'archaeological_site', name: { fr: "Thermes d'Antonin", en: "Baths of Antoninus", ar: "حمامات أنطونيوس" }, city: "Carthage", lat: 36.854321, lng: 10.335104, source: "https://wikivisually.com/wiki/Baths_of_Antoninus" },
  { id: 'acropolium-de-carthage', kind: 'church', name: { fr: "Acropolium de Carthage", en: "Acropolium of Carthage (Saint Louis Cathedral)", ar: "الأكروبوليوم" }, aliases: ["Cathédrale Saint-Louis de Carthage"], city: "Carthage", lat: 36.853784, lng: 10.323356, source: "https://review.clateway.com/wiki/view_html.php?q=Acropolium_of_Carthage" },
  { id: 'musee-national-de-carthage', kind: 'museum', name: { fr: "Musée national de Carthage", en: "Carthage National Museum", ar: "المتحف الوطني بقرطاج" }, aliases: ["Colline de Byrsa", "Musée de Carthage"], city: "Carthage", lat: 36.8533, lng: 10.324, source: "http://piglix.com/piglix/Carthage_National_Museum" },
  { id: 'ports-puniques-de-carthage', kind: 'archaeological_site', name: { fr: "Ports puniques de Carthage", en: "Carthage Punic Ports", ar: "الموانئ البونية بقرطاج" }, city: "Carthage", lat: 36.845561, lng: 10.325458, source: "https://review.clateway.com/wiki/view_html.php?q=Carthage_Punic_Ports&sq=Qlik" },
  { id: 'mosquee-malik-ibn-anas', kind: 'mosque', name: { fr: "Mosquée Mâlik ibn Anas", en: "Malik ibn Anas Mosque", ar: "جامع مالك بن أنس" }, city: "Carthage", lat: 36.859444, lng: 10.328889, source: "https://it.frwiki.wiki/wiki/Mosqu%C3%A9e_M%C3%A2lik_ibn_Anas" },
  { id: 'palais-presidentiel-de-carthage', kind: 'palace', name: { fr: "Palais présidentiel de Carthage", en: "Carthage Palace", ar: "قصر قرطاج" }, city: "Carthage", lat: 36.85694, lng: 10.33861, source: "https://wikiclassic.com/wiki/Carthage_Palace" },
  { id: 'grande-mosquee-de-kairouan', kind: 'mosque', name: { fr: "Grande Mosquée de Kairouan", en: "Great Mosque of Kairouan (Mosque of Uqba)", ar: "جامع عقبة" }, aliases: ["Mosquée Oqba Ibn Nafaa", "Mosquée Sidi Okba"], city: "Kairouan", lat: 35.681528, lng: 10.104006, greatMosqueOf: 'Kairouan', source: "https://tripomatic.com/de/poi/grosse-moschee-von-kairouan-poi:8789" },
  { id: 'mosquee-des-trois-portes', kind: 'mosque', name: { fr: "Mosquée des Trois Portes", en: "Mosque of the Three Doors", ar: "جامع الأبواب الثلاثة" }, city: "Kairouan", lat: 35.678892, lng: 10.103794, source: "https://nabataea.net/explore/cities_and_sites/three-doors-mosque/" },
  { id: 'stade-olympique-de-sousse', kind: 'stadium', name: { fr: "Stade olympique de Sousse", en: "Sousse Olympic Stadium", ar: "الملعب الأولمبي بسوسة" }, city: "Sousse", lat: 35.823333, lng: 10.612778, source: "http://fr.wikipedia.org/wiki/Stade_olympique_de_Sousse" },
  { id: 'mausolee-habib-bourguiba', kind: 'monument', name: { fr: "Mausolée Habib-Bourguiba", en: "Bourguiba Mausoleum", ar: "ضريح بورقيبة" }, aliases: ["Mausolée Bourguiba"], city: "Monastir", lat: 35.77775, lng: 10.828464, source: "https://review.clateway.com/wiki/view_html.php?q=Bourguiba_mausoleum&sq=Qlik" },
  { id: 'skifa-el-kahla', kind: 'monument', name: { fr: "Skifa El Kahla", en: "Skifa Kahla (Bab Zouila)", ar: "السقيفة الكحلة" }, city: "Mahdia", lat: 35.50391, lng: 11.06859, source: "https://aroundus.com/p/10035600-skifa-el-kahla" },
  { id: 'grande-mosquee-de-mahdia', kind: 'mosque', name: { fr: "Grande Mosquée de Mahdia", en: "Great Mosque of Mahdiya", ar: "الجامع الكبير في المهدية" }, city: "Mahdia", lat: 35.503896, lng: 11.072054, greatMosqueOf: 'Mahdia', source: "http://piglix.com/piglix/Great_Mosque_of_Mahdiya" },
  { id: 'amphitheatre-d-el-jem', kind: 'archaeological_site', name: { fr: "Amphithéâtre d'El Jem", en: "Amphitheatre of El Jem", ar: "قصر الجم" }, aliases: ["Colisée d'El Jem"], city: "El Jem", lat: 35.29639, lng: 10.70694, source: "https://www.worldheritagecruise.com/tag/world-heritage-sites/" },
  { id: 'grande-mosquee-de-sfax', kind: 'mosque', name: { fr: "Grande Mosquée de Sfax", en: "Great Mosque of Sfax", ar: "الجامع الكبير بصفاقس" }, city: "Sfax", lat: 34.73611, lng: 10.76083, greatMosqueOf: 'Sfax', source: "http://piglix.com/piglix/Great_Mosque_of_Sfax" },
  { id: 'stade-taieb-mhiri', kind: 'stadium', name: { fr: "Stade Taïeb-Mhiri", en: "Taïeb Mhiri Stadium", ar: "ملعب الطيب المهيري" }, city: "Sfax", lat: 34.73361, lng: 10.74639, source: "https://kiwix.casplantje.nl/wikipedia_en_all_maxi_2018-10/A/Stade_Ta%C3%AFeb_Mhiri.html" },
  { id: 'borj-el-kebir', kind: 'fort', name: { fr: "Borj El Kebir", en: "Borj El Kebir (Borj Ghazi Mustapha)", ar: "البرج الكبير" }, aliases: ["Borj Ghazi Mustapha"], city: "Houmt Souk", lat: 33.88389, lng: 10.86028, source: "https://it.aroundus.com/p/9629418-borj-el-kebir" },
  { id: 'site-archeologique-de-dougga', kind: 'archaeological_site', name: { fr: "Site archéologique de Dougga", en: "Dougga / Thugga", ar: "دڨة" }, aliases: ["Dougga", "Thugga"], city: "Téboursouk", lat: 36.42222, lng: 9.21833, source: "https://followinghadrianphotography.com/category/tunisia/" },
  { id: 'kerkouane', kind: 'archaeological_site', name: { fr: "Kerkouane", en: "Kerkouane (Punic town)", ar: "كركوان" }, city: "El Haouaria", lat: 36.946389, lng: 11.099167, source: "https://review.clateway.com/wiki/view_html.php?q=Kerkouane&sq=Qlik" },
  { id: 'bulla-regia', kind: 'archaeological_site', name: { fr: "Bulla Regia", en: "Bulla Regia", ar: "بولا ريجيا" }, city: "Jendouba", lat: 36.55654, lng: 8.754471, source: "https://tripomatic.com/fr/poi/musee-de-bulla-regia-poi:6300774" },
  { id: 'synagogue-de-la-ghriba', kind: 'synagogue', name: { fr: "Synagogue de la Ghriba", en: "El Ghriba Synagogue", ar: "كنيس الغريبة" }, aliases: ["La Ghriba"], city: "Djerba (Erriadh)", lat: 33.81389, lng: 10.85944, source: "https://review.clateway.com/wiki/view_html.php?q=El_Ghriba_Synagogue" },
  { id: 'grande-mosquee-de-sousse', kind: 'mosque', name: { fr: "Grande Mosquée de Sousse", en: "Great Mosque of Sousse", ar: "الجامع الكبير بسوسة" }, city: "Sousse", lat: 35.826667, lng: 10.639722, greatMosqueOf: 'Sousse', source: "http://wikimapia.org/5451450/de/Grosse-Moschee" },
  { id: 'ribat-de-sousse', kind: 'fort', name: { fr: "Ribat de Sousse", en: "Ribat of Sousse", ar: "رباط سوسة" }, aliases: ["Ribat Sousse"], city: "Sousse", lat: 35.82702, lng: 10.63929, source: "https://www.archnet.org/sites/3762 (\"fifty-five meters northwest of the Great Mosque\": placed so from the Great Mosque of Sousse's point above)" },
  { id: 'stade-mustapha-ben-jannet', kind: 'stadium', name: { fr: "Stade Mustapha-Ben-Jannet", en: "Mustapha Ben Jannet Stadium", ar: "ملعب مصطفى بن جنات" }, aliases: ["Stade de Monastir"], city: "Monastir", lat: 35.776278, lng: 10.819917, source: "https://askwikinow.com/view_html.php?lang=de&q=Stadion_Mustapha_Ben_Jannet&sq=Facebook" },
  { id: 'musee-dar-jellouli', kind: 'museum', name: { fr: "Musée Dar Jellouli", en: "Dar Jellouli Museum", ar: "متحف دار الجلولي" }, city: "Sfax", lat: 34.736944, lng: 10.762222, source: "https://wiki.richxsearch.com/view_html.php?lang=en&q=Dar_Jellouli_Museum&sq=Anonymous+hackers" },
  { id: 'site-archeologique-d-utique', kind: 'archaeological_site', name: { fr: "Site archéologique d'Utique", en: "Utica", ar: "أوتيك" }, aliases: ["Utique", "Utica"], city: "Utique", lat: 37.05694, lng: 10.06194, source: "https://review.clateway.com/wiki/view_html.php?q=Utica%2C_Tunisia" },
  { id: 'thuburbo-majus', kind: 'archaeological_site', name: { fr: "Thuburbo Majus", en: "Thuburbo Majus", ar: "تبربو ماجوس" }, city: "El Fahs", lat: 36.4, lng: 9.90417, source: "https://wikimili.com/en/Thuburbo_Majus" },
  { id: 'chemtou', kind: 'archaeological_site', name: { fr: "Chemtou", en: "Chemtou (Simitthu)", ar: "شمتو" }, aliases: ["Simitthu"], city: "Jendouba", lat: 36.491955, lng: 8.577652, source: "https://tripomatic.com/fr/poi/chemtou-simitthu-poi:16412805" },
  { id: 'table-de-jugurtha', kind: 'monument', name: { fr: "Table de Jugurtha", en: "Table of Jugurtha", ar: "مائدة يوغرطة" }, city: "Kalaat Senan", lat: 35.743278, lng: 8.381917, source: "https://whc.unesco.org/en/tentativelists/6278" },
  // The TGM line's stations (src/data/tgm.ts): where two public data files agree.
  ...TGM_LANDMARKS,
]

/**
 * The grounds of the largest monuments, as a disc around the landmark's point: no generated street
 * crosses them (scripts/build-streets.ts). The disc stands in for the monument's outline (no
 * licensed outline here); its radius is half the monument's published length, or the radius of a
 * disc of its published area.
 */
export const MONUMENT_GROUNDS: readonly { id: string; radiusM: number; source: string }[] = [
  {
    id: 'amphitheatre-d-el-jem',
    radiusM: 74,
    source: "fr.wikipedia.org/wiki/Amphithéâtre_d'El_Jem: 148 m long, 122 m wide",
  },
  { id: 'mosquee-zitouna', radiusM: 40, source: 'fr.wikipedia.org/wiki/Mosquée_Zitouna: 5,000 m²' },
  {
    id: 'grande-mosquee-de-kairouan',
    radiusM: 54,
    source: 'fr.wikipedia.org/wiki/Grande_Mosquée_de_Kairouan: about 9,000 m²',
  },
]

/** The gazetteer's town-level points that a landmark above places precisely (dropped in favour of it). */
export const SUPERSEDED_POIS: ReadonlySet<string> = new Set([
  'landmark:kairouan',
  'landmark:bardo',
  'landmark:el-jem-amphitheatre',
  'landmark:kerkouane',
])

/** Towns whose great mosque is a landmark above. */
export const GREAT_MOSQUE_TOWNS: ReadonlySet<string> = new Set(
  LANDMARKS.flatMap((l) => (l.greatMosqueOf ? [l.greatMosqueOf] : [])),
)

/** Words a search for a kind of landmark may use, in French, English and Arabic. */
export const KIND_WORDS: Readonly<Record<LandmarkKind, string>> = {
  mosque: 'mosquée mosque جامع مسجد',
  church: 'église cathédrale church cathedral كنيسة',
  synagogue: 'synagogue كنيس',
  museum: 'musée museum متحف',
  theatre: 'théâtre theatre مسرح',
  stadium: 'stade stadium ملعب',
  archaeological_site: 'site archéologique ruines archaeological site ruins موقع أثري',
  hospital: 'hôpital hospital مستشفى',
  station: 'gare station محطة',
  monument: 'monument معلم',
  fort: 'fort fortress borj برج حصن',
  palace: 'palais palace قصر',
}
