// A typed TMaps client: openapi-fetch with the `paths` of tmaps-mock's OpenAPI document. The
// same code calls the real API; in tests, setupTmapsNode answers it.
import createClient from 'openapi-fetch'
import type { paths } from 'tmaps-mock'
import { setupTmapsNode } from 'tmaps-mock/node'

/** The docs' retry: only a 429, after 1 s, 2 s, 4 s (or the Retry-After it says), at most 3 times. */
async function fetchWithRetry(request: Request): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(request.clone())
    if (response.status !== 429 || attempt === 3) return response
    const seconds = Number(response.headers.get('retry-after')) || 2 ** attempt
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  }
}

export function tmapsClient(baseUrl = 'https://api.tmaps.tn') {
  return createClient<paths>({ baseUrl, fetch: fetchWithRetry })
}

// In a test: the mock answers https://api.tmaps.tn.
const { server, mock } = setupTmapsNode({ state: 'empty' })
server.listen({ onUnhandledFrame: 'error' })
const key = await mock.console.createKey({ name: 'Backend' })
const tmaps = tmapsClient()

mock.faults.add({ endpoint: '/geocoding/forward', status: 429, times: 1 }) // a burst: retried after 1 s
const forward = await tmaps.GET('/geocoding/forward', {
  params: { query: { q: 'Sfax', limit: 1, api_key: key.value } },
})
console.log(forward.response.status, forward.data?.results[0]?.components.governorate) // 200 Sfax

const matrix = await tmaps.POST('/distance-matrix', {
  params: { query: { api_key: key.value } },
  body: { origins: [{ lat: 36.828, lng: 10.21 }], destinations: [{ lat: 36.8, lng: 10.1815 }] },
})
console.log(matrix.data?.durations?.[0]?.[0] !== undefined) // true: seconds from origin 0 to destination 0

const refused = await tmaps.GET('/geocoding/forward', {
  params: { query: { q: 'Sfax', api_key: `ak_${'0'.repeat(32)}` } }, // well-formed, in no console
})
console.log(refused.response.status, refused.error?.error) // 401 missing api_key
server.close()
