import { describe, expect, it } from 'vitest'
import { createTmapsMock } from '../runtimes/msw/create-tmaps-mock.ts'
import { ignoredParams } from './query-params.ts'

describe('query parameters an operation ignores', () => {
  it('names options sent in the query of a POST, lang on directions, and nothing for a clean query', () => {
    expect(
      ignoredParams('POST', '/routing/direction', new URLSearchParams('api_key=x&profile=walking')),
    ).toEqual(['ignored in the query of a POST: profile (options go in the JSON body)'])
    expect(
      ignoredParams('GET', '/routing/direction', new URLSearchParams('from=1,2&to=3,4&lang=en')),
    ).toEqual(['ignored, not parameters of GET /routing/direction: lang (directions name it language)'])
    expect(ignoredParams('GET', '/geocoding/forward', new URLSearchParams('q=Sfax&lang=en&api_key=x'))).toBe(
      undefined,
    )
  })

  it('warns in the log entry, the answer unchanged, also when a repeated GET is answered from memory', async () => {
    const mock = createTmapsMock({ state: 'empty', seed: 'warnings' })
    const key = (await mock.console.createKey({ name: 'Server' })).value
    const route = `https://api.tmaps.tn/routing/direction?from=36.8002,10.1815&to=36.8528,10.3261&lang=en&api_key=${key}`
    for (let i = 0; i < 2; i++) {
      expect((await mock.fetch(new Request(route))).status).toBe(200)
      expect(mock.log.entries()[0]?.warnings).toEqual([
        'ignored, not parameters of GET /routing/direction: lang (directions name it language)',
      ])
    }
    const matrix = new Request(`https://api.tmaps.tn/distance-matrix?profile=walking&api_key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        origins: [{ lat: 36.8, lng: 10.18 }],
        destinations: [{ lat: 36.81, lng: 10.19 }],
      }),
    })
    await mock.fetch(matrix)
    expect(mock.log.entries()[0]?.warnings).toEqual([
      'ignored in the query of a POST: profile (options go in the JSON body)',
    ])
    await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key}`))
    expect(mock.log.entries()[0]).not.toHaveProperty('warnings')
  })
})
