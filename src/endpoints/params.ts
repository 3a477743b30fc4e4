import { paramError } from '../contract/rejections.ts'

/** A parameter that is missing or malformed: becomes a 400 with the documented body. */
export class ParamError extends Error {
  readonly rule: 'missing-param' | 'invalid-param'
  readonly param: string

  /** `why` follows the documented body after a colon: `invalid param: size (why)`. */
  constructor(rule: 'missing-param' | 'invalid-param', param: string, why?: string) {
    super(why === undefined ? paramError(rule, param) : `${paramError(rule, param)} (${why})`)
    this.rule = rule
    this.param = param
  }
}

/**
 * A resource that does not exist (a tile outside the grid): becomes a 404 `{"error":"not found"}`.
 * `message` is for the log; `detail`, when given, follows the body's text in parentheses
 * (`not found (TMaps has no @2x tiles ...)`).
 */
export class NotFoundError extends Error {
  readonly rule = 'not-found'
  readonly detail: string | undefined
  constructor(message: string, detail?: string) {
    super(message)
    this.detail = detail
  }
}

/**
 * A request body that could not be read: too large for the server (413), or the client left
 * while sending it (logged as 499, not as a bug).
 */
export class BodyReadError extends Error {
  readonly rule: 'payload-too-large' | 'client-closed'
  constructor(cause: unknown) {
    const tooLarge = (cause as { status?: unknown } | null)?.status === 413
    super(tooLarge ? 'the request body is too large' : 'the client left before its body arrived', { cause })
    this.rule = tooLarge ? 'payload-too-large' : 'client-closed'
  }
}

/** Reads a request's body as text; a failed read becomes a `BodyReadError`. */
export async function readBody(request: Pick<Request, 'text'>): Promise<string> {
  try {
    return await request.text()
  } catch (error) {
    throw new BodyReadError(error)
  }
}

const INTEGER = /^[+-]?\d{1,9}$/
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

/**
 * Typed readers over a query string. A parameter given twice is invalid (its meaning would be
 * ambiguous); an optional parameter given empty (`limit=`) counts as not given.
 * @example query(url.searchParams).int('limit', { min: 1, max: 20, fallback: 5 })
 */
export function query(params: URLSearchParams) {
  const one = (name: string): string | undefined => {
    const all = params.getAll(name)
    if (all.length > 1) throw new ParamError('invalid-param', name)
    return all[0]
  }
  const optional = (name: string): string | undefined => {
    const value = one(name)
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
  return {
    requiredText(name: string, { max = 256 }: { max?: number } = {}): string {
      const value = one(name)?.trim()
      if (value === undefined || value === '') throw new ParamError('missing-param', name)
      if (value.length > max) throw new ParamError('invalid-param', name)
      return value
    },
    optionalText(name: string, { max = 256 }: { max?: number } = {}): string | undefined {
      const value = optional(name)
      if (value !== undefined && value.length > max) throw new ParamError('invalid-param', name)
      return value
    },
    int(name: string, { min, max, fallback }: { min: number; max: number; fallback: number }): number {
      const value = optional(name)
      if (value === undefined) return fallback
      if (!INTEGER.test(value)) throw new ParamError('invalid-param', name)
      const n = Number(value)
      if (n < min || n > max) throw new ParamError('invalid-param', name)
      return n
    },
    requiredInt(name: string, { min, max }: { min: number; max: number }): number {
      const value = one(name)?.trim()
      if (value === undefined || value === '') throw new ParamError('missing-param', name)
      if (!INTEGER.test(value)) throw new ParamError('invalid-param', name)
      const n = Number(value)
      if (n < min || n > max) throw new ParamError('invalid-param', name)
      return n
    },
    /** `true` or `false` (any case); anything else is invalid. */
    bool(name: string, fallback: boolean): boolean {
      const value = optional(name)?.toLowerCase()
      if (value === undefined) return fallback
      if (value !== 'true' && value !== 'false') throw new ParamError('invalid-param', name)
      return value === 'true'
    },
    /**
     * A comma list of distinct values, each one of `values` (`restaurant,cafe`); `undefined` when not given.
     */
    list<T extends string>(name: string, values: readonly T[]): T[] | undefined {
      const value = optional(name)
      if (value === undefined) return undefined
      const items = value.split(',').map((v) => v.trim())
      if (!items.every((v) => (values as readonly string[]).includes(v)))
        throw new ParamError('invalid-param', name)
      return [...new Set(items as T[])]
    },
    requiredNumber(name: string, { min, max }: { min: number; max: number }): number {
      const value = one(name)?.trim()
      if (value === undefined || value === '') throw new ParamError('missing-param', name)
      return checkedNumber(value, name, min, max)
    },
    oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
      const value = optional(name)
      if (value === undefined) return fallback
      if (!(values as readonly string[]).includes(value)) throw new ParamError('invalid-param', name)
      return value as T
    },
    optionalOneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
      const value = optional(name)
      if (value === undefined) return undefined
      if (!(values as readonly string[]).includes(value)) throw new ParamError('invalid-param', name)
      return value as T
    },
    /** A point as `lat,lng` (latitude first, as in every TMaps query string); `undefined` when not given. */
    latLng(name: string): { lat: number; lng: number } | undefined {
      const value = optional(name)
      return value === undefined ? undefined : parseLatLng(value, name)
    },
    /** A point as `lat,lng` that must be given. */
    requiredLatLng(name: string): { lat: number; lng: number } {
      const value = one(name)?.trim()
      if (value === undefined || value === '') throw new ParamError('missing-param', name)
      return parseLatLng(value, name)
    },
    /** A box as `minLng,minLat,maxLng,maxLat` (longitude first, as documented). */
    bbox(name: string): [number, number, number, number] | undefined {
      const value = optional(name)
      if (value === undefined) return undefined
      const parts = value.split(',')
      if (parts.length !== 4) throw new ParamError('invalid-param', name)
      const [minLng, minLat, maxLng, maxLat] = parts.map((p, i) =>
        checkedNumber(p.trim(), name, i % 2 === 0 ? -180 : -90, i % 2 === 0 ? 180 : 90),
      ) as [number, number, number, number]
      if (minLng > maxLng || minLat > maxLat) throw new ParamError('invalid-param', name)
      return [minLng, minLat, maxLng, maxLat]
    },
  }
}

/** Parses `lat,lng`, each in range; throws `invalid param: <name>` otherwise. */
export function parseLatLng(value: string, name: string): { lat: number; lng: number } {
  const [lat, lng, more] = value.split(',')
  if (lat === undefined || lng === undefined || more !== undefined)
    throw new ParamError('invalid-param', name)
  return {
    lat: checkedNumber(lat.trim(), name, -90, 90),
    lng: checkedNumber(lng.trim(), name, -180, 180),
  }
}

function checkedNumber(value: string, name: string, min: number, max: number): number {
  if (!NUMBER.test(value)) throw new ParamError('invalid-param', name)
  const n = Number(value)
  if (!Number.isFinite(n) || n < min || n > max) throw new ParamError('invalid-param', name)
  return n
}
