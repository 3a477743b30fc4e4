import { parseDomainInput } from '../contract/hostname.ts'
import { KEY_PATTERN, maskSecrets } from '../contract/key-format.ts'
import { KEY_STATUSES, type KeyStatus } from '../contract/key-status.ts'
import { ENDPOINTS } from '../endpoints/registry.ts'
import {
  checkCount,
  checkRecord,
  checkString,
  formatIssues,
  ISO_DATE_TIME,
  type Issue,
  isObject,
  isPlainObject,
  notAborted,
  wrongType,
} from '../validate/validate.ts'
import {
  DOMAIN_FIELDS,
  type DomainRecord,
  type KeyRecord,
  keyNameProblem,
  LINK_FIELDS,
  type LinkRecord,
  MAX_DOMAINS,
  MAX_DOMAINS_PER_KEY,
  MAX_KEY_NAME_LENGTH,
  MAX_KEYS,
  MAX_LINKS,
  UNATTRIBUTED,
  type UsageDay,
} from './schemas.ts'

/** An invalid snapshot's error names this many problems, then counts the rest. */
const SHOWN_ISSUES = 10

type Path = ReadonlyArray<string | number>

/**
 * A check over many records that pauses every `SLICE` items (`yield`): `parseSnapshot` runs it
 * through at once, `parseSnapshotInSlices` lets the event loop in between (a 30,000-key
 * snapshot sent to the control API never holds up the requests beside it).
 */
type Sliced<T> = Generator<void, T, void>
const SLICE = 256

/** A list, each item checked by `item` (undefined when that item was not even of the right type). */
function* checkList<T>(
  issues: Issue[],
  path: Path,
  value: unknown,
  item: (value: unknown, path: Path) => T | undefined,
): Sliced<Array<T | undefined> | undefined> {
  if (!Array.isArray(value)) {
    wrongType(issues, path, 'array', value)
    return undefined
  }
  const out: Array<T | undefined> = []
  for (let i = 0; i < value.length; i++) {
    out.push(item(value[i], [...path, i])) // holes too
    if (i % SLICE === SLICE - 1) yield
  }
  return out
}

/** A map of strings to what `item` checks (zod's `record`). */
function* checkMap<T>(
  issues: Issue[],
  path: Path,
  value: unknown,
  item: (value: unknown, path: Path) => Sliced<T | undefined>,
): Sliced<Record<string, T | undefined> | undefined> {
  if (!isPlainObject(value)) {
    wrongType(issues, path, 'record', value)
    return undefined
  }
  const out: Record<string, T | undefined> = {}
  for (const name of Object.keys(value))
    if (name !== '__proto__') out[name] = yield* item(value[name], [...path, name]) // dropped, as zod did
  return out
}

/** A check that needs no pause: one small map (a usage day's counters). */
// biome-ignore lint/correctness/useYield: a sliced check with nothing to pause for
function* atOnce<T>(value: T): Sliced<T> {
  return value
}

/**
 * A key id as the console makes them (`key_` + 12 hex) or a hand-written one: letters, digits,
 * `_ . : -`, at most 64; never a key value (an id is shown in full in the log and `GET /keys`).
 */
const ID = /^[A-Za-z0-9_.:-]{1,64}$/
function checkId(issues: Issue[], path: Path, id: string): boolean {
  const problem = !ID.test(id)
    ? 'not a key id: 1 to 64 letters, digits, _ . : or - (no spaces, no control characters)'
    : maskSecrets(id) !== id
      ? 'a key id must not look like a key value (ids are shown in full)'
      : undefined
  if (problem !== undefined) issues.push({ path, message: problem, abort: false })
  return problem === undefined
}

/** A usage day's counters: statuses (`200`, `0` for a reset) and the mock's endpoint names. */
const STATUS_NAME = /^\d{1,3}$/
const ENDPOINT_NAMES = new Set([...ENDPOINTS.map((e) => e.name), 'unknown'])

/** A key's name, by the rule of `POST /keys` (`keyNameProblem`), in a snapshot's words. */
const NAME_PROBLEMS = {
  empty: 'is empty; a key needs a name (as POST /keys takes them)',
  'too-long': (name: string) =>
    `is ${name.length} characters long; a key name has at most ${MAX_KEY_NAME_LENGTH} (as POST /keys takes them)`,
  'control-characters': 'contains control characters (ESC, line breaks)',
} as const
function checkName(issues: Issue[], path: Path, name: string): void {
  const problem = keyNameProblem(name)
  if (problem === undefined) return
  const words = NAME_PROBLEMS[problem]
  issues.push({ path, message: typeof words === 'string' ? words : words(name), abort: false })
}

/**
 * A record's date: a string (else it aborts, as any field of the wrong type), written as the console writes
 * dates.
 */
function checkDate(issues: Issue[], path: Path, value: unknown): void {
  if (checkString(issues, path, value) && !ISO_DATE_TIME.test(value))
    issues.push({ path, message: `not ${ISO_DATE_TIME.says} (as the console writes them)`, abort: false })
}

function checkKey(issues: Issue[], path: Path, value: unknown): KeyRecord | undefined {
  if (!isObject(value)) {
    wrongType(issues, path, 'object', value)
    return undefined
  }
  const from = issues.length
  if (checkString(issues, [...path, 'id'], value.id)) checkId(issues, [...path, 'id'], value.id)
  if (checkString(issues, [...path, 'name'], value.name)) checkName(issues, [...path, 'name'], value.name)
  if (checkString(issues, [...path, 'value'], value.value) && !KEY_PATTERN.test(value.value))
    issues.push({
      path: [...path, 'value'],
      message: 'not a TMaps key (ak_ + 32 lower-case hex)',
      abort: false,
    })
  // Snapshots saved before 0.2 name the enabled status `active`: still accepted.
  const status = value.status === 'active' ? 'enabled' : value.status
  if (!KEY_STATUSES.includes(status as KeyStatus))
    issues.push({
      path: [...path, 'status'],
      message: `Invalid option: expected one of ${KEY_STATUSES.map((s) => JSON.stringify(s)).join('|')}`,
      abort: true,
    })
  checkDate(issues, [...path, 'createdAt'], value.createdAt)
  checkDate(issues, [...path, 'updatedAt'], value.updatedAt)
  if (!notAborted(issues, from)) return undefined
  const { id, name, createdAt, updatedAt } = value as unknown as KeyRecord
  return { id, name, value: value.value as string, status: status as KeyStatus, createdAt, updatedAt }
}

function checkDomain(issues: Issue[], path: Path, value: unknown): DomainRecord | undefined {
  const domain = checkRecord<DomainRecord>(issues, path, value, DOMAIN_FIELDS)
  if (domain) {
    checkDate(issues, [...path, 'createdAt'], domain.createdAt)
    const parsed = parseDomainInput(domain.hostname)
    if (!(parsed.ok && parsed.hostname === domain.hostname))
      issues.push({
        path,
        message: 'not a normalized hostname (lower case, punycode, no scheme, port or path)',
        abort: false,
      })
  }
  return domain
}

function checkDay(issues: Issue[], path: Path, value: unknown): UsageDay | undefined {
  if (!isObject(value)) {
    wrongType(issues, path, 'object', value)
    return undefined
  }
  const from = issues.length
  if (checkString(issues, [...path, 'date'], value.date) && !/^\d{4}-\d{2}-\d{2}$/.test(value.date))
    issues.push({
      path: [...path, 'date'],
      message: 'Invalid string: must match pattern /^\\d{4}-\\d{2}-\\d{2}$/',
      abort: false,
    })
  checkCount(issues, [...path, 'total'], value.total)
  const counts = (counts: unknown, at: Path, named: (name: string) => boolean, what: string) =>
    runNow(
      checkMap(issues, at, counts, (count, countPath) => {
        const name = String(countPath.at(-1))
        if (!named(name)) issues.push({ path: countPath, message: `not ${what}`, abort: false })
        checkCount(issues, countPath, count)
        return atOnce(count as number)
      }),
    )
  const byStatus = counts(
    value.byStatus,
    [...path, 'byStatus'],
    (n) => STATUS_NAME.test(n),
    'a status (e.g. 200)',
  )
  const byEndpoint = counts(
    value.byEndpoint,
    [...path, 'byEndpoint'],
    (n) => ENDPOINT_NAMES.has(n),
    `an endpoint name (${[...ENDPOINT_NAMES].join(', ')})`,
  )
  if (!notAborted(issues, from)) return undefined
  return {
    date: value.date as string,
    total: value.total as number,
    byStatus: byStatus as Record<string, number>,
    byEndpoint: byEndpoint as Record<string, number>,
  }
}

/** The checks across records: no duplicates, links to what exists, at most so many domains a key. */
function* checkConsistency(issues: Issue[], s: ParsedSnapshot): Sliced<void> {
  const ids = new Set<string>()
  const values = new Set<string>()
  for (const [i, k] of s.keys.entries()) {
    if (ids.has(k.id)) issues.push({ path: ['keys', i, 'id'], message: 'duplicate key id', abort: false })
    if (values.has(k.value))
      issues.push({ path: ['keys', i, 'value'], message: 'duplicate key value', abort: false })
    ids.add(k.id)
    values.add(k.value)
    if (i % (SLICE * 8) === 0) yield
  }
  const hostnames = new Set<string>()
  for (const [i, d] of s.domains.entries()) {
    if (hostnames.has(d.hostname))
      issues.push({ path: ['domains', i], message: 'duplicate domain', abort: false })
    hostnames.add(d.hostname)
    if (i % (SLICE * 8) === 0) yield
  }
  const pairs = new Set<string>()
  const perKey = new Map<string, number>()
  for (const [i, l] of s.links.entries()) {
    const linked = (perKey.get(l.keyId) ?? 0) + 1
    perKey.set(l.keyId, linked)
    if (linked === MAX_DOMAINS_PER_KEY + 1)
      issues.push({
        path: ['links', i],
        message: `links key ${l.keyId} to more than ${MAX_DOMAINS_PER_KEY} domains, the most one key may have`,
        abort: false,
      })
    if (!ids.has(l.keyId))
      issues.push({ path: ['links', i, 'keyId'], message: 'links a key that is not in keys', abort: false })
    if (!hostnames.has(l.hostname))
      issues.push({
        path: ['links', i, 'hostname'],
        message: 'links a domain that is not in domains',
        abort: false,
      })
    const pair = `${l.keyId} ${l.hostname}`
    if (pairs.has(pair)) issues.push({ path: ['links', i], message: 'duplicate link', abort: false })
    pairs.add(pair)
    if (i % (SLICE * 8) === 0) yield
  }
}

/**
 * The snapshot checked field by field (every problem found), then across records when each field was right.
 */
function* checkSnapshot(issues: Issue[], value: unknown): Sliced<ParsedSnapshot | undefined> {
  if (!isObject(value)) {
    wrongType(issues, [], 'object', value)
    return undefined
  }
  if (value.format !== 'tmaps-mock/snapshot')
    issues.push({ path: ['format'], message: 'Invalid input: expected "tmaps-mock/snapshot"', abort: true })
  if (value.version !== 1)
    issues.push({ path: ['version'], message: 'Invalid input: expected 1', abort: true })
  const keys = yield* checkList(issues, ['keys'], value.keys, (item, path) => checkKey(issues, path, item))
  const domains = yield* checkList(issues, ['domains'], value.domains, (item, path) =>
    checkDomain(issues, path, item),
  )
  const links = yield* checkList(issues, ['links'], value.links, (item, path) => {
    const link = checkRecord<LinkRecord>(issues, path, item, LINK_FIELDS)
    if (link) checkDate(issues, [...path, 'createdAt'], link.createdAt)
    return link
  })
  const usage =
    value.usage === undefined
      ? {}
      : yield* checkMap(issues, ['usage'], value.usage, (days, path) => {
          const owner = String(path.at(-1))
          if (owner !== UNATTRIBUTED) checkId(issues, path, owner)
          return checkList(issues, path, days, (day, dayPath) => checkDay(issues, dayPath, day))
        })
  const keyIndex = value.keyIndex === undefined ? 0 : value.keyIndex
  if (value.keyIndex !== undefined) checkCount(issues, ['keyIndex'], value.keyIndex)
  if (!notAborted(issues)) return undefined
  const parsed = {
    format: 'tmaps-mock/snapshot',
    version: 1,
    keys,
    domains,
    links,
    usage,
    keyIndex,
  } as ParsedSnapshot
  yield* checkConsistency(issues, parsed)
  return parsed
}

/**
 * The whole console state as JSON, from `mock.snapshot()`, for `state` or `mock.restore()`.
 *
 * Keys (with their full values: treat a snapshot like a `.env` file), authorized domains, links
 * and usage counters. The request log is not state.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsSnapshot } from 'tmaps-mock'
 *
 * const first = createTmapsMock({ state: 'empty' })
 * await first.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const snapshot: TmapsSnapshot = first.snapshot() // full key values: keep it like a .env file
 * const second = createTmapsMock({ state: snapshot })
 * await second.ready
 * assert.deepEqual(second.console.listKeys(), first.console.listKeys())
 * ```
 */
export interface TmapsSnapshot {
  format: 'tmaps-mock/snapshot'
  version: 1
  /** Keys with their full values; a status `active` (snapshots before 0.2) reads as `enabled`. */
  keys: Array<Omit<KeyRecord, 'status'> & { status: KeyStatus | 'active' }>
  domains: DomainRecord[]
  links: LinkRecord[]
  /** Usage by key id, day by day (default: none). */
  usage?: Record<string, UsageDay[]> | undefined
  /** How many keys the seeded generator made (default 0). */
  keyIndex?: number | undefined
}

/** A snapshot once checked: statuses by their current names, defaults filled in. */
export interface ParsedSnapshot {
  format: 'tmaps-mock/snapshot'
  version: 1
  keys: KeyRecord[]
  domains: DomainRecord[]
  links: LinkRecord[]
  usage: Record<string, UsageDay[]>
  keyIndex: number
}

/**
 * Validates a snapshot (an object or its JSON text) and throws a message that names each
 * problem by its path, e.g. `keys[2].value: not a TMaps key`.
 * @example parseSnapshot(mock.snapshot())
 */
export function parseSnapshot(input: unknown): ParsedSnapshot {
  const issues: Issue[] = []
  return checked(issues, runNow(checkSnapshot(issues, snapshotValue(input))))
}

/**
 * `parseSnapshot` for a large snapshot beside other work: the same checks and errors, with the
 * event loop let in every few milliseconds (the JSON text is parsed in one go: ~25 ms for 8 MB).
 * @example const parsed = await parseSnapshotInSlices(await request.text())
 */
export async function parseSnapshotInSlices(input: unknown): Promise<ParsedSnapshot> {
  const issues: Issue[] = []
  return checked(issues, await runInSlices(checkSnapshot(issues, snapshotValue(input))))
}

/** The snapshot's value (its JSON text parsed), refused at once when a list is over its limit. */
function snapshotValue(input: unknown): unknown {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch (error) {
      throw new TypeError(
        `Failed to restore the snapshot: it is not valid JSON (${(error as Error).message}).`,
      )
    }
  }
  // Sizes first: a huge snapshot is refused before any of it is validated.
  const sizes = value as { keys?: unknown; domains?: unknown; links?: unknown } | null
  for (const [name, max] of [
    ['keys', MAX_KEYS],
    ['domains', MAX_DOMAINS],
    ['links', MAX_LINKS],
  ] as const) {
    const list = sizes && typeof sizes === 'object' ? sizes[name] : undefined
    if (Array.isArray(list) && list.length > max) {
      throw new TypeError(
        `Failed to restore the snapshot: it has ${list.length} ${name}; a tmaps-mock console holds at most ${max}.`,
      )
    }
  }
  return value
}

function checked(issues: Issue[], parsed: ParsedSnapshot | undefined): ParsedSnapshot {
  if (issues.length > 0 || parsed === undefined) {
    const shown = issues.slice(0, SHOWN_ISSUES)
    const more = issues.length > SHOWN_ISSUES ? `\n(and ${issues.length - SHOWN_ISSUES} more problems)` : ''
    throw new TypeError(
      `Failed to restore the snapshot: it does not match the tmaps-mock snapshot format. Take one with mock.snapshot().\n${formatIssues(shown)}${more}`,
    )
  }
  return parsed
}

/** Runs a sliced check through, without pausing. */
function runNow<T>(check: Sliced<T>): T {
  for (;;) {
    const step = check.next()
    if (step.done) return step.value
  }
}

/** A slice of work at most this long holds the event loop before the next turn. */
export const SLICE_MS = 8

/** The next turn of the event loop (after I/O): `setImmediate` in Node, a zero timeout elsewhere. */
export function nextTurn(): Promise<void> {
  const later = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate
  return new Promise((resolve) => (later ? later(resolve) : setTimeout(resolve, 0)))
}

/** Runs a sliced check, letting the event loop in whenever a slice took `SLICE_MS`. */
async function runInSlices<T>(check: Sliced<T>): Promise<T> {
  let since = performance.now()
  for (;;) {
    const step = check.next()
    if (step.done) return step.value
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn()
      since = performance.now()
    }
  }
}
