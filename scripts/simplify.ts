/**
 * Douglas-Peucker, shared by the data builders (build-land.ts, build-basemap.ts): the points
 * nearer than `tolerance` to the chord between a run's ends are dropped, recursively.
 */

type Ring = [number, number][]

/** Douglas-Peucker on an open run of points (degrees; `tolerance` in degrees). */
export function simplify(points: Ring, tolerance: number): Ring {
  if (points.length < 3) return points
  const [a, b] = [points[0]!, points[points.length - 1]!]
  let [worst, at] = [0, 0]
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]]
    const len = Math.hypot(dx, dy)
    const d =
      len === 0
        ? Math.hypot(p[0] - a[0], p[1] - a[1])
        : Math.abs(dy * p[0] - dx * p[1] + b[0] * a[1] - b[1] * a[0]) / len
    if (d > worst) [worst, at] = [d, i]
  }
  if (worst <= tolerance) return [a, b]
  return [
    ...simplify(points.slice(0, at + 1), tolerance).slice(0, -1),
    ...simplify(points.slice(at), tolerance),
  ]
}
