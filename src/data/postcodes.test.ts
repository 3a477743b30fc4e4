import { describe, expect, it } from 'vitest'
import { REAL_POSTCODES } from '../../scripts/real-postcodes.ts'
import { apiClient } from '../../test/support/api-client.ts'
import { DELEGATIONS, LOCALITIES } from './gazetteer.ts'

const { get } = apiClient('postcodes')
const top = async (path: string, params: string) => (await get(path, params)).body.results[0]

/** The real postcodes of scripts/real-postcodes.ts, as tunisia.json and the geocoder give them. */
describe('postcodes', () => {
  it('gives each sourced town its real code, and the delegation it is the seat of', () => {
    for (const [code, town, localities, delegation, source] of REAL_POSTCODES) {
      expect(source, town).toMatch(/^https?:\/\//)
      for (const id of localities) expect(LOCALITIES.find((l) => l.id === id)?.postcode, town).toBe(code)
      if (delegation) expect(DELEGATIONS.find((d) => d.id === delegation)?.postcode, town).toBe(code)
    }
  })

  it('never gives a generated code that a real one has, nor one code to two delegations', () => {
    const real = new Set(REAL_POSTCODES.map(([code]) => code))
    const seats = new Set(REAL_POSTCODES.map(([, , , delegation]) => delegation))
    const codes = DELEGATIONS.map((d) => d.postcode)
    expect(new Set(codes).size).toBe(codes.length)
    for (const d of DELEGATIONS) if (!seats.has(d.id)) expect(real.has(d.postcode), d.fr).toBe(false)
  })

  it.each([
    ['La Marsa', '2070'],
    ['Carthage', '2016'],
    ['Sidi Bou Saïd', '2026'],
    ['Le Bardo', '2000'],
    ['La Goulette', '2060'],
    ['Houmt Souk', '4180'],
    ['Hammamet', '8050'],
  ])(
    'answers %s with its real postcode, forward and reverse, and finds it by the code',
    async (name, code) => {
      const town = await top('geocoding/forward', `q=${encodeURIComponent(name)}`)
      expect(town).toMatchObject({ components: { postcode: code } })
      const back = await top('geocoding/reverse', `lat=${town.lat}&lng=${town.lng}`)
      expect(back.components.postcode).toBe(code)
      expect(back.formatted).toContain(`, ${code} `) // as an address writes it: "..., 2070 La Marsa, ..."

      const byCode = await top('geocoding/forward', `q=${code}%20${encodeURIComponent(name)}`)
      expect(byCode.components.postcode).toBe(code)
    },
  )
})
