import { setupTmapsNode } from 'tmaps-mock/node'

const { server, mock } = setupTmapsNode({ state: 'empty' })
const APP = { Origin: 'http://localhost:3000' }
let key

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(async () => {
  await mock.reset()
  key = await mock.console.createKey({ name: 'Web app', domains: ['localhost'] })
})
afterEach(() => mock.faults.clear())
afterAll(() => server.close())

const geocode = (headers = APP) =>
  fetch(`https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${key.value}`, { headers })

test('finds Sfax (200)', async () => {
  const response = await geocode()
  expect(response.status).toBe(200)
  expect((await response.json()).results[0].formatted).toContain('Sfax')
})

test('401 once the key is disabled, 200 once enabled again', async () => {
  await mock.console.disableKey(key.id)
  expect(await geocode().then((r) => r.json())).toEqual({ error: 'missing api_key' })
  await mock.console.enableKey(key.id)
  expect((await geocode()).status).toBe(200)
})

test('403 once localhost is unlinked, 200 once linked again', async () => {
  await mock.console.unlinkDomain(key.id, 'localhost')
  const refused = await geocode()
  expect([refused.status, await refused.json()]).toEqual([403, { error: 'domain not authorized' }])
  await mock.console.linkDomain(key.id, 'localhost')
  expect((await geocode()).status).toBe(200)
})

test('setKeyDomains and removeDomain change what a browser may do', async () => {
  await mock.console.setKeyDomains(key.id, ['app.example.tn'])
  expect((await geocode()).status).toBe(403)
  expect((await geocode({ Origin: 'https://app.example.tn' })).status).toBe(200)
  await mock.console.removeDomain('app.example.tn')
  expect(mock.console.getKey(key.id).domains).toEqual([])
  expect((await geocode({ Origin: 'https://app.example.tn' })).status).toBe(403)
})

test('a revoked key stays refused (401)', async () => {
  await mock.console.disableKey(key.id)
  await mock.console.revokeKey(key.id)
  expect(mock.console.getKey(key.id).status).toBe('revoked')
  expect((await geocode()).status).toBe(401)
})

test('an injected 429 carries Retry-After, then the real answer', async () => {
  mock.faults.add({ status: 429, times: 1 })
  const limited = await geocode()
  expect([limited.status, limited.headers.get('retry-after'), await limited.json()]).toEqual([
    429,
    '1',
    { error: 'rate limited' },
  ])
  expect((await geocode()).status).toBe(200)
})
