import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { createTmapsCore } from '../../core/create-core.ts'

const { get } = apiClient('geo')
const forward = (params: string) => get('geocoding/forward', params)

describe('GET /geocoding/forward', () => {
  it('finds Avenue Habib Bourguiba in Tunis, in the documented shape', async () => {
    const { status, type, body } = await forward(
      'q=Avenue%20Habib%20Bourguiba%2C%20Tunis&country=TN&limit=3&lang=en',
    )
    expect(status).toBe(200)
    expect(type).toBe('application/json')
    expect(body.query).toBe('Avenue Habib Bourguiba, Tunis')
    expect(body.results).toHaveLength(3)
    const [first] = body.results
    expect(first).toEqual({
      lat: 36.8002,
      lng: 10.1815,
      formatted: expect.stringMatching(/^Avenue Habib Bourguiba, 10\d\d Tunis, Tunisia$/),
      confidence: expect.any(Number),
      type: 'street',
      components: {
        street: 'Avenue Habib Bourguiba',
        postcode: expect.stringMatching(/^10\d\d$/),
        commune: 'Tunis',
        delegation: expect.any(String),
        governorate: 'Tunis',
        country: 'TN',
      },
      bbox: [expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)],
    })
    expect(first.confidence).toBeGreaterThan(0.9)
    expect(first.confidence).toBeLessThanOrEqual(1)
    const [minLng, minLat, maxLng, maxLat] = first.bbox
    expect(minLng).toBeLessThan(first.lng)
    expect(maxLng).toBeGreaterThan(first.lng)
    expect(minLat).toBeLessThan(first.lat)
    expect(maxLat).toBeGreaterThan(first.lat)
  })

  it.each([
    ['Djerba', 'Jerba'],
    ['Sidi Bou Said', 'Sidi Bou Saïd'],
    ['GABES', 'Gabès'],
    ['Kairouan', 'Qairouan'],
    ['hammamet', 'Hamamet'],
  ])('treats %j and %j alike', async (a, b) => {
    const [x, y] = await Promise.all([
      forward(`q=${encodeURIComponent(a)}`),
      forward(`q=${encodeURIComponent(b)}`),
    ])
    expect(x.body.results.length).toBeGreaterThan(0)
    expect(x.body.results[0]).toEqual(y.body.results[0])
  })

  it('finds the place a person means first', async () => {
    const top = async (q: string) => (await forward(`q=${encodeURIComponent(q)}&lang=fr`)).body.results[0]
    expect(await top('Sidi Bou Saïd')).toMatchObject({ components: { governorate: 'Tunis' } })
    expect(await top('Médina de Tunis')).toMatchObject({
      type: 'poi',
      formatted: expect.stringMatching(/^Médina de Tunis, /),
    })
    expect(await top('Sfax')).toMatchObject({
      type: 'locality',
      components: { commune: 'Sfax', governorate: 'Sfax' },
    })
    expect(await top('Tunis Carthage airport')).toMatchObject({ type: 'poi' })
  })

  it('finds Arabic-named places from an Arabic query, and answers in Arabic with lang=ar', async () => {
    const { body } = await forward(`q=${encodeURIComponent('القيروان')}&lang=ar&limit=1`)
    expect(body.results[0]).toMatchObject({
      type: 'locality',
      components: { commune: 'القيروان', governorate: 'القيروان' },
    })
    expect(body.results[0].formatted).toMatch(/القيروان، تونس$/)
    const street = (await forward('q=Avenue%20Habib%20Bourguiba%20Tunis&lang=ar&limit=1')).body.results[0]
    expect(street.components.street).toBe('شارع الحبيب بورقيبة')
  })

  it('finds a street from Arabizi, its street word as Tunisians type it (chare3, nahj, zan9a, tri9)', async () => {
    const top = async (q: string) => (await forward(`q=${encodeURIComponent(q)}&lang=fr`)).body.results[0]
    // As the Arabic-script query does: the avenue in Tunis, not Monastir's mausoleum (127 km away).
    const arabic = await top('شارع الحبيب بورقيبة')
    expect(await top('chare3 el 7abib bourguiba')).toMatchObject({
      type: 'street',
      formatted: 'Avenue Habib Bourguiba, 1000 Tunis, Tunisie',
    })
    expect((await top('chare3 el 7abib bourguiba')).formatted).toBe(arabic.formatted)
    expect(await top('nahj ibn khaldoun')).toMatchObject({ components: { street: 'Rue Ibn Khaldoun' } })
    expect(await top('tri9 gabes sfax')).toMatchObject({
      components: { street: 'Route de Gabès', commune: 'Sfax' },
    })
    expect(await top('zan9a')).toMatchObject({ formatted: expect.stringMatching(/^Impasse /) })
  })

  it('finds a town from Arabizi whose short vowel is left out: 9lebia is Kelibia, 9bili Kebili', async () => {
    const top = async (q: string) => (await forward(`q=${encodeURIComponent(q)}&lang=fr`)).body.results[0]
    const towns: Array<[string, string]> = [
      ['9lebia', 'Kélibia'],
      ['Klibia', 'Kélibia'],
      ['9bili', 'Kébili'],
      ['9ayrawen', 'Kairouan'],
    ]
    for (const [q, town] of towns) {
      expect((await top(q))?.components, q).toMatchObject({ commune: town })
    }
  })

  it('turns a house number into an address on the street', async () => {
    const { body } = await forward('q=12%20Avenue%20Habib%20Bourguiba%2C%20Sfax&limit=1&lang=fr')
    expect(body.results[0]).toMatchObject({
      type: 'address',
      formatted: expect.stringMatching(/^12 Avenue Habib Bourguiba, 30\d\d Sfax, Tunisie$/),
      components: { housenumber: '12', street: 'Avenue Habib Bourguiba', commune: 'Sfax' },
    })
  })

  it('filters by type, bbox and country, and favours proximity', async () => {
    const pois = (await forward('q=Tunis&type=poi&limit=20')).body.results
    expect(pois.length).toBeGreaterThan(0)
    expect(pois.every((r: { type: string }) => r.type === 'poi')).toBe(true)
    const inBox = (await forward('q=Avenue%20Habib%20Bourguiba&bbox=10.5,34.6,10.9,34.9&limit=20')).body
      .results
    expect(inBox.length).toBeGreaterThan(0)
    for (const r of inBox) expect(r.lng >= 10.5 && r.lng <= 10.9 && r.lat >= 34.6 && r.lat <= 34.9).toBe(true)
    expect((await forward('q=Tunis&country=FR')).body).toEqual({ query: 'Tunis', results: [] })
    expect((await forward('q=Tunis&country=tn')).body.results.length).toBeGreaterThan(0)
    const nearSfax = (await forward('q=Avenue%20Habib%20Bourguiba&proximity=34.74,10.76&limit=1')).body
      .results[0]
    expect(nearSfax.components.governorate).toBe('Sfax')
  })

  it('answers the same query with the same seed identically, and limits results', async () => {
    const a = await forward('q=Sousse&limit=7')
    const other = createTmapsCore({ state: 'empty', seed: 'geo' })
    await other.ready
    const k = (await other.console.createKey({ name: 'x' })).value
    const b = await (
      await other.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sousse&limit=7&api_key=${k}`))
    ).json()
    expect(b).toEqual(a.body)
    expect(a.body.results).toHaveLength(7)
    expect((await forward('q=Sousse')).body.results).toHaveLength(5)
  })

  it('answers a query that matches nothing with an empty list', async () => {
    expect((await forward('q=zzqxwv')).body).toEqual({ query: 'zzqxwv', results: [] })
    expect((await forward('q=%2C%2C%2C')).body).toEqual({ query: ',,,', results: [] })
  })

  it.each([
    ['', 'missing required param: q'],
    ['q=', 'missing required param: q'],
    ['q=%20%20', 'missing required param: q'],
    [`q=${'a'.repeat(257)}`, 'invalid param: q'],
    ['q=a&q=b', 'invalid param: q'],
    ['q=Tunis&limit=0', 'invalid param: limit'],
    ['q=Tunis&limit=21', 'invalid param: limit'],
    ['q=Tunis&limit=2.5', 'invalid param: limit'],
    ['q=Tunis&limit=five', 'invalid param: limit'],
    ['q=Tunis&lang=de', 'invalid param: lang'],
    ['q=Tunis&country=TUN', 'invalid param: country'],
    ['q=Tunis&proximity=36.8', 'invalid param: proximity'],
    ['q=Tunis&proximity=91,10', 'invalid param: proximity'],
    ['q=Tunis&bbox=1,2,3', 'invalid param: bbox'],
    ['q=Tunis&bbox=11,37,10,36', 'invalid param: bbox'],
    ['q=Tunis&type=city', 'invalid param: type'],
  ])('answers %j with 400 %j', async (params, error) => {
    const { status, type, body } = await forward(params)
    expect(status).toBe(400)
    expect(type).toBe('application/json')
    expect(body).toEqual({ error })
  })

  it('treats an empty optional parameter as not given', async () => {
    expect((await forward('q=Tunis&limit=&lang=&bbox=&type=')).status).toBe(200)
  })
})
