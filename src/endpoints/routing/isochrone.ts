import type { IsochroneResponse } from '../../contract/openapi.ts'
import { kmPerDegreeLng } from '../../data/geo.ts'
import { inCoverage, isLand } from '../../data/outline.ts'
import { hashSeed } from '../../data/seeded.ts'
import { body } from '../body.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError } from '../params.ts'
import { type Point, PROFILES, type Profile, speedKmh } from './road-model.ts'

/** Vertices of each contour's ring (before closing it). */
const BEARINGS = 72
const MAX_MINUTES = 60
const MAX_KM = 50
const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i

type Contour = { time: number } | { distance: number }

/**
 * `POST /routing/isochrone`: the area reachable from `origin` within each contour's `time`
 * (minutes, at most 60) or `distance` (road km, at most 50), as a GeoJSON FeatureCollection with
 * one Polygon Feature per contour in request order. Growing values give nested polygons;
 * polygons stop at the coast and the borders. An origin outside the data's coverage (at sea,
 * abroad) answers Features whose geometry is `null`.
 * @example isochrone({ url, seed: 'demo', body: { origin: { lat: 36.8002, lng: 10.1815 }, contours: [{ time: 15 }] } })
 */
export function isochrone(ctx: EndpointContext): IsochroneResponse {
  const json = ctx.body as Record<string, unknown>
  const params = body(json)
  const origin = params.point('origin', { required: true })!
  const contours = readContours(json.contours)
  const profile = params.oneOf('profile', PROFILES, 'driving')
  const colors = readColors(json.colors, contours.length)

  const covered = inCoverage(origin.lat, origin.lng)
  const shape = detourByBearing(origin)
  const radii = contours.map((c) =>
    shape.map((detour) => ('time' in c ? roadKmWithin(profile, c.time) : c.distance) / detour),
  )
  const reach = covered ? landReach(origin, Math.max(...radii.flat())) : []
  return {
    type: 'FeatureCollection' as const,
    features: contours.map((contour, i) => ({
      type: 'Feature' as const,
      properties: { contour: i, ...contour, profile, ...(colors && { color: colors[i] }) },
      geometry: covered ? polygon(origin, radii[i]!, reach) : null,
    })),
  }
}

function readContours(value: unknown): Contour[] {
  if (value === undefined || value === null) throw new ParamError('missing-param', 'contours')
  if (!Array.isArray(value) || value.length < 1 || value.length > 4)
    throw new ParamError('invalid-param', 'contours')
  return value.map((c): Contour => {
    if (c === null || typeof c !== 'object' || Array.isArray(c))
      throw new ParamError('invalid-param', 'contours')
    const keys = Object.keys(c)
    const { time, distance } = c as Record<string, unknown>
    const positive = (v: unknown, max: number): v is number =>
      typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= max
    if (keys.length === 1 && positive(time, MAX_MINUTES)) return { time }
    if (keys.length === 1 && positive(distance, MAX_KM)) return { distance }
    throw new ParamError('invalid-param', 'contours')
  })
}

/** One hex colour per contour (`#22c55e` or `#2c5`), or none. */
function readColors(value: unknown, count: number): string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (
    !Array.isArray(value) ||
    value.length !== count ||
    !value.every((c) => typeof c === 'string' && HEX_COLOR.test(c))
  )
    throw new ParamError('invalid-param', 'colors')
  return value
}

/** Road kilometres a profile covers in `minutes` (the road model's speeds, solved by bisection). */
export function roadKmWithin(profile: Profile, minutes: number): number {
  let low = 0
  let high = 200
  for (let i = 0; i < 40; i++) {
    const km = (low + high) / 2
    if ((km / speedKmh(profile, km)) * 60 <= minutes) low = km
    else high = km
  }
  return low
}

/** How winding the roads are in each direction: a smooth 1.15 to 1.45, stable per origin. */
function detourByBearing(origin: Point): number[] {
  const h = hashSeed(`${origin.lat},${origin.lng}`)
  const [p1, p2, p3] = [h % 628, (h >>> 10) % 628, (h >>> 20) % 628].map((n) => n / 100) as [
    number,
    number,
    number,
  ]
  return Array.from({ length: BEARINGS }, (_, k) => {
    const angle = (k / BEARINGS) * Math.PI * 2
    return (
      1.3 + 0.08 * Math.sin(angle + p1) + 0.05 * Math.sin(2 * angle + p2) + 0.02 * Math.sin(5 * angle + p3)
    )
  })
}

/** Local planar kilometres to degrees. */
const offset = (origin: Point, angle: number, km: number): Point => ({
  lat: origin.lat + (Math.sin(angle) * km) / 110.54,
  lng: origin.lng + (Math.cos(angle) * km) / kmPerDegreeLng(origin.lat),
})

/**
 * How far (straight km) one can go from the origin in each direction before the sea or a border.
 * An origin just off the outlines (a harbour) first looks for land within 5 km.
 */
function landReach(origin: Point, maxKm: number): number[] {
  const step = Math.min(1, Math.max(0.1, maxKm / 80))
  return Array.from({ length: BEARINGS }, (_, k) => {
    const angle = (k / BEARINGS) * Math.PI * 2
    let seenLand = isLand(origin.lat, origin.lng)
    for (let km = step; km <= maxKm + step; km += step) {
      const p = offset(origin, angle, km)
      if (isLand(p.lat, p.lng)) seenLand = true
      else if (seenLand) return km - step
      else if (km > 5) return 0
    }
    return Number.POSITIVE_INFINITY
  })
}

/**
 * A counter-clockwise ring (RFC 7946) with a vertex per bearing, at the contour's reach clipped
 * to land (but at least 100 m, so no ring collapses onto its origin).
 */
function polygon(origin: Point, radii: readonly number[], reach: readonly number[]) {
  const ring = radii.map((r, k): [number, number] => {
    const km = Math.max(Math.min(r, reach[k]!), Math.min(r, 0.1))
    const p = offset(origin, (k / BEARINGS) * Math.PI * 2, km)
    return [round6(p.lng), round6(p.lat)]
  })
  return { type: 'Polygon' as const, coordinates: [[...ring, ring[0]!]] }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6
