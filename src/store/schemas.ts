import { KEY_STATUSES, type KeyStatus } from '../contract/key-status.ts'
import { hasControlCharacters } from '../text/control-characters.ts'
import { checkRecord, type FieldRule, type Issue } from '../validate/validate.ts'

/** The most a console (and a snapshot) holds: far above any real console, and bounded. */
export const MAX_KEYS = 100_000
export const MAX_DOMAINS = 100_000
export const MAX_LINKS = 1_000_000
/**
 * The most domains one key may be linked to. TMaps's console shows a handful per key; a
 * thousand leaves room for any real setup and keeps every console action and load fast.
 */
export const MAX_DOMAINS_PER_KEY = 1000

/** The longest key name the console takes, in characters: `POST /keys`, `createKey`, a snapshot. */
export const MAX_KEY_NAME_LENGTH = 100

/**
 * What is wrong with a key's name, one rule for the console (`POST /keys`, `createKey`) and a
 * snapshot's check, each in its own words: `empty` (blank once trimmed), `too-long` (more than
 * `MAX_KEY_NAME_LENGTH` once trimmed), `control-characters` (ESC, line breaks, bidi overrides: a
 * terminal would print them raw); undefined when it is a name.
 * @example keyNameProblem('Production frontend') // undefined
 */
export function keyNameProblem(name: string): 'empty' | 'too-long' | 'control-characters' | undefined {
  const trimmed = name.trim()
  if (trimmed === '') return 'empty'
  if (trimmed.length > MAX_KEY_NAME_LENGTH) return 'too-long'
  return hasControlCharacters(name) ? 'control-characters' : undefined
}

/** A key as the console stores it. The full `value` never leaves the store but once. */
export interface KeyRecord {
  id: string
  name: string
  value: string
  status: KeyStatus
  createdAt: string
  updatedAt: string
}

/** An authorized domain: its own console record, linked N:N with keys. */
export interface DomainRecord {
  hostname: string
  createdAt: string
}

/** One link between a key and an authorized domain. */
export interface LinkRecord {
  keyId: string
  hostname: string
  createdAt: string
}

/** The fields of each record, in the order a record (and a snapshot) lists them. */
const KEY_FIELDS: Readonly<Record<keyof KeyRecord, FieldRule>> = {
  id: 'string',
  name: 'string',
  value: 'string',
  status: KEY_STATUSES,
  createdAt: 'string',
  updatedAt: 'string',
}
export const DOMAIN_FIELDS: Readonly<Record<keyof DomainRecord, FieldRule>> = {
  hostname: 'string',
  createdAt: 'string',
}
export const LINK_FIELDS: Readonly<Record<keyof LinkRecord, FieldRule>> = {
  keyId: 'string',
  hostname: 'string',
  createdAt: 'string',
}

/** A record's schema as `@msw/data` takes it: a Standard Schema (https://standardschema.dev). */
interface RecordSchema<T> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: 'tmaps-mock'
    readonly validate: (
      value: unknown,
    ) => { readonly value: T; readonly issues?: undefined } | { readonly issues: Issue[] }
    readonly types?: { readonly input: T; readonly output: T } | undefined
  }
}

function recordSchema<T>(fields: Readonly<Record<keyof T & string, FieldRule>>): RecordSchema<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'tmaps-mock',
      validate: (value) => {
        const issues: Issue[] = []
        const record = checkRecord<T>(issues, [], value, fields)
        return record === undefined ? { issues } : { value: record }
      },
    },
  }
}

export const keySchema: RecordSchema<KeyRecord> = recordSchema<KeyRecord>(KEY_FIELDS)
export const domainSchema: RecordSchema<DomainRecord> = recordSchema<DomainRecord>(DOMAIN_FIELDS)
export const linkSchema: RecordSchema<LinkRecord> = recordSchema<LinkRecord>(LINK_FIELDS)

/**
 * Requests of one key (or of no known key) on one UTC day.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type UsageDay } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty', now: () => new Date('2025-03-01T12:00:00Z') })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * await mock.fetch(
 *   new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`),
 * )
 * const days: UsageDay[] = mock.usage(key).days
 * assert.deepEqual(days, [
 *   {
 *     date: '2025-03-01',
 *     total: 1,
 *     byStatus: { 200: 1 },
 *     byEndpoint: { 'geocoding/forward': 1 },
 *   },
 * ])
 * ```
 */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  date: string
  total: number
  /** Counts by HTTP status, e.g. `{ "200": 12, "403": 3 }`. */
  byStatus: Record<string, number>
  /** Counts by endpoint, e.g. `{ "geocoding/forward": 15 }`. */
  byEndpoint: Record<string, number>
}

/** The usage bucket of requests whose key is missing, malformed or unknown. */
export const UNATTRIBUTED = 'unattributed'
