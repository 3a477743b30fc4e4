import { describe, expect, it } from 'vitest'
import { headerProvenance, toHar } from '../playground/har.ts'
import type { LogEntry } from '../src/console/request-log.ts'
import { createTmapsCore } from '../src/core/create-core.ts'
import { LOOPBACK_FACTS } from './support/fixtures.ts'

const ENTRY: LogEntry = {
  seq: 1,
  time: '2025-01-02T03:04:05.000Z',
  method: 'GET',
  host: 'api.tmaps.tn',
  path: '/geocoding/forward',
  query: '?q=Tunis&api_key=ak_1a2b…',
  endpoint: 'geocoding/forward',
  status: 403,
  outcome: 'rejected',
  rule: 'domain-not-authorized',
  reason: 'Origin (reconstructed) http://127.0.0.1:5173 -> host 127.0.0.1 is not linked',
  facts: LOOPBACK_FACTS,
  size: 34,
  durationMs: 1.5,
}

describe('toHar', () => {
  it('writes a HAR 1.2 entry per log entry: URL with its masked query, the header used, status, size, time and reason', () => {
    const har = toHar([ENTRY])
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator).toEqual({ name: 'tmaps-mock', version: '0.1' })
    expect(har.log.entries).toEqual([
      {
        startedDateTime: '2025-01-02T03:04:05.000Z',
        time: 1.5,
        request: {
          method: 'GET',
          url: 'https://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=ak_1a2b…',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'Origin', value: 'http://127.0.0.1:5173' }],
          queryString: [
            { name: 'q', value: 'Tunis' },
            { name: 'api_key', value: 'ak_1a2b…' },
          ],
          cookies: [],
          headersSize: -1,
          bodySize: -1,
        },
        response: {
          status: 403,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          headers: [],
          cookies: [],
          content: { size: 34, mimeType: 'application/json', text: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 34,
        },
        cache: {},
        timings: { send: 0, wait: 1.5, receive: 0 },
        comment: ENTRY.reason,
      },
    ])
  })

  it('names a Referer as such, and sends no header when neither was used', () => {
    const referer = { ...ENTRY, facts: { ...ENTRY.facts, via: 'referer' as const } }
    const none = { ...ENTRY, facts: { ...ENTRY.facts, via: 'none' as const, header: null } }
    const [a, b] = toHar([referer, none]).log.entries
    expect(a!.request.headers).toEqual([{ name: 'Referer', value: 'http://127.0.0.1:5173' }])
    expect(b!.request.headers).toEqual([])
    expect(toHar([]).log.entries).toEqual([])
  })

  it('types a picture answer as PNG, and any refusal as JSON', () => {
    const tile = { ...ENTRY, endpoint: 'r-tile', status: 200, query: '' }
    const [png, refused] = toHar([tile, { ...tile, status: 403 }]).log.entries
    expect(png!.response.content.mimeType).toBe('image/png')
    expect(png!.request.queryString).toEqual([])
    expect(refused!.response.content.mimeType).toBe('application/json')
  })

  it('says how the header is known: observed, reconstructed or simulated', () => {
    const facts = (reconstructed: boolean, simulated: boolean) => ({
      ...ENTRY,
      facts: { ...ENTRY.facts, reconstructed, simulated },
    })
    expect(headerProvenance(facts(false, false))).toBe('observed')
    expect(headerProvenance(facts(true, false))).toBe('reconstructed')
    expect(headerProvenance(facts(false, true))).toBe('simulated')
  })

  it('never holds a full key: the mock’s own log, key in the query and in the Referer, exports masked', async () => {
    const core = createTmapsCore()
    await core.ready
    const key = core.snapshot().keys.find((k) => k.name === 'Web app (local dev)')!
    expect(key.value).toMatch(/^ak_[0-9a-f]{32}$/)
    const callers: Record<string, string>[] = [
      { Origin: 'http://localhost:5173' },
      { Referer: `http://localhost:5173/?api_key=${key.value}` },
      {},
    ]
    for (const headers of callers) {
      await core.fetch(
        new Request(`${core.options.baseUrl}/geocoding/forward?q=Tunis&api_key=${key.value}`, { headers }),
      )
    }
    const entries = core.log.entries()
    expect(entries).toHaveLength(3)
    const text = JSON.stringify(toHar(entries))
    expect(text).not.toContain(key.value)
    expect(text).not.toContain(key.value.slice(0, 12))
    expect(text).toContain(`${key.value.slice(0, 7)}…`)
    // The Referer's own query is kept, its key masked like any other.
    expect(text).toContain('api_key=ak_')
    expect(text).not.toMatch(/ak_[0-9a-f]{8,}/)
    for (const entry of toHar(entries).log.entries) {
      expect(entry.request.url).toBe(
        `https://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=${key.value.slice(0, 7)}…`,
      )
      expect(entry.request.queryString).toEqual([
        { name: 'q', value: 'Tunis' },
        { name: 'api_key', value: `${key.value.slice(0, 7)}…` },
      ])
      expect(entry.response.content.size).toBeGreaterThan(100)
    }
  })
})
