import { encode } from '@placemarkio/polyline'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiClient } from '../../../test/support/api-client.ts'
import { decodePng, near } from '../../../test/support/png.ts'
import { loadBaseLevel } from '../../map/basemap.ts'
import { mercatorX, mercatorY, worldSize } from '../../map/projection.ts'
import { staticScene, staticView } from '../../map/render.ts'
import { MAX_PICTURE_COST, pictureCost } from '../../map/spec.ts'
import { decodePolyline, parseStaticMap } from './static-map.ts'

const { get, fetch } = apiClient('static')
const image = async (query: string) => {
  const response = await fetch(`https://api.tmaps.tn/maps/static?${query}`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('image/png')
  return decodePng(new Uint8Array(await response.arrayBuffer()))
}
/** Where a point lands in the picture of a request. */
const pixelOf = (query: string, lat: number, lng: number): [number, number] => {
  const view = staticView(parseStaticMap(new URLSearchParams(query)))
  const size = worldSize(view.zoom)
  return [mercatorX(lng) * size - view.left, mercatorY(lat) * size - view.top]
}

describe('GET /maps/static', () => {
  beforeAll(() => loadBaseLevel(10))
  it("answers the docs' listing thumbnail: 800 x 500 with the red H pin on its point", async () => {
    const query = 'center=36.8528,10.3261&zoom=15&size=800x500&style=streets&marker=36.8528,10.3261|red|H'
    const png = await image(query)
    expect([png.width, png.height]).toEqual([800, 500])
    // The pin's head sits 22 px above its point; its sides are the marker's colour.
    expect(near(png.pixel(400 - 6, 250 - 22), [220, 38, 38])).toBe(true)
    expect(near(png.pixel(400 + 6, 250 - 22), [220, 38, 38])).toBe(true)
    // The label is drawn on the head, in white.
    const head = [-2, -1, 0, 1, 2].flatMap((dx) => [-3, 0, 3].map((dy) => png.pixel(400 + dx, 228 + dy)))
    expect(head.some((p) => near(p, [255, 255, 255], 40))).toBe(true)
  })

  it('draws the geometry of /routing/direction as a path, in its colour, along the route', async () => {
    const route = await get('routing/direction', 'from=36.8002,10.1815&to=36.8528,10.3261')
    const geometry: string = route.body.geometry
    const query = `bbox=10.15,36.78,10.35,36.87&size=600x400&path=weight:6|color:0x00aa00|enc:${encodeURIComponent(geometry)}`
    const png = await image(query)
    const points = decodePolyline(geometry, 'path')
    let green = 0
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1]!, points[i]!]
      const [x, y] = pixelOf(query, (a.lat + b.lat) / 2, (a.lng + b.lng) / 2)
      if (near(png.pixel(x, y), [0, 170, 0], 30)) green++
    }
    expect(green / (points.length - 1)).toBeGreaterThan(0.9)
  })

  it('fits a bbox: markers on its corners are inside the picture', async () => {
    const query = 'bbox=8.2,33.2,11.2,37.3&size=400x700&marker=33.2,8.2|blue|A&marker=37.3,11.2|blue|B'
    const view = staticView(parseStaticMap(new URLSearchParams(query)))
    for (const [lat, lng] of [
      [33.2, 8.2],
      [37.3, 11.2],
    ] as const) {
      const [x, y] = pixelOf(query, lat, lng)
      expect(x).toBeGreaterThan(0)
      expect(x).toBeLessThan(400)
      expect(y).toBeGreaterThan(0)
      expect(y).toBeLessThan(700)
    }
    expect(view.zoom).toBe(7) // the largest whole zoom at which it fits; 8 would not
    const png = await image(query)
    const [x, y] = pixelOf(query, 37.3, 11.2)
    expect(near(png.pixel(x - 6, y - 22), [37, 99, 235])).toBe(true)
  })

  it('draws four visibly different styles, dark darker than streets', async () => {
    const base = 'center=36.5,10.5&zoom=8&size=256x256'
    const [streets, dark, terrain, sunny] = await Promise.all(
      ['streets', 'dark', 'terrain', 'sunny'].map((style) => image(`${base}&style=${style}`)),
    )
    expect(dark!.luminance()).toBeLessThan(streets!.luminance() - 80)
    const sea = (png: typeof streets) => png!.pixel(250, 20) // the Gulf of Hammamet's north
    const seas = [streets, dark, terrain, sunny].map((png) => sea(png).join(','))
    expect(new Set(seas).size).toBe(4)
    // Terrain shades the land from the green north to the Saharan south.
    const north = terrain!.pixel(...pixelOf(`${base}&style=terrain`, 36.95, 9.6))
    expect(north[1]).toBeGreaterThan(north[0]) // greener than red
  })

  it('draws a polygon given as URL-encoded GeoJSON, and the same as lat,lng pairs', async () => {
    const ring = [
      [10.0, 36.5],
      [10.4, 36.5],
      [10.4, 36.8],
      [10.0, 36.8],
      [10.0, 36.5],
    ]
    const geojson = encodeURIComponent(JSON.stringify({ type: 'Polygon', coordinates: [ring] }))
    const pairs = ring.map(([lng, lat]) => `${lat},${lng}`).join('|')
    const base = 'center=36.65,10.2&zoom=9&size=300x300'
    const plain = await image(base)
    const a = await image(`${base}&polygon=${geojson}`)
    const b = await image(`${base}&polygon=color:0x0066ff|${pairs}`)
    const inside = pixelOf(base, 36.6, 10.1)
    expect(a.pixel(...inside)).not.toEqual(plain.pixel(...inside))
    expect(a.pixel(...inside)).toEqual(b.pixel(...inside))
    const [x, y] = pixelOf(base, 36.5, 10.2) // on the southern edge: the outline's colour
    expect(near(a.pixel(x, y), [0, 102, 255], 40)).toBe(true)
  })

  it('draws the data attribution in the bottom-right corner, the longest that fits the width', () => {
    const text = (size: string) =>
      staticScene('static', parseStaticMap(new URLSearchParams(`center=36.8,10.2&zoom=10&size=${size}`)))
        .shapes.filter((s) => s.role === 'attribution' && s.kind === 'text')
        .map((s) => (s.kind === 'text' ? s.text : ''))
    expect(text('800x500')).toEqual([
      '© OpenStreetMap contributors · GSHHG · GeoNames, Who’s On First, Natural Earth',
    ])
    expect(text('200x150')).toEqual(['© OpenStreetMap contributors'])
    expect(text('150x150')).toEqual(['© OpenStreetMap contributors'])
    expect(text('125x100')).toEqual(['© OpenStreetMap'])
    expect(text('100x100')).toEqual([])
  })

  it.each([
    ['center=36.8,10.1&zoom=12', 'missing required param: size'],
    ['center=36.8,10.1&zoom=12&size=0x10', 'invalid param: size'],
    ['center=36.8,10.1&zoom=12&size=1281x10', 'invalid param: size'],
    ['center=36.8,10.1&zoom=12&size=800*600', 'invalid param: size'],
    ['center=36.8,10.1&zoom=12&size=800x600&style=night', 'invalid param: style'],
    ['center=36.8,10.1&zoom=12&size=800x600&format=jpg', 'invalid param: format'],
    ['center=36.8,10.1&size=800x600', 'missing required param: zoom'],
    ['zoom=12&size=800x600', 'missing required param: center'],
    ['size=800x600', 'missing required param: center'],
    ['center=36.8,10.1&zoom=19&size=800x600', 'invalid param: zoom'],
    ['center=36.8,10.1&zoom=1.5&size=800x600', 'invalid param: zoom'],
    ['center=91,10.1&zoom=12&size=800x600', 'invalid param: center'],
    ['center=36.8,10.1&zoom=12&bbox=9,35,10,36&size=800x600', 'invalid param: bbox'],
    ['bbox=9,35,10,36&zoom=8&size=800x600', 'invalid param: zoom'],
    ['bbox=10,35,9,36&size=800x600', 'invalid param: bbox'],
    ['center=36.8,10.1&zoom=12&size=80x60&marker=abc', 'invalid param: marker'],
    ['center=36.8,10.1&zoom=12&size=80x60&marker=36.8,10.1|nocolour', 'invalid param: marker'],
    ['center=36.8,10.1&zoom=12&size=80x60&marker=36.8,10.1|red|AB', 'invalid param: marker'],
    ['center=36.8,10.1&zoom=12&size=80x60&marker=36.8,10.1|red|A|x', 'invalid param: marker'],
    ['center=36.8,10.1&zoom=12&size=80x60&path=enc:', 'invalid param: path'],
    ['center=36.8,10.1&zoom=12&size=80x60&path=enc:%20%21', 'invalid param: path'],
    ['center=36.8,10.1&zoom=12&size=80x60&path=enc:_p~iF~ps|U_', 'invalid param: path'],
    ['center=36.8,10.1&zoom=12&size=80x60&path=weight:99|enc:_p~iF~ps|U', 'invalid param: path'],
    ['center=36.8,10.1&zoom=12&size=80x60&path=36.8,10.1', 'invalid param: path'],
    ['center=36.8,10.1&zoom=12&size=80x60&path=color:blue', 'invalid param: path'],
    // Names of Object.prototype are no colours.
    ['center=36.8,10.1&zoom=12&size=80x60&path=color:constructor|36.8,10.1|36.9,10.2', 'invalid param: path'],
    ['center=36.8,10.1&zoom=12&size=80x60&marker=36.8,10.1|__proto__', 'invalid param: marker'],
    ['center=36.8,10.1&zoom=12&size=80x60&polygon=36.8,10.1|36.9,10.2', 'invalid param: polygon'],
    ['center=36.8,10.1&zoom=12&size=80x60&polygon={bad', 'invalid param: polygon'],
    [
      'center=36.8,10.1&zoom=12&size=80x60&polygon={"type":"Point","coordinates":[10,36]}',
      'invalid param: polygon',
    ],
    [
      'center=36.8,10.1&zoom=12&size=80x60&polygon=fillcolor:nope|36.8,10.1|36.9,10.2|36.9,10.1',
      'invalid param: polygon',
    ],
    [`center=36.8,10.1&zoom=12&size=80x60${'&marker=36.8,10.1'.repeat(101)}`, 'invalid param: marker'],
    [
      `center=36.8,10.1&zoom=12&size=80x60&path=${'36.8,10.1|'.repeat(10_001)}36.8,10.1`,
      'invalid param: path',
    ],
  ])('answers %s with 400 %j', async (query, error) => {
    const response = await fetch(
      `https://api.tmaps.tn/maps/static?${query.replaceAll('{', '%7B').replaceAll('"', '%22')}`,
    )
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({ error })
  })

  it('accepts every documented marker form: lat,lng alone, with a colour, with a label, hex colours', async () => {
    const base = 'center=36.8,10.18&zoom=12&size=200x200'
    for (const marker of [
      '36.8,10.18',
      '36.8,10.18|blue',
      '36.8,10.18||7',
      '36.8,10.18|0x16a34a|B',
      '36.8,10.18|%23ff00ff|ب',
    ]) {
      const response = await fetch(`https://api.tmaps.tn/maps/static?${base}&marker=${marker}`)
      expect(response.status, marker).toBe(200)
    }
  })

  it('refuses a map over its drawing budget with 400 naming the limit, before drawing', async () => {
    const square = 'polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0'
    const base = 'center=36.8,10.18&zoom=13&size=1280x1280'
    const costly = await fetch(
      `https://api.tmaps.tn/maps/static?${base}&${Array(100).fill(square).join('&')}`,
    )
    expect(costly.status).toBe(400)
    expect(costly.headers.get('content-type')).toBe('application/json')
    expect(await costly.json()).toEqual({
      error:
        'invalid param: polygon (this map would cost 42.6 M pixel units to draw; the limit is 12 M: fewer or smaller overlays, or a smaller size)',
    })
    // 100 paths of 10,000 points each: 26.6 M.
    const line = encode(Array.from({ length: 10_000 }, (_, i) => [10.18 + (i % 7) / 1e4, 36.7 + i / 1e5]))
    const paths = Array.from({ length: 100 }, () => `path=enc:${encodeURIComponent(line)}`).join('&')
    const routes = await fetch(`https://api.tmaps.tn/maps/static?${base}&${paths}`)
    expect(await routes.json()).toMatchObject({
      error: expect.stringMatching(/^invalid param: path \(this map would cost 26\.6 M/),
    })
  })

  it('draws the largest documented map with a route and a few areas, inside the budget', async () => {
    const areas = Array(10).fill('polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0').join('&')
    const query = `center=36.8,10.18&zoom=13&size=1280x1280&${areas}&path=36.7,10.1|36.9,10.3`
    expect(pictureCost(parseStaticMap(new URLSearchParams(query)))).toBeLessThan(MAX_PICTURE_COST)
    const png = await image(query)
    expect([png.width, png.height]).toEqual([1280, 1280])
  })
})
