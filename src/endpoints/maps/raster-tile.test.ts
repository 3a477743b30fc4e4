import { describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { decodePng, near } from '../../../test/support/png.ts'
import { tileView, toPixel } from '../../map/projection.ts'
import { PALETTES } from '../../map/styles.ts'

const { fetch } = apiClient('tiles')
const tile = (z: number, x: number, y: number, init?: RequestInit) =>
  fetch(`https://tiles.tmaps.tn/r-tile/${z}/${x}/${y}`, init)
const { sea, land } = PALETTES.streets

describe('GET /r-tile/{z}/{x}/{y}', () => {
  it('draws southern Tunisia at zoom 6: the gulfs are sea, the Sahara is land', async () => {
    const response = await tile(6, 33, 25)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    const png = decodePng(new Uint8Array(await response.arrayBuffer()))
    const view = tileView(6, 33, 25)
    const at = (lat: number, lng: number) => png.pixel(...toPixel(view, lat, lng))
    expect(near(at(35.3, 11.15), sea)).toBe(true) // off Mahdia
    expect(near(at(34.2, 11.0), sea)).toBe(true) // the Gulf of Gabès
    expect(near(at(33.0, 8.0), land)).toBe(true) // the Sahara (Algeria) is land, not sea
    expect(near(at(35.5, 9.0), land)).toBe(true) // central Tunisia
  })

  it('draws the world at zoom 0 and 1 with Europe and Africa as land', async () => {
    const png = decodePng(new Uint8Array(await (await tile(0, 0, 0)).arrayBuffer()))
    const view = tileView(0, 0, 0)
    expect(near(png.pixel(...toPixel(view, 27, 29)), land)).toBe(true) // Egypt
    expect(near(png.pixel(...toPixel(view, 50, 10)), land)).toBe(true) // Germany
    expect(near(png.pixel(...toPixel(view, 0, -30)), sea)).toBe(true) // the Atlantic
  })

  it('answers 304 to a matching If-None-Match (strong, weak or *), and the PNG otherwise', async () => {
    const first = await tile(8, 136, 99)
    const etag = first.headers.get('etag')!
    // Each asked twice: the second answer comes from the mock's memory of answers, which must
    // tell a conditional request from a plain one.
    for (const round of [1, 2]) {
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await tile(8, 136, 99, { headers: { 'If-None-Match': header } })
        expect(again.status, `${header}, round ${round}`).toBe(304)
        expect(again.headers.get('cache-control')).toBe('public, max-age=3600')
        expect(await again.text()).toBe('')
      }
      expect((await tile(8, 136, 99, { headers: { 'If-None-Match': '"nope"' } })).status).toBe(200)
      const plain = await tile(8, 136, 99)
      expect(plain.status).toBe(200)
      expect(new Uint8Array(await plain.arrayBuffer())).toEqual(
        new Uint8Array(await first.clone().arrayBuffer()),
      )
    }
  })

  it.each([
    ['19/0/0', 404, 'not found'],
    ['1/2/0', 404, 'not found'],
    ['1/0/2', 404, 'not found'],
    ['-1/0/0', 400, 'invalid param: z'],
    ['1.5/0/0', 400, 'invalid param: z'],
    ['1/0x1/0', 400, 'invalid param: x'],
    ['1/0/0.png', 400, 'invalid param: y'],
    ['6/33/25@2x', 404, 'not found (TMaps has no @2x tiles: ask for 256 px tiles, zoom 0 to 18)'],
    ['1/0', 404, 'not found'],
    ['1/0/0/0', 404, 'not found'],
  ])('answers /r-tile/%s with %i %j', async (path, status, error) => {
    const response = await fetch(`https://tiles.tmaps.tn/r-tile/${path}`)
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({ error })
  })

  it('answers the same bytes for the same tile from two mocks of one seed, other bytes for another tile', async () => {
    const other = apiClient('tiles')
    await other.core.ready
    const a = Buffer.from(await (await tile(12, 2163, 1597)).arrayBuffer())
    const b = Buffer.from(await (await tile(12, 2164, 1597)).arrayBuffer())
    expect(a.equals(b)).toBe(false)
    expect(a.length).toBeGreaterThan(1000)
  })
})
