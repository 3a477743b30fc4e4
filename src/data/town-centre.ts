/** GeoNames' Tunis, the capital's locality. */
export const TUNIS_ID = 'gn:2464470'
/** The docs call this point "Tunis centre" and put Avenue Habib Bourguiba there. */
export const TUNIS_BOURGUIBA = { lat: 36.8002, lng: 10.1815 }

/**
 * Where a town's places cluster and its name is written: its gazetteer point, except Tunis, whose
 * gazetteer point is by the Kasbah: its busiest streets are downtown, the docs' "Tunis centre".
 * Its own small module: the map's labels read it without loading the streets.
 * @example townCentre({ id: 'gn:2464470', lat: 36.819, lng: 10.166 }) // { lat: 36.8002, lng: 10.1815 }
 */
export function townCentre(locality: { id: string; lat: number; lng: number }): { lat: number; lng: number } {
  return locality.id === TUNIS_ID ? TUNIS_BOURGUIBA : { lat: locality.lat, lng: locality.lng }
}
