import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { distanceKm } from '../../data/geo.ts'

const { get } = apiClient('tmaps')

/**
 * Places every Tunisian knows, asked by their own name in French, English and Arabic: the first
 * result is the place (a town, a delegation, a governorate or the island), never a street that
 * carries its name elsewhere ("Rue de Djerba, Tunis"). `km`: how far its answer may be from the
 * town's centre (GeoNames' point; the island's centroid).
 */
const WELL_KNOWN: ReadonlyArray<{ fr: string; en?: string; ar: string; at: [number, number]; km?: number }> =
  [
    { fr: 'Tunis', ar: 'تونس', at: [36.819, 10.166] },
    { fr: 'Sfax', ar: 'صفاقس', at: [34.74, 10.76] },
    { fr: 'Sousse', ar: 'سوسة', at: [35.825, 10.637] },
    { fr: 'Kairouan', ar: 'القيروان', at: [35.678, 10.096] },
    { fr: 'Bizerte', ar: 'بنزرت', at: [37.274, 9.874] },
    { fr: 'Gabès', en: 'Gabes', ar: 'قابس', at: [33.881, 10.098] },
    { fr: 'Ariana', ar: 'أريانة', at: [36.86, 10.193] },
    { fr: 'Gafsa', ar: 'قفصة', at: [34.425, 8.784] },
    { fr: 'Monastir', ar: 'المنستير', at: [35.777, 10.826] },
    { fr: 'Ben Arous', ar: 'بن عروس', at: [36.754, 10.222] },
    { fr: 'Kasserine', ar: 'القصرين', at: [35.168, 8.836] },
    { fr: 'Médenine', en: 'Medenine', ar: 'مدنين', at: [33.354, 10.505] },
    { fr: 'Nabeul', ar: 'نابل', at: [36.456, 10.738] },
    { fr: 'Tataouine', ar: 'تطاوين', at: [32.929, 10.451] },
    { fr: 'Béja', en: 'Beja', ar: 'باجة', at: [36.726, 9.182] },
    { fr: 'Le Kef', en: 'Kef', ar: 'الكاف', at: [36.174, 8.705] },
    { fr: 'Mahdia', ar: 'المهدية', at: [35.504, 11.062] },
    { fr: 'Sidi Bouzid', ar: 'سيدي بوزيد', at: [35.038, 9.485] },
    { fr: 'Jendouba', ar: 'جندوبة', at: [36.501, 8.78] },
    { fr: 'Tozeur', ar: 'توزر', at: [33.919, 8.134] },
    { fr: 'Manouba', ar: 'منوبة', at: [36.81, 10.096] },
    { fr: 'Siliana', ar: 'سليانة', at: [36.085, 9.371] },
    { fr: 'Zaghouan', ar: 'زغوان', at: [36.403, 10.143] },
    { fr: 'Kébili', en: 'Kebili', ar: 'قبلي', at: [33.705, 8.969] },
    { fr: 'Djerba', en: 'Jerba', ar: 'جربة', at: [33.79, 10.88], km: 25 },
    { fr: 'Kerkennah', ar: 'قرقنة', at: [34.71, 11.2], km: 25 },
    { fr: "M'saken", en: 'Msaken', ar: 'مساكن', at: [35.729, 10.581] },
    { fr: 'Houmt Souk', ar: 'حومة السوق', at: [33.876, 10.857] },
    { fr: 'Midoun', ar: 'ميدون', at: [33.808, 10.992] },
    { fr: 'Zarzis', ar: 'جرجيس', at: [33.504, 11.112] },
    { fr: 'Hammamet', ar: 'الحمامات', at: [36.4, 10.617] },
    { fr: 'Kélibia', en: 'Kelibia', ar: 'قليبية', at: [36.847, 11.094] },
    { fr: 'Tabarka', ar: 'طبرقة', at: [36.954, 8.758] },
    { fr: 'Douz', ar: 'دوز', at: [33.457, 9.02] },
    { fr: 'Nefta', ar: 'نفطة', at: [33.873, 7.878] },
    { fr: 'La Marsa', ar: 'المرسى', at: [36.878, 10.325] },
    { fr: 'Carthage', ar: 'قرطاج', at: [36.853, 10.323] },
    { fr: 'La Goulette', ar: 'حلق الوادي', at: [36.818, 10.305] },
    { fr: 'Ksar Hellal', ar: 'قصر هلال', at: [35.643, 10.891] },
    { fr: 'Moknine', ar: 'المكنين', at: [35.629, 10.9] },
    { fr: 'El Jem', ar: 'الجم', at: [35.296, 10.707] },
    { fr: 'Ajim', ar: 'أجيم', at: [33.72, 10.75] },
    { fr: 'Guellala', ar: 'قلالة', at: [33.726, 10.863], km: 6 },
  ]

const CASES = WELL_KNOWN.flatMap((p) =>
  [
    [p.fr, 'fr'],
    [p.en ?? p.fr, 'en'],
    [p.ar, 'ar'],
  ].map(([q, lang]) => ({ q: q!, lang: lang!, place: p })),
)

describe('well-known places find themselves first', () => {
  it.each(CASES)('$q ($lang) answers the place, not a street named after it', async ({ q, lang, place }) => {
    const { status, body } = await get('geocoding/forward', `q=${encodeURIComponent(q)}&lang=${lang}&limit=3`)
    expect(status).toBe(200)
    const [top] = body.results
    expect(top, `no result for ${q}`).toBeDefined()
    expect(top.type, `${q} -> ${top.formatted}`).not.toBe('street')
    expect(top.type, `${q} -> ${top.formatted}`).not.toBe('address')
    const [lat, lng] = place.at
    expect(distanceKm({ lat, lng }, top), `${q} -> ${top.formatted}`).toBeLessThan(place.km ?? 12)
  })
})
