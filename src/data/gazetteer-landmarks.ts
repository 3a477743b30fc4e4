import type { PoiCategory } from './poi.ts'

/**
 * The gazetteer's airports (civil ones), ports and heritage sites as nearby places, with their
 * French, English and Arabic names (the gazetteer carries one name for most).
 */
// biome-ignore format: a table reads best with one place a line
export const GAZETTEER_LANDMARKS: Record<string, { categories: [PoiCategory, ...PoiCategory[]]; name: [fr: string, en: string, ar: string] }> = {
  'airport:DJE': { categories: ['transit'], name: ['Aéroport international de Djerba-Zarzis', 'Djerba–Zarzis International Airport', 'مطار جربة جرجيس الدولي'] },
  'airport:EBM': { categories: ['transit'], name: ["Aéroport d'El Borma", 'El Borma Airport', 'مطار البرمة'] },
  'airport:GAE': { categories: ['transit'], name: ['Aéroport international de Gabès-Matmata', 'Gabès–Matmata International Airport', 'مطار قابس مطماطة الدولي'] },
  'airport:GAF': { categories: ['transit'], name: ['Aéroport international de Gafsa-Ksar', 'Gafsa–Ksar International Airport', 'مطار قفصة القصر الدولي'] },
  'airport:MIR': { categories: ['transit'], name: ['Aéroport international Monastir Habib-Bourguiba', 'Monastir Habib Bourguiba International Airport', 'مطار المنستير الحبيب بورقيبة الدولي'] },
  'airport:NBE': { categories: ['transit'], name: ["Aéroport international d'Enfidha-Hammamet", 'Enfidha–Hammamet International Airport', 'مطار النفيضة الحمامات الدولي'] },
  'airport:SFA': { categories: ['transit'], name: ['Aéroport international de Sfax-Thyna', 'Sfax–Thyna International Airport', 'مطار صفاقس طينة الدولي'] },
  'airport:TBJ': { categories: ['transit'], name: ['Aéroport international de Tabarka-Aïn Draham', 'Tabarka–Aïn Draham International Airport', 'مطار طبرقة عين دراهم الدولي'] },
  'airport:TOE': { categories: ['transit'], name: ['Aéroport international de Tozeur-Nefta', 'Tozeur–Nefta International Airport', 'مطار توزر نفطة الدولي'] },
  'airport:TUN': { categories: ['transit'], name: ['Aéroport international de Tunis-Carthage', 'Tunis–Carthage International Airport', 'مطار تونس قرطاج الدولي'] },
  'port:TNRDS': { categories: ['transit'], name: ['Port de Radès', 'Port of Radès', 'ميناء رادس'] },
  'port:TNLGN': { categories: ['transit'], name: ['Port de La Goulette', 'Port of La Goulette', 'ميناء حلق الوادي'] },
  'port:TNBIZ': { categories: ['transit'], name: ['Port de Bizerte', 'Port of Bizerte', 'ميناء بنزرت'] },
  'port:TNSUS': { categories: ['transit'], name: ['Port de Sousse', 'Port of Sousse', 'ميناء سوسة'] },
  'port:TNSFA': { categories: ['transit'], name: ['Port de Sfax', 'Port of Sfax', 'ميناء صفاقس'] },
  'port:TNGAE': { categories: ['transit'], name: ['Port de Gabès', 'Port of Gabès', 'ميناء قابس'] },
  'port:TNZRZ': { categories: ['transit'], name: ['Port de Zarzis', 'Port of Zarzis', 'ميناء جرجيس'] },
  'port:TNLSK': { categories: ['transit'], name: ['Port de La Skhira', 'Port of La Skhira', 'ميناء الصخيرة'] },
  'landmark:medina-of-tunis': { categories: ['culture'], name: ['Médina de Tunis', 'Medina of Tunis', 'مدينة تونس العتيقة'] },
  'landmark:carthage': { categories: ['culture'], name: ['Site archéologique de Carthage', 'Archaeological Site of Carthage', 'موقع قرطاج الأثري'] },
  'landmark:sidi-bou-said': { categories: ['culture'], name: ['Sidi Bou Saïd', 'Sidi Bou Said', 'سيدي بو سعيد'] },
  'landmark:el-jem-amphitheatre': { categories: ['culture'], name: ["Amphithéâtre d'El Jem", 'Amphitheatre of El Jem', 'قصر الجم'] },
  'landmark:kairouan': { categories: ['culture', 'mosque', 'place_of_worship'], name: ['Grande Mosquée de Kairouan', 'Great Mosque of Kairouan', 'جامع عقبة بن نافع بالقيروان'] },
  'landmark:kerkouane': { categories: ['culture'], name: ['Kerkouane', 'Kerkouane', 'كركوان'] },
  'landmark:bardo': { categories: ['culture'], name: ['Musée national du Bardo', 'Bardo National Museum', 'المتحف الوطني بباردو'] },
  'landmark:matmata': { categories: ['culture'], name: ['Matmata', 'Matmata', 'مطماطة'] },
}
