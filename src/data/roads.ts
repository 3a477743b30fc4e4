/**
 * The roads between towns, read by the map (which draws them) and by routing (which follows them)
 * alike: the traced main roads of src/data/road-network.ts and the generated local links, written
 * to src/data/roads.json by `scripts/build-roads.ts` (from src/map/roads.ts, checked by a test).
 */

import type { RoadKind as FactKind } from './road-network.ts'
import roadData from './roads.json' with { type: 'json' }

/**
 * What a road is: a traced kind of src/data/road-network.ts, `local` (a generated link between
 * towns), or `street` (a town's street, src/data/street-network.ts: routing only, the map draws
 * streets from the world's streets).
 */
export type RoadKind = FactKind | 'local' | 'street'

/** Road classes as the map draws them, most important first (`ferry`: a dashed crossing). */
export type RoadClass = 'motorway' | 'primary' | 'secondary' | 'ferry'

/** A road between towns, in Web Mercator units (flat `[x, y, ...]`). */
export interface Road {
  kind: RoadClass
  /** What the road is, for speeds: `local` is a generated link between neighbouring towns. */
  road: RoadKind
  /** Its number (`A1`, `RN1`), or `''`. */
  ref: string
  /** Its name in French and Arabic (`''` for a generated link). */
  name: string
  ar: string
  /** A mountain road (slower). */
  mountain: boolean
  /** A ferry's minutes aboard. */
  aboardMinutes?: number
  /** A street's key (`<locality id>:<index>`): each world names it (src/data/streets.ts). */
  street?: string
  /** A street joining a town's network to a road between towns (routing takes it from anywhere). */
  join?: boolean
  points: Float64Array
  box: [number, number, number, number]
}

/** The roads between towns, computed at build time (`scripts/build-roads.ts`, checked by a test). */
export function roadsOf(data: ReadonlyArray<RoadRecord>): Road[] {
  return data.map((road) => ({
    ...road,
    kind: road.kind as RoadClass,
    road: road.road as RoadKind,
    points: Float64Array.from(road.points),
    box: road.box as [number, number, number, number],
  }))
}

/** A road as src/data/roads.json stores it. */
interface RoadRecord {
  kind: string
  road: string
  ref: string
  name: string
  ar: string
  mountain: boolean
  aboardMinutes?: number
  points: number[]
  box: number[]
}

let roads: Road[] | undefined
/** The roads between towns the map draws and routing follows (one list, made on first use). */
export function sharedRoads(): readonly Road[] {
  roads ??= roadsOf(roadData.roads)
  return roads
}
