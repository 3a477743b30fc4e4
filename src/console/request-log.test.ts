import { describe, expect, it } from 'vitest'
import { createTmapsCore } from '../core/create-core.ts'
import { maskQuery } from './request-log.ts'

const KEY = `ak_1a2b${'0'.repeat(28)}`

describe('maskQuery', () => {
  it.each([
    ['', ''],
    ['?', '?'],
    ['?q=Sfax', '?q=Sfax'],
    [`?q=Sfax&api_key=${KEY}`, '?q=Sfax&api_key=ak_1a2b…'],
    [`?api_key=${KEY}&limit=3`, '?api_key=ak_1a2b…&limit=3'],
    ['?api_key=secret-text', '?api_key=secret-…'],
    ['?api_key=', '?api_key='],
    ['?api_key', '?api_key'],
    [`?api%5Fkey=${KEY}`, '?api%5Fkey=ak_1a2b…'],
    [`?api_key=${KEY}&api_key=${KEY}`, '?api_key=ak_1a2b…&api_key=ak_1a2b…'],
    [`?q=${KEY}`, '?q=ak_1a2b…'],
  ])('masks %j as %j', (search, masked) => {
    expect(maskQuery(search)).toBe(masked)
  })
})

describe('the request log', () => {
  it('keeps each request’s masked query, its answer’s size and its duration, also when memoized', async () => {
    const core = createTmapsCore()
    await core.ready
    const key = core.snapshot().keys.find((k) => k.name === 'Backend (server-side)')!
    const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${key.value}`
    const first = await core.fetch(new Request(url))
    const bytes = (await first.arrayBuffer()).byteLength
    await core.fetch(new Request(url)) // the same GET: answered from the memo
    await core.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
    const [missing, memo, fresh] = core.log.entries()
    for (const entry of [fresh, memo]) {
      expect(entry).toMatchObject({ status: 200, query: `?q=Sfax&limit=1&api_key=${key.value.slice(0, 7)}…` })
      expect(entry!.size).toBe(bytes)
      expect(entry!.durationMs).toBeGreaterThanOrEqual(0)
    }
    expect(missing).toMatchObject({
      status: 401,
      query: '?q=Sfax',
      size: '{"error":"missing api_key"}'.length,
    })
    expect(JSON.stringify(core.log.entries())).not.toContain(key.value)
  })

  it('counts an injected latency in the duration, and no body for a reset connection', async () => {
    const core = createTmapsCore({ state: 'empty' })
    await core.ready
    core.faults.add({ delayMs: 60 })
    await core.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
    expect(core.log.entries()[0]!.durationMs).toBeGreaterThanOrEqual(55)
    core.faults.clear()
    core.faults.add({ network: 'reset' })
    await core.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax')).catch(() => undefined)
    expect(core.log.entries()[0]).toMatchObject({ status: 0, size: 0 })
  })
})
