export const URL_PATH = '/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3'
export const UNKNOWN_KEY = `ak_${'0'.repeat(32)}`

/** The size and shape of the mock's answer, for the bare worker to return. */
export const ANSWER = {
  query: 'Avenue Habib Bourguiba, Tunis',
  results: Array.from({ length: 3 }, () => ({
    lat: 36.8002,
    lng: 10.1815,
    formatted: 'Avenue Habib Bourguiba, 1000 Tunis, Tunisie',
    confidence: 0.94,
    type: 'street',
    components: {
      street: 'Avenue Habib Bourguiba',
      postcode: '1000',
      commune: 'Tunis',
      governorate: 'Tunis',
      country: 'TN',
    },
    bbox: [10.1742, 36.7983, 10.1888, 36.8021],
  })),
}

declare global {
  interface Window {
    /** Navigation start to the first answer read (a 401: the contract, no endpoint data). */
    firstResponseMs?: number
    /** Navigation start to the first geocode read (the geocoder's data loaded on the way). */
    firstGeocodeMs?: number
  }
}

/** Fetches once, checks the status, and returns the time since navigation start when read. */
export async function timed(url: string, status: number): Promise<number> {
  const response = await fetch(url)
  await response.json()
  if (response.status !== status) throw new Error(`bench: expected ${status}, got ${response.status}`)
  return performance.now()
}
