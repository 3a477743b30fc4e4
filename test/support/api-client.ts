import { beforeAll, expect } from 'vitest'
import { createTmapsCore } from '../../src/core/create-core.ts'

export interface ApiAnswer {
  status: number
  type: string | null
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every endpoint's shape
  body: any
}

/**
 * A client of a fresh mock (empty console, one enabled key, data seed `seed`) that calls it as
 * a server-side caller would: `get('geocoding/nearby', 'lat=..')`, `post('distance-matrix', {..})`.
 * Call once per test file, at top level.
 */
export function apiClient(seed: string) {
  const core = createTmapsCore({ state: 'empty', seed })
  let key = ''
  beforeAll(async () => {
    await core.ready
    key = (await core.console.createKey({ name: `Tests (${seed})` })).value
  })
  const answer = async (response: Response): Promise<ApiAnswer> => {
    const bytes = await response.arrayBuffer()
    // Every answer states its length in bytes (Arabic text is several bytes a letter).
    expect(response.headers.get('content-length')).toBe(String(bytes.byteLength))
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: JSON.parse(new TextDecoder().decode(bytes)),
    }
  }
  return {
    core,
    async get(path: string, params = ''): Promise<ApiAnswer> {
      const sep = params === '' ? '' : '&'
      return answer(
        await core.fetch(new Request(`https://api.tmaps.tn/${path}?${params}${sep}api_key=${key}`)),
      )
    },
    /** GETs a full URL (any TMaps host) with the key added, and answers the raw response. */
    async fetch(url: string, init?: RequestInit): Promise<Response> {
      const sep = url.includes('?') ? '&' : '?'
      return core.fetch(new Request(`${url}${sep}api_key=${key}`, init))
    },
    /** POSTs `payload` as JSON, or `raw` text as the body when given. */
    async post(path: string, payload: unknown, raw?: string): Promise<ApiAnswer> {
      const request = new Request(`https://api.tmaps.tn/${path}?api_key=${key}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: raw ?? JSON.stringify(payload),
      })
      return answer(await core.fetch(request))
    },
  }
}
