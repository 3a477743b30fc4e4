import type { LandmarkKind } from '../data/landmarks.ts'

/** The kinds of landmark drawn from zoom 14: what a town is known for, and its railway stations. */
const AT_ZOOM_14: ReadonlySet<LandmarkKind> = new Set([
  'monument',
  'fort',
  'archaeological_site',
  'palace',
  'station',
])

/** The zoom from which a landmark is drawn (its icon and its name): 14 or 15. */
export function landmarkMinZoom(l: { kind: LandmarkKind; greatMosqueOf?: string }): number {
  return AT_ZOOM_14.has(l.kind) || l.greatMosqueOf ? 14 : 15
}
