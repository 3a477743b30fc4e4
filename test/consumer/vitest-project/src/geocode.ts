/** A tiny TMaps geocoding client, as an app would write it: the key in `api_key`, the docs' 429 retry. */
export interface GeocodeOptions {
  apiKey: string
  /** Sent as `Origin` when called from Node; a browser sends its own. */
  origin?: string
  /** The docs' backoff for 429: 1 s, 2 s, 4 s, at most 3 retries. */
  retryDelays?: number[]
  sleep?: (ms: number) => Promise<void>
}

export class TmapsError extends Error {
  readonly status: number
  readonly body: { error: string }
  constructor(status: number, body: { error: string }) {
    super(`TMaps answered ${status}: ${body.error}`)
    this.status = status
    this.body = body
  }
}

export async function geocode(q: string, options: GeocodeOptions) {
  const { apiKey, origin, retryDelays = [1000, 2000, 4000] } = options
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  const url = `https://api.tmaps.tn/geocoding/forward?q=${encodeURIComponent(q)}&api_key=${apiKey}`
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, { headers: origin ? { Origin: origin } : {} })
    if (response.ok) {
      const body: { results: Array<{ formatted: string; lat: number; lng: number }> } = await response.json()
      return body.results
    }
    const delay = retryDelays[attempt]
    if (response.status === 429 && delay !== undefined) {
      await sleep(delay)
      continue
    }
    throw new TmapsError(response.status, await response.json())
  }
}
