import type { LatLng } from '../data/geo.ts'
import { ParamError } from './params.ts'

const isFiniteIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max

/**
 * Typed readers over a JSON body (already known to be an object). A field that is absent is
 * missing; one of the wrong type or out of range is invalid, named by its field.
 * @example body(json).points('origins', { min: 1, max: 25 })
 */
export function body(json: Record<string, unknown>) {
  const has = (name: string) => json[name] !== undefined && json[name] !== null
  return {
    /** A point `{ lat, lng }`; `undefined` when absent. */
    point(name: string): LatLng | undefined {
      return has(name) ? asPoint(json[name], name) : undefined
    },
    /** A point `{ lat, lng }` that must be given. */
    requiredPoint(name: string): LatLng {
      if (!has(name)) throw new ParamError('missing-param', name)
      return asPoint(json[name], name)
    },
    points(name: string, { min, max }: { min: number; max: number }): LatLng[] {
      if (!has(name)) throw new ParamError('missing-param', name)
      const value = json[name]
      if (!Array.isArray(value) || value.length < min || value.length > max)
        throw new ParamError('invalid-param', name)
      return value.map((p) => asPoint(p, name))
    },
    oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
      if (!has(name)) return fallback
      const value = json[name]
      if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
        throw new ParamError('invalid-param', name)
      return value as T
    },
    bool(name: string, fallback: boolean): boolean {
      if (!has(name)) return fallback
      if (typeof json[name] !== 'boolean') throw new ParamError('invalid-param', name)
      return json[name] as boolean
    },
    /**
     * Distinct values, each one of `values`, as a comma list (`"tolls,ferries"`, as documented)
     * or an array of strings; `undefined` when absent.
     */
    list<T extends string>(name: string, values: readonly T[]): T[] | undefined {
      if (!has(name)) return undefined
      const value = json[name]
      const items = typeof value === 'string' ? value.split(',').map((v) => v.trim()) : value
      if (
        !Array.isArray(items) ||
        !items.every((v) => typeof v === 'string' && (values as readonly string[]).includes(v))
      )
        throw new ParamError('invalid-param', name)
      return [...new Set(items as T[])]
    },
    /** A list of distinct strings, each one of `values`. */
    subset<T extends string>(name: string, values: readonly T[], fallback: readonly T[]): T[] {
      if (!has(name)) return [...fallback]
      const value = json[name]
      if (!Array.isArray(value) || value.length === 0) throw new ParamError('invalid-param', name)
      if (!value.every((v) => typeof v === 'string' && (values as readonly string[]).includes(v)))
        throw new ParamError('invalid-param', name)
      return [...new Set(value as T[])]
    },
  }
}

/** A `{ lat, lng }` object with both in range; anything else is invalid. */
function asPoint(value: unknown, name: string): LatLng {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ParamError('invalid-param', name)
  const { lat, lng } = value as Record<string, unknown>
  if (!isFiniteIn(lat, -90, 90) || !isFiniteIn(lng, -180, 180)) throw new ParamError('invalid-param', name)
  return { lat, lng }
}
