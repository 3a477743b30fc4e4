import { describe, expect, it } from 'vitest'
import { fromWireAnswer, fromWireRequest, toWireAnswer, toWireRequest } from './wire.ts'

/** What crosses from a Vitest browser-mode page to `tmapsRecorder()` in the Vitest process. */
describe('the wire between a test page and the recorder', () => {
  const request = {
    method: 'POST',
    url: new URL('https://api.tmaps.tn/routing/direction?api_key=ak_local'),
    endpoint: 'routing/direction',
    body: '{"waypoints":[]}',
    headers: new Headers({
      origin: 'http://localhost:5173',
      cookie: 'session=1',
      'content-type': 'application/json',
    }),
    keyId: 'key-1',
  }

  it('carries a request there and back: its method, URL, body, the headers TMaps is sent (no cookie)', () => {
    const wire = toWireRequest(request, 'Web')
    expect(wire.headers).toEqual({ origin: 'http://localhost:5173', 'content-type': 'application/json' })
    const back = fromWireRequest(JSON.parse(JSON.stringify(wire)))
    expect([back.method, back.url.href, back.endpoint, back.body, back.keyId, back.keyName]).toEqual([
      'POST',
      request.url.href,
      'routing/direction',
      request.body,
      'key-1',
      'Web',
    ])
    expect(back.headers.get('origin')).toBe('http://localhost:5173')
  })

  it('refuses what a page should never send the process that holds the real key', () => {
    const wire = toWireRequest(request, null)
    const cases: Array<[unknown, string]> = [
      [null, 'it is not an object'],
      [{ ...wire, method: 'DELETE' }, 'method "DELETE" is not GET or POST'],
      [{ ...wire, url: 'http://api.tmaps.tn/x' }, 'url is not an https URL'],
      [{ ...wire, url: 'file:///etc/passwd' }, 'url is not an https URL'],
      [{ ...wire, body: 'x'.repeat(1024 * 1024 + 1) }, 'body is not text of at most 1048576 characters'],
    ]
    for (const [input, why] of cases)
      expect(() => fromWireRequest(input)).toThrow(`Failed to record a TMaps request from the page: ${why}.`)
    // Headers outside the carried list are dropped, whatever the page says.
    const odd = fromWireRequest({
      ...wire,
      headers: { authorization: 'Bearer x', referer: 'http://localhost/' },
    })
    expect([odd.headers.get('authorization'), odd.headers.get('referer')]).toEqual([
      null,
      'http://localhost/',
    ])
  })

  it('carries an answer back byte for byte (a PNG as base64), and a miss as a miss', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255])
    const answer = {
      status: 200,
      body: png,
      contentType: 'image/png',
      headers: { etag: '"1"' },
      source: 'replay' as const,
      reason: 'r',
      repeatable: true,
    }
    const back = fromWireAnswer(JSON.parse(JSON.stringify(toWireAnswer(answer))))
    expect(back).toEqual(answer)
    expect(fromWireAnswer(toWireAnswer({ miss: true, reason: 'm' }))).toEqual({ miss: true, reason: 'm' })
  })
})
