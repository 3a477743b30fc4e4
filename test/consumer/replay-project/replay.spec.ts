import { readFileSync } from 'node:fs'
import { setupTmapsNode } from 'tmaps-mock/node'
import { afterAll, beforeAll, expect, it } from 'vitest'

// tmaps.har was recorded from TMaps by `tmaps-mock serve --seed consumer --upstream ... --record tmaps.har`:
// the same seed gives the same demo keys here, so the app's key is the one that recorded it.
const { server, mock } = setupTmapsNode({
  seed: 'consumer',
  replay: { har: 'tmaps.har', onMissing: 'error' },
})
const web = () => mock.snapshot().keys.find((key) => key.name === 'Web app (local dev)')!.value
const fromApp = { headers: { Origin: 'http://localhost:5173' } }

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' })
  await mock.ready
})
afterAll(() => server.close())

it('answers what TMaps answered, byte for byte', async () => {
  const har = JSON.parse(readFileSync('tmaps.har', 'utf8'))
  const recorded = har.log.entries.find((e: { request: { url: string } }) =>
    e.request.url.includes('/geocoding/forward'),
  )
  const response = await fetch(
    `https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${web()}`,
    fromApp,
  )
  expect(response.status).toBe(200)
  expect(await response.text()).toBe(recorded.response.content.text)
  expect(mock.log.entries()[0]?.source).toBe('replay')
})

it('serves a recorded tile as the PNG TMaps sent', async () => {
  const response = await fetch(`https://tiles.tmaps.tn/r-tile/7/68/51?api_key=${web()}`, fromApp)
  expect(response.headers.get('content-type')).toBe('image/png')
  expect(new Uint8Array(await response.arrayBuffer()).subarray(1, 4)).toEqual(new Uint8Array([80, 78, 71]))
})

it('keeps the contract: a foreign Origin still gets 403', async () => {
  const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${web()}`, {
    headers: { Origin: 'https://evil.example' },
  })
  expect(response.status).toBe(403)
})

it("says what was not recorded (onMissing: 'error')", async () => {
  const response = await fetch(`https://api.tmaps.tn/geocoding/forward?q=Gafsa&api_key=${web()}`, fromApp)
  expect(response.status).toBe(500)
  // It names the closest recorded request and how this one differs.
  expect(await response.json()).toEqual({
    error:
      'not recorded: GET /geocoding/forward (in tmaps.har); the closest recorded: GET /geocoding/forward?q=Sfax&limit=1 (q: "Gafsa" here, "Sfax" recorded; limit not sent here)',
  })
  expect(response.headers.get('x-tmaps-mock-source')).toBe('replay-miss')
})
