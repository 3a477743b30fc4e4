import { type TmapsVitestFixtures, tmapsFixtures } from 'tmaps-mock/vitest'
import { test as base, expect } from 'vitest'
import { placeCard } from './place-card.ts'

// One mock per test file, started before its first test, reset after each test.
const test = base.extend<TmapsVitestFixtures>(tmapsFixtures({ state: 'empty' }))

test('shows the place and its map tile', async ({ tmaps }) => {
  // A key per test, authorized for the test page's own host (Vitest serves it on localhost).
  const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
  document.body.innerHTML = '<section></section>'
  await placeCard(document.querySelector('section')!, { apiKey: key.value, query: 'Sfax' })

  expect(document.querySelector('h2')?.textContent).toBe('3000 Sfax, Tunisie')
  const tile = document.querySelector('img')!
  await tile.decode() // a real PNG, drawn by the mock
  expect(tile.naturalWidth).toBe(256)
  expect(colorsOf(tile)).toBeGreaterThan(8) // a map, not a blank square
  // The page's real Origin and Referer reached the contract (rebuilt in the service worker).
  const checked = tmaps.log.entries().map((e) => [e.endpoint, e.status, e.facts.via, e.facts.header])
  expect(checked.reverse()).toEqual([
    ['geocoding/forward', 200, 'origin', location.origin], // fetch() sends Origin
    ['r-tile', 200, 'referer', `${location.origin}/`], // an <img> sends only a Referer
  ])
})

test('shows a banner for a key of another site (403)', async ({ tmaps }) => {
  const key = await tmaps.console.createKey({ name: 'Shop', domains: ['shop.example.tn'] })
  document.body.innerHTML = '<section></section>'
  await placeCard(document.querySelector('section')!, { apiKey: key.value, query: 'Sfax' })
  expect(document.querySelector('[role=alert]')?.textContent).toBe(
    'TMaps refused this page (403): domain not authorized',
  )
})

test('shows a banner for a disabled key (401)', async ({ tmaps }) => {
  const key = await tmaps.console.createKey({ name: 'Web', domains: [location.hostname] })
  await tmaps.console.disableKey(key.id)
  document.body.innerHTML = '<section></section>'
  await placeCard(document.querySelector('section')!, { apiKey: key.value, query: 'Sfax' })
  expect(document.querySelector('[role=alert]')?.textContent).toBe(
    'TMaps refused this page (401): missing api_key',
  )
})

test('starts each test from the same state', ({ tmaps }) => {
  expect(tmaps.console.listKeys()).toEqual([]) // the keys of the tests before are gone
  expect(tmaps.log.entries()).toEqual([])
})

/** How many distinct colours the image has (a blank tile has one). */
function colorsOf(image: HTMLImageElement): number {
  const canvas = Object.assign(document.createElement('canvas'), { width: 256, height: 256 })
  const context = canvas.getContext('2d')!
  context.drawImage(image, 0, 0)
  const { data } = context.getImageData(0, 0, 256, 256)
  const colors = new Set<number>()
  for (let i = 0; i < data.length; i += 4) colors.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!)
  return colors.size
}
