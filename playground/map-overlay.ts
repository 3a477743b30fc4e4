import { decode } from '@placemarkio/polyline'

/** `[lat, lng]`, as Leaflet takes it. */
export type LatLng = [lat: number, lng: number]

export type MarkerKind = 'result' | 'query' | 'start' | 'end' | 'stop' | 'origin' | 'destination' | 'point'

export interface OverlayMarker {
  at: LatLng
  kind: MarkerKind
  /** The popup's title (a place's name, "Start", "Origin 1"). */
  label: string
  /** The popup's other lines (address, category, distance). */
  details: string[]
}

export interface OverlayLine {
  points: LatLng[]
  /** A route is drawn thick; a link (distance matrix) thin. */
  kind: 'route' | 'link'
  label: string
}

export interface OverlayArea {
  /** Outer ring first, then holes. */
  rings: [outer: LatLng[], ...holes: LatLng[][]]
  color: string
  label: string
}

export interface OverlayCircle {
  at: LatLng
  /** In metres. */
  radius: number
  label: string
}

/** What the map draws of one answer. */
export interface Overlay {
  markers: OverlayMarker[]
  lines: OverlayLine[]
  /** Largest first, so smaller areas are drawn on top of larger ones. */
  areas: OverlayArea[]
  circles: OverlayCircle[]
  /** One line for the caption, e.g. "3 results", "a route of 18.8 km, 19 min". Empty if nothing. */
  summary: string
  /** `[[south, west], [north, east]]` of everything drawn, or `null`. */
  bounds: [LatLng, LatLng] | null
}

const MAX_MARKERS = 500
const MAX_POINTS = 100_000
const MAX_POLYLINE_CHARS = 400_000
const AREA_COLORS = ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed'] as const

type Obj = Record<string, unknown>
const isObj = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)
const inRange = (lat: number, lng: number) => lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 300) : undefined

/** `{ lat, lng }` as `[lat, lng]`, or `undefined` if it is not a point on Earth. */
function latLngOf(value: unknown): LatLng | undefined {
  if (!isObj(value) || !finite(value.lat) || !finite(value.lng)) return undefined
  return inRange(value.lat, value.lng) ? [value.lat, value.lng] : undefined
}

/** A GeoJSON position (`[lng, lat, ...]`) as `[lat, lng]`. */
function positionOf(value: unknown): LatLng | undefined {
  if (!Array.isArray(value) || !finite(value[0]) || !finite(value[1])) return undefined
  return inRange(value[1], value[0]) ? [value[1], value[0]] : undefined
}

/** The valid positions of a list, at most `MAX_POINTS`. */
function positionsOf(value: unknown): LatLng[] {
  if (!Array.isArray(value)) return []
  const points: LatLng[] = []
  for (const item of value.slice(0, MAX_POINTS)) {
    const point = positionOf(item)
    if (point) points.push(point)
  }
  return points
}

/** A route's geometry: a Google polyline (precision 5) or a GeoJSON LineString / MultiLineString. */
function routeLinesOf(geometry: unknown): LatLng[][] {
  if (typeof geometry === 'string') {
    if (geometry.length > MAX_POLYLINE_CHARS) return []
    const points = positionsOf(decode(geometry, 5))
    return points.length >= 2 ? [points] : []
  }
  if (!isObj(geometry)) return []
  if (geometry.type === 'LineString') {
    const points = positionsOf(geometry.coordinates)
    return points.length >= 2 ? [points] : []
  }
  if (geometry.type === 'MultiLineString' && Array.isArray(geometry.coordinates)) {
    return geometry.coordinates.map(positionsOf).filter((line) => line.length >= 2)
  }
  return []
}

const km = (metres: number) =>
  metres >= 1000 ? `${(metres / 1000).toFixed(1)} km` : `${Math.round(metres)} m`
const minutes = (seconds: number) =>
  seconds >= 3600
    ? `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
    : `${Math.max(1, Math.round(seconds / 60))} min`
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const near = (a: LatLng, b: LatLng) => Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[1] - b[1]) < 1e-6

/** A rough size of a ring, to draw larger areas below smaller ones. */
function spanOf(ring: LatLng[]): number {
  let [south, west, north, east] = [90, 180, -90, -180]
  for (const [lat, lng] of ring) {
    south = Math.min(south, lat)
    north = Math.max(north, lat)
    west = Math.min(west, lng)
    east = Math.max(east, lng)
  }
  return Math.max(0, north - south) * Math.max(0, east - west)
}

/**
 * What to draw of any TMaps answer: geocoding results (and the query point and radius), a route
 * (polyline or GeoJSON, with its stops), isochrones (GeoJSON polygons with their colour), the
 * distance matrix (origins, destinations and the lines between them). Anything else with
 * `lat`/`lng` is drawn as points. Never throws: an answer of an unexpected shape draws less.
 * @example overlayOf({ results: [{ lat: 36.8, lng: 10.18, name: 'Tunis' }] }).markers[0]?.label // 'Tunis'
 */
export function overlayOf(body: unknown): Overlay {
  const overlay: Overlay = { markers: [], lines: [], areas: [], circles: [], summary: '', bounds: null }
  try {
    collect(body, overlay)
  } catch (error) {
    // An answer the drawing did not foresee: draw what was collected so far.
    console.warn('tmaps-mock playground: part of the answer could not be drawn:', error)
  }
  overlay.markers = overlay.markers.slice(0, MAX_MARKERS)
  overlay.bounds = boundsOf(overlay)
  return overlay
}

function collect(body: unknown, overlay: Overlay) {
  const summary: string[] = []
  const marker = (at: LatLng | undefined, kind: MarkerKind, label: string, details: string[] = []) => {
    if (at && overlay.markers.length < MAX_MARKERS) overlay.markers.push({ at, kind, label, details })
  }
  if (!isObj(body)) return

  // GeoJSON: isochrones (a FeatureCollection of polygons), or any feature or geometry.
  const features =
    body.type === 'FeatureCollection' && Array.isArray(body.features)
      ? body.features
      : body.type === 'Feature'
        ? [body]
        : typeof body.type === 'string' && 'coordinates' in body
          ? [{ type: 'Feature', properties: {}, geometry: body }]
          : []
  let areaCount = 0
  features.forEach((feature, i) => {
    if (!isObj(feature) || !isObj(feature.geometry)) return
    const properties = isObj(feature.properties) ? feature.properties : {}
    const { type, coordinates } = feature.geometry
    const label =
      text(properties.name) ??
      (finite(properties.time)
        ? `${properties.time} min`
        : finite(properties.distance)
          ? km(properties.distance)
          : `Area ${i + 1}`)
    const color = cssColor(properties.color) ?? AREA_COLORS[i % AREA_COLORS.length] ?? AREA_COLORS[0]
    const polygons = type === 'Polygon' ? [coordinates] : type === 'MultiPolygon' ? coordinates : []
    if (Array.isArray(polygons)) {
      for (const polygon of polygons) {
        const [outer, ...holes] = Array.isArray(polygon)
          ? polygon.map(positionsOf).filter((r) => r.length >= 3)
          : []
        if (outer) overlay.areas.push({ rings: [outer, ...holes], color, label })
      }
      if (polygons.length > 0) areaCount++
    }
    for (const points of routeLinesOf(feature.geometry)) overlay.lines.push({ points, kind: 'route', label })
    if (type === 'Point') marker(positionOf(coordinates), 'point', text(properties.name) ?? 'Point')
  })
  overlay.areas.sort((a, b) => spanOf(b.rings[0]) - spanOf(a.rings[0]))
  if (areaCount > 0) summary.push(plural(areaCount, body.type === 'FeatureCollection' ? 'isochrone' : 'area'))

  // Geocoding: the query point (and radius), then the results.
  if (isObj(body.query)) {
    const at = latLngOf(body.query)
    marker(at, 'query', 'Query point')
    if (at && finite(body.query.radius) && body.query.radius > 0) {
      overlay.circles.push({
        at,
        radius: Math.min(body.query.radius, 1e6),
        label: `${km(body.query.radius)}`,
      })
    }
  }
  if (Array.isArray(body.results)) {
    let count = 0
    body.results.forEach((result, i) => {
      const at = latLngOf(result)
      if (!at || !isObj(result)) return
      const name = text(result.name)
      const place = text(result.formatted) ?? text(result.address)
      const details = [
        name ? place : undefined,
        text(result.category) ?? text(result.type),
        finite(result.distance) ? `${km(result.distance)} away` : undefined,
      ].filter((d): d is string => d !== undefined)
      marker(at, 'result', name ?? place ?? `Result ${i + 1}`, details)
      count++
    })
    summary.push(plural(count, 'result'))
  }

  // Routing: one route (direction, optimized) or several (`routes`).
  // (A GeoJSON Feature's geometry was drawn above.)
  const routes = [
    body.type === 'Feature' ? null : body,
    ...(Array.isArray(body.routes) ? body.routes : []),
  ].filter((route): route is Obj => isObj(route) && route.geometry !== undefined)
  for (const route of routes) {
    const lines = routeLinesOf(route.geometry)
    const [firstLine] = lines
    const lastLine = lines.at(-1)
    if (!firstLine || !lastLine) continue
    const length = finite(route.distance) ? km(route.distance) : undefined
    const time = finite(route.duration) ? minutes(route.duration) : undefined
    const label = ['Route', length, time].filter(Boolean).join(' · ')
    for (const points of lines) overlay.lines.push({ points, kind: 'route', label })
    const legs = Array.isArray(route.legs) ? route.legs.filter(isObj) : []
    let stops = (Array.isArray(route.waypoints) ? route.waypoints : []).map(latLngOf).filter((p) => !!p)
    const [firstLeg] = legs
    if (stops.length < 2 && firstLeg) {
      stops = [firstLeg.from, ...legs.map((leg) => leg.to)].map(latLngOf).filter((p) => !!p)
    }
    // Else the ends of the route's lines (each of 2 points or more).
    if (stops.length < 2) stops = [firstLine[0], lastLine.at(-1)].filter((p) => !!p)
    const [first] = stops
    const last = stops.at(-1)
    if (!first || !last) continue
    const roundtrip = near(first, last)
    const visits = Array.isArray(route.order) ? route.order.filter(finite) : []
    const order = visits.length > 0 ? ` (visiting order ${visits.join(', ')})` : ''
    marker(first, 'start', roundtrip ? 'Start and end' : 'Start', [label + order])
    stops.slice(1, -1).forEach((stop, i) => {
      marker(stop, 'stop', `Stop ${i + 1}`)
    })
    if (!roundtrip) marker(last, 'end', 'End', [label])
    summary.push(`a route${length ? ` of ${length}` : ''}${time ? `, ${time}` : ''}`)
  }

  // Distance matrix: origins, destinations, and a thin line for each pair.
  if (Array.isArray(body.origins) && Array.isArray(body.destinations)) {
    const origins = body.origins.map(latLngOf)
    const destinations = body.destinations.map(latLngOf)
    const cell = (table: unknown, i: number, j: number) => {
      const row = Array.isArray(table) ? table[i] : undefined
      const value = Array.isArray(row) ? row[j] : undefined
      return finite(value) ? value : undefined
    }
    /** ": 5.2 km, 7 min" from the matrix, or nothing. */
    const trip = (i: number, j: number) => {
      const distance = cell(body.distances, i, j)
      const duration = cell(body.durations, i, j)
      const what = [
        distance === undefined ? '' : km(distance),
        duration === undefined ? '' : minutes(duration),
      ]
      return what.some(Boolean) ? `: ${what.filter(Boolean).join(', ')}` : ''
    }
    const where = (at: LatLng) => `${at[0].toFixed(5)}, ${at[1].toFixed(5)}`
    origins.forEach((origin, i) => {
      destinations.forEach((destination, j) => {
        if (!origin || !destination || overlay.lines.length > 2000) return
        overlay.lines.push({
          points: [origin, destination],
          kind: 'link',
          label: `Origin ${i + 1} → destination ${j + 1}${trip(i, j)}`,
        })
      })
    })
    origins.forEach((at, i) => {
      const trips = destinations.slice(0, 10).map((_, j) => `To destination ${j + 1}${trip(i, j)}`)
      if (at) marker(at, 'origin', `Origin ${i + 1}`, [where(at), ...trips])
    })
    destinations.forEach((at, j) => {
      if (at) marker(at, 'destination', `Destination ${j + 1}`, [where(at)])
    })
    summary.push(
      `${plural(origins.filter(Boolean).length, 'origin')} × ${plural(destinations.filter(Boolean).length, 'destination')}`,
    )
  }

  // Anything else: every object with lat/lng.
  if (overlay.markers.length + overlay.lines.length + overlay.areas.length === 0) {
    const visit = (value: unknown, depth: number) => {
      if (depth > 6 || value === null || typeof value !== 'object' || overlay.markers.length >= MAX_MARKERS)
        return
      marker(latLngOf(value), 'point', text((value as Obj).name) ?? text((value as Obj).formatted) ?? 'Point')
      for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, depth + 1)
    }
    visit(body, 0)
    if (overlay.markers.length > 0) summary.push(plural(overlay.markers.length, 'point'))
  }
  overlay.summary = summary.join(', ')
}

/** A colour the answer gives, if it looks like one (hex, rgb()/hsl(), or a name). */
function cssColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  return /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%/]+\)|[a-z]{3,20})$/i.test(value.trim())
    ? value.trim()
    : undefined
}

function boundsOf(overlay: Overlay): [LatLng, LatLng] | null {
  let [south, west, north, east] = [90, 180, -90, -180]
  const add = ([lat, lng]: LatLng) => {
    south = Math.min(south, lat)
    north = Math.max(north, lat)
    west = Math.min(west, lng)
    east = Math.max(east, lng)
  }
  for (const m of overlay.markers) add(m.at)
  for (const l of overlay.lines) for (const p of l.points) add(p)
  for (const a of overlay.areas) for (const p of a.rings[0]) add(p)
  for (const c of overlay.circles) {
    const dLat = c.radius / 111_320
    const dLng = dLat / Math.max(0.01, Math.cos((c.at[0] * Math.PI) / 180))
    add([Math.max(-90, c.at[0] - dLat), Math.max(-180, c.at[1] - dLng)])
    add([Math.min(90, c.at[0] + dLat), Math.min(180, c.at[1] + dLng)])
  }
  return south > north
    ? null
    : [
        [south, west],
        [north, east],
      ]
}
