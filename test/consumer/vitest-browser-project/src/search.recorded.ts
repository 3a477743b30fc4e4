import { type TmapsVitestFixtures, tmapsFixtures } from 'tmaps-mock/vitest'
import { test as base, expect } from 'vitest'
import { commands } from 'vitest/browser'

// recorder: the page's mock decides each request (key, Origin), then tmapsRecorder() in the Vitest
// config answers it, through Vitest's commands: from this file's recording, or from TMaps.
const test = base.extend<TmapsVitestFixtures>(tmapsFixtures({ state: 'empty', recorder: commands }))

test('finds Sfax as TMaps answers it', async ({ tmaps }) => {
  const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
  const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${key.value}`)
  expect(response.status).toBe(200)
  expect(['upstream', 'replay']).toContain(response.headers.get('X-TMaps-Mock-Source'))
  const { results } = await response.json()
  expect(results[0].formatted).toContain('Sfax')
})

test('is refused by the local contract first: TMaps is not asked', async ({ tmaps }) => {
  const key = await tmaps.console.createKey({ name: 'Shop', domains: ['shop.example.tn'] })
  const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`)
  expect([response.status, await response.json()]).toEqual([403, { error: 'domain not authorized' }])
  expect(response.headers.get('X-TMaps-Mock-Source')).toBeNull()
})
