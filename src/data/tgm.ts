/**
 * The TGM (Tunis - La Goulette - La Marsa) line and its 18 stations, in order from Tunis Marine.
 *
 * Where the points come from (facts: names and coordinates; collected for tmaps-mock in November
 * 2026). No station page with coordinates was found besides Tunis Marine's, so each station's point
 * is the mean of two public GitHub source files that list all 18 stations with coordinates,
 * apparently independently of each other (different spellings, precisions and stop lists):
 * - A: a Python seed script of Tunis transit stations ("Seeding Key Stations...", TGM stops
 *   st-566 to st-583), coordinates to 7 decimals;
 * - B: a JavaScript data file of a Tunis journey planner ("Contient les données de l'application ( stations :
 *   TGM + Métros, graphe des stations )"), coordinates to 5 decimals. The station names and their order are
 *   those of the line's Wikipedia article (https://wikipedia.org/wiki/Tunis-Goulette-Marsa) and Transtu's
 *   notices (directinfo, 2023-10). From Tunis Marine to Carthage Hannibal the two files agree within 100 m
 *   (most within 20 m) and the point is their mean (`uncertainM`: half their distance). From Carthage
 *   Présidence to Marsa Plage they differ by 200 to 670 m; there the point is file A's, the one whose course
 *   runs as the line does (north up the coast, then west along the Corniche into La Marsa, its terminus ~300
 *   m from the gazetteer's La Marsa, 36.87818, 10.32466; file B's is ~950 m east of it), and `uncertainM` is
 *   the whole distance to file B's point: those six are approximations. fr.wikipedia gives Tunis Marine at
 *   36°48′00″N 10°11′55″E, ~590 m east of both files' point, in Lake Tunis: the landmark and the line stand
 *   at the files' point.
 *
 * The line is drawn straight from station to station (its curves between them are an
 * approximation); from Tunis Marine to Le Bac it crosses Lake Tunis on its causeway (9 km), a real
 * crossing of the water. The Arabic names are the stations' common Arabic names, written for
 * tmaps-mock (no page was read for them).
 */
interface TgmStation {
  id: string
  fr: string
  ar: string
  lat: number
  lng: number
  /** How far the point may be off, in metres (see above). */
  uncertainM: number
}

// biome-ignore format: a table
export const TGM_STATIONS: readonly TgmStation[] = [
  { id: 'tunis-marine', fr: 'Tunis Marine', ar: 'تونس البحرية', lat: 36.80066, lng: 10.19192, uncertainM: 17 },
  { id: 'le-bac', fr: 'Le Bac', ar: 'الباك', lat: 36.8142, lng: 10.29242, uncertainM: 4 },
  { id: 'la-goulette', fr: 'La Goulette', ar: 'حلق الوادي', lat: 36.81804, lng: 10.30195, uncertainM: 2 },
  { id: 'nouvelle-goulette', fr: 'Nouvelle Goulette', ar: 'حلق الوادي الجديدة', lat: 36.81987, lng: 10.3056, uncertainM: 3 },
  { id: 'la-goulette-casino', fr: 'La Goulette Casino', ar: 'حلق الوادي الكازينو', lat: 36.82399, lng: 10.30862, uncertainM: 27 },
  { id: 'khereddine', fr: 'Khereddine', ar: 'خير الدين', lat: 36.82885, lng: 10.31157, uncertainM: 8 },
  { id: 'l-aeroport', fr: "L'Aéroport", ar: 'المطار', lat: 36.83199, lng: 10.31387, uncertainM: 5 },
  { id: 'le-kram', fr: 'Le Kram', ar: 'الكرم', lat: 36.83625, lng: 10.31662, uncertainM: 9 },
  { id: 'carthage-salammbo', fr: 'Carthage Salammbô', ar: 'قرطاج صلامبو', lat: 36.84162, lng: 10.31912, uncertainM: 9 },
  { id: 'carthage-byrsa', fr: 'Carthage Byrsa', ar: 'قرطاج بيرصة', lat: 36.84618, lng: 10.32184, uncertainM: 6 },
  { id: 'carthage-dermech', fr: 'Carthage Dermech', ar: 'قرطاج درمش', lat: 36.85011, lng: 10.32559, uncertainM: 2 },
  { id: 'carthage-hannibal', fr: 'Carthage Hannibal', ar: 'قرطاج حنبعل', lat: 36.85382, lng: 10.32942, uncertainM: 49 },
  { id: 'carthage-presidence', fr: 'Carthage Présidence', ar: 'قرطاج الرئاسة', lat: 36.85828, lng: 10.33401, uncertainM: 383 },
  { id: 'carthage-amilcar', fr: 'Carthage Amilcar', ar: 'قرطاج أميلكار', lat: 36.86476, lng: 10.33718, uncertainM: 206 },
  { id: 'sidi-bou-said', fr: 'Sidi Bou Saïd', ar: 'سيدي بوسعيد', lat: 36.87126, lng: 10.33924, uncertainM: 263 },
  { id: 'sidi-dhrif', fr: 'Sidi Dhrif', ar: 'سيدي الظريف', lat: 36.87693, lng: 10.33675, uncertainM: 297 },
  { id: 'la-corniche', fr: 'La Corniche', ar: 'الكورنيش', lat: 36.88219, lng: 10.33276, uncertainM: 647 },
  { id: 'marsa-plage', fr: 'Marsa Plage', ar: 'المرسى الشاطئ', lat: 36.8804, lng: 10.3268, uncertainM: 669 },
]

/** The line's course, `[lat, lng]` points: straight from station to station. */
export const TGM_LINE: readonly (readonly [number, number])[] = TGM_STATIONS.map(
  (s) => [s.lat, s.lng] as const,
)

/**
 * The line's stretches over the water: the causeway across Lake Tunis from Tunis Marine to Le Bac,
 * and on from Le Bac to La Goulette by the canal, where the land mask is too coarse to hold the
 * causeway's end (it puts Le Bac's point in the water).
 */
export const TGM_CAUSEWAY = ['tunis-marine', 'le-bac', 'la-goulette'] as const
