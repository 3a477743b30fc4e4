import { decode } from '@placemarkio/polyline'
import outline from '../src/data/tunisia-outline.json' with { type: 'json' }
import type { Sent } from './composer.tsx'

type Position = number[]
interface Overlay {
  points: Position[]
  lines: Position[][]
  areas: Array<{ ring: Position[]; color: string }>
}

const COS = Math.cos((34 * Math.PI) / 180)
const project = ([lng, lat]: Position): [number, number] => [(lng! - 7) * COS * 100, (38 - lat!) * 100]
const path = (ring: Position[]) =>
  `M${ring
    .map((p) =>
      project(p)
        .map((n) => n.toFixed(2))
        .join(','),
    )
    .join('L')}Z`
const line = (ring: Position[]) =>
  `M${ring
    .map((p) =>
      project(p)
        .map((n) => n.toFixed(2))
        .join(','),
    )
    .join('L')}`

const GOVERNORATES = outline.features
  .filter((f) => f.properties.layer === 'governorate')
  .map((f) => {
    const g = f.geometry as { type: string; coordinates: unknown }
    const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as Position[][][]
    return { id: String(f.properties.id), d: polygons.map((p) => path(p[0]!)).join('') }
  })

/** Points, lines and areas of any TMaps answer: results with lat/lng, route geometries, isochrones. */
export function overlayOf(body: unknown): Overlay {
  const overlay: Overlay = { points: [], lines: [], areas: [] }
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object' || overlay.points.length > 500) return
    const v = value as Record<string, unknown>
    if (typeof v.lat === 'number' && typeof v.lng === 'number') overlay.points.push([v.lng, v.lat])
    if (typeof v.geometry === 'string') overlay.lines.push(decode(v.geometry))
    const geometry = v.geometry as { type?: string; coordinates?: unknown } | undefined
    if (geometry?.type === 'LineString') overlay.lines.push(geometry.coordinates as Position[])
    if (geometry?.type === 'Polygon') {
      const color = ((v.properties as { color?: string } | undefined)?.color ?? '#2563eb') as string
      overlay.areas.push({ ring: (geometry.coordinates as Position[][])[0]!, color })
    }
    for (const child of Array.isArray(value) ? value : Object.values(v)) visit(child, depth + 1)
  }
  visit(body, 0)
  return overlay
}

/** Tunisia's governorates, with the last answer drawn on top (and zoomed to it). */
export function TunisiaMap({ sent }: { sent: Sent | null }) {
  const overlay = sent?.body === undefined ? overlayOf(null) : overlayOf(sent.body)
  const all = [...overlay.points, ...overlay.lines.flat(), ...overlay.areas.flatMap((a) => a.ring)].map(
    project,
  )
  let box = [0, 0, 500, 760]
  if (all.length > 0) {
    const xs = all.map((p) => p[0])
    const ys = all.map((p) => p[1])
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
    const span = Math.max(maxX - minX, maxY - minY, 12) * 1.3
    box = [(minX + maxX) / 2 - span / 2, (minY + maxY) / 2 - span / 2, span, span]
  }
  const scale = box[2]! / 500
  return (
    <figure class="panel map">
      <svg
        viewBox={box.join(' ')}
        role="img"
        aria-label={`Map of Tunisia${all.length ? ' with the last answer' : ''}`}
      >
        {GOVERNORATES.map((g) => (
          <path key={g.id} d={g.d} class="gov" stroke-width={0.6 * scale} />
        ))}
        {overlay.areas.map((a, i) => (
          <path
            key={`a${i}`}
            d={path(a.ring)}
            fill={a.color}
            fill-opacity="0.25"
            stroke={a.color}
            stroke-width={1 * scale}
          />
        ))}
        {overlay.lines.map((l, i) => (
          <path key={`l${i}`} d={line(l)} fill="none" stroke="#2563eb" stroke-width={2 * scale} />
        ))}
        {overlay.points.map((p, i) => {
          const [x, y] = project(p)
          return <circle key={`p${i}`} cx={x} cy={y} r={3.5 * scale} class="pin" />
        })}
      </svg>
      <figcaption class="muted small">
        {all.length
          ? `${overlay.points.length} point(s) of the last answer`
          : 'Geocoding and routing answers are drawn here.'}
      </figcaption>
    </figure>
  )
}
