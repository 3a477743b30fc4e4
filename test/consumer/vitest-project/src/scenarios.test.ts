import { type ForwardGeocodingResponse, scenarios } from 'tmaps-mock'
import { setupTmapsNode } from 'tmaps-mock/node'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { geocode, TmapsError } from './geocode.ts'

const { server, mock } = setupTmapsNode({ state: 'empty' })
let key: string
const removeOverrides: Array<() => void> = []

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(async () => {
  await mock.reset()
  key = (await mock.console.createKey({ name: 'Web app' })).value
})
afterEach(() => {
  for (const remove of removeOverrides.splice(0)) remove()
})
afterAll(() => server.close())

it('shows nothing found', async () => {
  // Once, then the mock's own answer again.
  mock.use('geocoding/forward', scenarios.noResults(), { times: 1 })
  expect(await geocode('Sfax', { apiKey: key })).toEqual([])
  expect((await geocode('Sfax', { apiKey: key })).length).toBeGreaterThan(0)
})

it('gets a low-confidence match', async () => {
  removeOverrides.push(mock.use('geocoding/forward', scenarios.lowConfidence({ confidence: 0.3 })))
  const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key}`)
  const { results } = (await response.json()) as ForwardGeocodingResponse
  expect(results[0]?.confidence).toBe(0.3)
})

it('gets 400 for directions to a point at sea', async () => {
  removeOverrides.push(mock.use('routing/direction', scenarios.atSea()))
  const response = await fetch(
    `https://api.tmaps.tn/routing/direction?from=36.8002,10.1815&to=36.8528,10.3261&api_key=${key}`,
  )
  expect(response.status).toBe(400)
  expect(await response.json()).toEqual({
    error: 'invalid param: to (no road reaches it: at sea, abroad or on an island without a crossing)',
  })
})

it('still gets 401 for a disabled key, whatever the override', async () => {
  removeOverrides.push(mock.use('geocoding/forward', scenarios.noResults()))
  await mock.console.disableKey(key)
  await expect(geocode('Sfax', { apiKey: key })).rejects.toEqual(
    new TmapsError(401, { error: 'missing api_key' }),
  )
})
