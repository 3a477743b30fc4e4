import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAnswerCache } from './answer-cache.ts'
import type { TmapsAnswer } from './answers.ts'
import { createCore, createTmapsCore } from './create-core.ts'
import { answerCacheKey, apiKeyValues } from './handle-request.ts'

const view = (url: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  url,
  headers: { get: (name: string) => headers[name] ?? null },
  text: async () => '',
})

describe('apiKeyValues', () => {
  it('reads api_key values exactly as URLSearchParams does, for any query string', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'api_key',
        'api%5Fkey',
        'api+key',
        'q',
        '',
        '=',
        '%',
        '%zz',
        '+',
        '&',
        'ak_12',
        '%20',
        'x=y',
      ),
      fc.string({ maxLength: 6 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const search = `?${pieces.join('')}`
        expect(apiKeyValues(search)).toEqual(new URLSearchParams(search).getAll('api_key'))
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['', []],
    ['?', []],
    ['?api_key=ak_1&q=x', ['ak_1']],
    ['?api_key=a&api_key=b', ['a', 'b']],
    ['?api_key', ['']],
    ['?api%5Fkey=a%2Bb+c', ['a+b c']],
  ])('reads %j as %j', (search, values) => {
    expect(apiKeyValues(search)).toEqual(values)
  })
})

describe('answerCacheKey', () => {
  it('is the path and the query without api_key, whatever the query', () => {
    const general = (search: string) =>
      `/p?${search
        .slice(1)
        .split('&')
        .filter((part) => !part.startsWith('api_key='))
        .join('&')}`
    const piece = fc.constantFrom('api_key=', 'ak_1', '&', '?', 'q=1', 'x', 'xapi_key=', '=', '')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const search = pieces.length === 0 ? '' : `?${pieces.join('')}`
        expect(answerCacheKey('/p', search)).toBe(general(search))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('the memo of answered GETs', () => {
  const setup = async () => {
    const mock = createTmapsCore({ state: 'empty', seed: 'memo' })
    await mock.ready
    const key = await mock.console.createKey({ name: 'web', domains: ['app.tn'] })
    const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${key.value}`
    return { mock, key, url }
  }

  it('answers the same request again from memory, and still counts and logs it', async () => {
    const { mock, key, url } = await setup()
    const first = await mock.answer(view(url, { origin: 'https://app.tn' }))
    const again = mock.answer(view(url, { origin: 'https://app.tn' }))
    if (again instanceof Promise) throw new Error('a remembered answer comes at once, not as a promise')
    expect(again.body).toBe(first.body) // the same bytes: not decided nor encoded again
    expect(again.headers).toBe(first.headers)
    expect(Object.isFrozen(again.headers)).toBe(true) // shared by every answer from memory
    expect(mock.usage(key.id).total).toBe(2)
    const [latest, earlier] = mock.log.entries()
    expect(latest).toEqual({
      ...earlier,
      seq: earlier!.seq + 1,
      time: latest!.time,
      durationMs: latest!.durationMs,
    })
  })

  it('holds only while the console state is unchanged', async () => {
    const { mock, key, url } = await setup()
    const send = async (origin: string) => (await mock.answer(view(url, { origin }))).status
    expect([await send('https://app.tn'), await send('https://app.tn')]).toEqual([200, 200])
    await mock.console.disableKey(key.id)
    expect([await send('https://app.tn'), await send('https://app.tn')]).toEqual([401, 401])
    await mock.console.enableKey(key.id)
    expect(await send('https://app.tn')).toBe(200)
    expect([await send('https://other.tn'), await send('https://other.tn')]).toEqual([403, 403])
    await mock.console.addDomain('other.tn')
    expect(await send('https://other.tn')).toBe(403)
    await mock.console.linkDomain(key.id, 'other.tn')
    expect(await send('https://other.tn')).toBe(200)
    await mock.console.unlinkDomain(key.id, 'other.tn')
    expect(await send('https://other.tn')).toBe(403)
    await mock.reset()
    expect(await send('https://app.tn')).toBe(401)
  })

  it('tells apart an absent Origin, an Origin "null" and a Referer', async () => {
    const { mock, url } = await setup()
    const status = async (headers: Record<string, string>) => (await mock.answer(view(url, headers))).status
    expect(await status({})).toBe(200)
    expect(await status({ origin: 'null' })).toBe(403)
    expect(await status({ referer: 'https://app.tn/page' })).toBe(200)
    expect(await status({ referer: 'https://evil.tn/page' })).toBe(403)
    expect(await status({})).toBe(200)
  })

  it('never skips a fault: faults are drawn for every request', async () => {
    const { mock, url } = await setup()
    await mock.answer(view(url))
    mock.faults.add({ endpoint: '/geocoding/forward', status: 429, times: 1 })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await mock.answer(view(url))).status)
    expect(statuses).toEqual([429, 200, 200])
    expect(mock.log.entries().map((e) => e.rule)).toEqual(
      ['no-browser-headers', 'fault-injected', 'no-browser-headers', 'no-browser-headers'].reverse(),
    )
  })
})

describe('the one cache of answers', () => {
  it('weighs each body once, stays within its bytes, and answers again what it dropped', async () => {
    const cache = createAnswerCache(16, 400_000)
    const mock = createCore({ state: 'empty', seed: 'one-cache' }, { cache })
    const key = await mock.console.createKey({ name: 'web', domains: ['app.tn'] })
    const tile = (x: number) => `https://tiles.tmaps.tn/r-tile/12/${2163 + x}/1597?api_key=${key.value}`
    const get = (url: string) => mock.answer(view(url, { origin: 'https://app.tn' }))
    const first = await get(tile(0))
    expect(first.status).toBe(200)
    // The tile's bytes are kept once: as the endpoint's answer, which its remembered request names.
    const size = first.body!.byteLength
    expect(cache.bytes).toBeGreaterThanOrEqual(size)
    expect(cache.bytes).toBeLessThan(2 * size)
    const again = get(tile(0))
    expect(again).not.toBeInstanceOf(Promise)
    expect((again as TmapsAnswer).body).toBe(first.body)
    // Many more tiles than it holds: the oldest go, the bytes held stay within the bound.
    for (let x = 1; x <= 30; x++) {
      expect((await get(tile(x))).status).toBe(200)
      expect(cache.bytes).toBeLessThanOrEqual(400_000)
      expect(cache.size).toBeLessThanOrEqual(16)
    }
    // The first tile's body is gone from the cache: it is drawn again, the same bytes, and logged.
    const redrawn = get(tile(0))
    expect(redrawn).toBeInstanceOf(Promise)
    expect(Buffer.from((await redrawn).body!).equals(Buffer.from(first.body!))).toBe(true)
    expect(mock.log.entries()).toHaveLength(33)
  })
})
