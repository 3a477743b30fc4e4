import { decode } from '@placemarkio/polyline'
import type { LatLng } from '../../data/geo.ts'
import { MAX_PICTURE_COST, pictureCost, type StaticMapSpec } from '../../map/spec.ts'
import { MAP_STYLES } from '../../map/styles.ts'
import type { Rgba } from '../../rasterizer/raster.ts'
import { must } from '../../validate/must.ts'
import { deeperThan, MAX_JSON_DEPTH } from '../../validate/validate.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError, parseLatLng, query } from '../params.ts'
import { MAX_TILE_ZOOM } from './raster-tile.ts'

/** The largest image, as documented. */
export const MAX_SIZE = 1280
/** Limits that keep one request bounded (the docs give none). */
export const MAX_OVERLAYS = 100
export const MAX_VERTICES = 10_000
const MAX_VALUE_LENGTH = 100_000

// biome-ignore format: a table of colours
const NAMED_COLORS: Record<string, Rgba> = {
  red: [220, 38, 38, 255], blue: [37, 99, 235, 255], green: [22, 163, 74, 255], orange: [234, 88, 12, 255],
  yellow: [250, 204, 21, 255], purple: [147, 51, 234, 255], pink: [219, 39, 119, 255], brown: [146, 64, 14, 255],
  black: [17, 17, 17, 255], white: [255, 255, 255, 255], gray: [107, 114, 128, 255], grey: [107, 114, 128, 255],
}
const HEX = /^(?:0x|#)([0-9a-f]{6})([0-9a-f]{2})?$/i

/** A colour: a name (`red`), `0xRRGGBB`, `0xRRGGBBAA`, `#RRGGBB` or `#RRGGBBAA`. */
export function parseColor(value: string): Rgba | undefined {
  const name = value.toLowerCase()
  // Own names only: `constructor` or `__proto__` are no colours.
  if (Object.hasOwn(NAMED_COLORS, name)) return NAMED_COLORS[name]
  const hex = HEX.exec(value)
  if (!hex) return undefined
  const n = Number.parseInt(hex[1] ?? '', 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255, hex[2] ? Number.parseInt(hex[2], 16) : 255]
}

const DEFAULT_MARKER: Rgba = must(NAMED_COLORS.red, 'no red among the named colours')
const DEFAULT_PATH: Rgba = [0, 102, 255, 255]
/** One letter or digit, in any script. */
const LABEL = /^[\p{L}\p{N}]$/u

/**
 * `GET /maps/static`: a PNG map centred on a point (`center` + `zoom`) or fitted to a `bbox`,
 * `size` up to 1280 x 1280, in one of four styles, with repeated `marker`, `path` and `polygon`
 * overlays and the data attribution. Every parameter is checked before anything is drawn; a
 * malformed one answers 400 naming it. The renderer loads on the first map.
 * @example
 * await staticMap({
 *   url: new URL('https://api.tmaps.tn/maps/static?center=36.8,10.18&zoom=12&size=400x300'),
 *   params: {},
 *   seed: 'tmaps',
 *   renderer: inThread,
 * })
 */
export async function staticMap(ctx: EndpointContext): Promise<Uint8Array<ArrayBuffer>> {
  const spec = parseStaticMap(ctx.url.searchParams)
  return ctx.renderer.staticMap(ctx.seed, spec)
}

/** Reads and checks every parameter of a static map request (throws `ParamError`). */
export function parseStaticMap(search: URLSearchParams): StaticMapSpec {
  for (const [name, value] of search) {
    if (value.length > MAX_VALUE_LENGTH) throw new ParamError('invalid-param', name)
  }
  const params = query(search)
  const sizeText = params.requiredText('size', { max: 9 })
  const size = /^(\d{1,4})x(\d{1,4})$/.exec(sizeText)
  const [width, height] = size ? [Number(size[1]), Number(size[2])] : [0, 0]
  if (!(width >= 1 && width <= MAX_SIZE && height >= 1 && height <= MAX_SIZE))
    throw new ParamError('invalid-param', 'size')
  const style = params.oneOf('style', MAP_STYLES, 'streets')
  params.oneOf('format', ['png'] as const, 'png')

  const center = params.latLng('center')
  const bbox = params.bbox('bbox')
  const zoomGiven = params.optionalText('zoom', { max: 9 }) !== undefined
  let frame: StaticMapSpec['frame']
  if (center && bbox) throw new ParamError('invalid-param', 'bbox')
  if (bbox) {
    if (zoomGiven) throw new ParamError('invalid-param', 'zoom')
    frame = { bbox }
  } else {
    if (!center) throw new ParamError('missing-param', 'center')
    if (!zoomGiven) throw new ParamError('missing-param', 'zoom')
    frame = { center, zoom: params.int('zoom', { min: 0, max: MAX_TILE_ZOOM, fallback: 0 }) }
  }

  const all = (name: string) => {
    const values = search.getAll(name).filter((v) => v.trim() !== '')
    if (values.length > MAX_OVERLAYS) throw new ParamError('invalid-param', name)
    return values
  }
  const spec: StaticMapSpec = {
    width,
    height,
    style,
    frame,
    markers: all('marker').map(parseMarker),
    paths: all('path').map(parsePath),
    polygons: all('polygon').map(parsePolygon),
  }
  const cost = pictureCost(spec)
  if (cost > MAX_PICTURE_COST) {
    const costliest = spec.polygons.length > 0 ? 'polygon' : spec.paths.length > 0 ? 'path' : 'size'
    throw new ParamError(
      'invalid-param',
      costliest,
      `this map would cost ${(cost / 1e6).toFixed(1)} M pixel units to draw; the limit is ${MAX_PICTURE_COST / 1e6} M: fewer or smaller overlays, or a smaller size`,
    )
  }
  return spec
}

/** `lat,lng|color|label`: colour and label optional (`36.8,10.18`, `36.8,10.18|blue`, `36.8,10.18||A`). */
function parseMarker(value: string): StaticMapSpec['markers'][number] {
  const parts = value.split('|').map((p) => p.trim())
  if (parts.length > 3) throw new ParamError('invalid-param', 'marker')
  const [point = '', colorText, label] = parts
  const fail = () => new ParamError('invalid-param', 'marker')
  const color = colorText ? parseColor(colorText) : DEFAULT_MARKER
  if (!color) throw fail()
  if (label && !LABEL.test(label)) throw fail()
  return { point: parseLatLng(point, 'marker'), color, ...(label && { label }) }
}

/** Style parts (`weight:N`, `color:C`, `fillcolor:C`) before the geometry. */
function styleParts(parts: string[], name: string, fill: boolean) {
  const style: { weight?: number; color?: Rgba; fill?: Rgba } = {}
  for (const part of parts) {
    const [key, ...rest] = part.split(':')
    const value = rest.join(':').trim()
    const color = key === 'color' || key === 'fillcolor' ? parseColor(value) : undefined
    if (key === 'weight' && /^\d{1,2}(\.\d+)?$/.test(value) && Number(value) >= 0.5 && Number(value) <= 20)
      style.weight = Number(value)
    else if (key === 'color' && color) style.color = color
    else if (fill && key === 'fillcolor' && color) style.fill = color
    else throw new ParamError('invalid-param', name)
  }
  return style
}

/** `weight:4|color:0x0066ff|enc:<polyline>`, or points `lat,lng|lat,lng|...` after the style parts. */
function parsePath(value: string): StaticMapSpec['paths'][number] {
  let points: LatLng[]
  let styleText: string[]
  const enc = value.indexOf('enc:')
  if (enc >= 0) {
    // The polyline alphabet includes '|': everything after `enc:` is the polyline.
    points = decodePolyline(value.slice(enc + 4).trim(), 'path')
    styleText = value
      .slice(0, enc)
      .split('|')
      .map((p) => p.trim())
      .filter(Boolean)
  } else {
    const parts = value.split('|').map((p) => p.trim())
    const first = parts.findIndex((p) => /^[-+\d.]/.test(p))
    if (first < 0) throw new ParamError('invalid-param', 'path')
    styleText = parts.slice(0, first)
    points = parts.slice(first).map((p) => parseLatLng(p, 'path'))
  }
  if (points.length < 2 || points.length > MAX_VERTICES) throw new ParamError('invalid-param', 'path')
  const style = styleParts(styleText, 'path', false)
  return { points, weight: style.weight ?? 4, color: style.color ?? DEFAULT_PATH }
}

/** URL-encoded GeoJSON (a Polygon, a MultiPolygon or a Feature of one), or `lat,lng|lat,lng|...`. */
function parsePolygon(value: string): StaticMapSpec['polygons'][number] {
  const fail = () => new ParamError('invalid-param', 'polygon')
  let rings: LatLng[][]
  let style: ReturnType<typeof styleParts> = {}
  const text = value.trim()
  if (text.startsWith('{')) {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw fail()
    }
    if (deeperThan(json, MAX_JSON_DEPTH))
      throw new ParamError('invalid-param', 'polygon', `nested deeper than ${MAX_JSON_DEPTH} levels`)
    rings = geoJsonRings(json)
    if (!rings) throw fail()
  } else {
    const parts = text.split('|').map((p) => p.trim())
    const first = parts.findIndex((p) => /^[-+\d.]/.test(p))
    if (first < 0) throw fail()
    style = styleParts(parts.slice(0, first), 'polygon', true)
    rings = [parts.slice(first).map((p) => parseLatLng(p, 'polygon'))]
  }
  const vertices = rings.reduce((n, r) => n + r.length, 0)
  if (rings.length === 0 || rings.some((r) => r.length < 3) || vertices > MAX_VERTICES) throw fail()
  const color = style.color ?? DEFAULT_PATH
  return {
    rings,
    weight: style.weight ?? 2,
    color,
    fill: style.fill ?? [color[0], color[1], color[2], Math.round(color[3] * 0.25)],
  }
}

function geoJsonRings(json: unknown): LatLng[][] {
  const fail = () => new ParamError('invalid-param', 'polygon')
  const object = json as { type?: unknown; geometry?: unknown; coordinates?: unknown }
  if (!object || typeof object !== 'object') throw fail()
  if (object.type === 'Feature') return geoJsonRings(object.geometry)
  const ring = (r: unknown): LatLng[] => {
    if (!Array.isArray(r)) throw fail()
    return r.map((p) => {
      if (!Array.isArray(p) || p.length < 2 || p.length > 3) throw fail()
      const [lng, lat] = p as unknown[]
      if (typeof lat !== 'number' || typeof lng !== 'number' || Math.abs(lat) > 90 || Math.abs(lng) > 180)
        throw fail()
      return { lat, lng }
    })
  }
  const polygon = (p: unknown): LatLng[][] => {
    if (!Array.isArray(p) || p.length === 0) throw fail()
    return p.map(ring)
  }
  if (object.type === 'Polygon') return polygon(object.coordinates)
  if (object.type === 'MultiPolygon' && Array.isArray(object.coordinates))
    return object.coordinates.flatMap(polygon)
  throw fail()
}

/** A Google encoded polyline (precision 5), checked: its alphabet, a complete last value, points in range. */
export function decodePolyline(text: string, name: string): LatLng[] {
  const fail = () => new ParamError('invalid-param', name)
  if (text === '') throw fail()
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 63 || c > 126) throw fail()
  }
  if (text.charCodeAt(text.length - 1) >= 95) throw fail()
  const points = decode(text, 5).map(([lng = Number.NaN, lat = Number.NaN]) => ({ lat, lng })) // NaN: refused
  if (
    points.some(
      (p) =>
        !Number.isFinite(p.lat) || !Number.isFinite(p.lng) || Math.abs(p.lat) > 90 || Math.abs(p.lng) > 180,
    )
  )
    throw fail()
  return points
}
