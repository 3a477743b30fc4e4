import { setupTmapsNode } from 'tmaps-mock/node'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { geocode, TmapsError } from './geocode.ts'

const { server, mock } = setupTmapsNode({ state: 'empty' })
let key: string

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(async () => {
  await mock.reset()
  key = (await mock.console.createKey({ name: 'Web app', domains: ['localhost'] })).value
})
afterEach(() => mock.faults.clear())
afterAll(() => server.close())

it('finds Sfax', async () => {
  const [first] = await geocode('Sfax', { apiKey: key, origin: 'http://localhost:5173' })
  expect(first?.formatted).toContain('Sfax')
})

it('tells a disabled key (401)', async () => {
  await mock.console.disableKey(key)
  await expect(geocode('Sfax', { apiKey: key })).rejects.toEqual(
    new TmapsError(401, { error: 'missing api_key' }),
  )
})

it('tells a foreign origin (403)', async () => {
  await expect(geocode('Sfax', { apiKey: key, origin: 'https://evil.example' })).rejects.toMatchObject({
    status: 403,
    body: { error: 'domain not authorized' },
  })
})

it('retries a 429 as the docs say: after 1 s, then 2 s', async () => {
  mock.faults.add({ status: 429, times: 2 })
  const waited: number[] = []
  const results = await geocode('Sousse', { apiKey: key, sleep: async (ms) => void waited.push(ms) })
  expect(waited).toEqual([1000, 2000])
  expect(results.length).toBeGreaterThan(0)
})

it('fetches a raster tile as PNG bytes', async () => {
  const response = await fetch(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${key}`)
  const bytes = new Uint8Array(await response.arrayBuffer())
  expect(response.headers.get('content-type')).toBe('image/png')
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
})
