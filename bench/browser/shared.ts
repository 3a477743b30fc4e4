export const URL_PATH = '/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3'

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
    firstResponseMs?: number
  }
}

/** Fetches once and records the time since navigation start when the answer is read. */
export async function firstResponse(url: string): Promise<void> {
  const response = await fetch(url)
  await response.json()
  if (response.status !== 200) throw new Error(`bench: expected 200, got ${response.status}`)
  window.firstResponseMs = performance.now()
}
