/**
 * The project's one validation kit. Two parts: the checks of the console's records and
 * snapshots (below, zod's messages), and the rules of the options and fields users write
 * (`createTmapsMock`'s options, the Vite plugin's, Storybook's `parameters.tmaps`, overrides as
 * data, the control API's bodies): each rule's check and the words of its error, written once.
 *
 * The records and snapshots: the little validation they need, without a schema library, whose
 * weight in a cold start and in the browser's first chunk three flat records and one snapshot
 * format do not justify (docs/performance.md, "Figures behind choices"). The messages are the
 * ones zod's English locale gave, word for word, and the
 * order and layout of `prettifyError` (shortest path first, `✖ message` / `  → at path`).
 */

/** One problem found, at a path; `abort`: the value was not even of the right type (zod's "aborted"). */
export interface Issue {
  path: ReadonlyArray<string | number>
  message: string
  abort: boolean
}

/** The type of a value as zod's messages name it (`null`, `array`, `NaN`, `Infinity`, `Date`, ...). */
function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number')
    return Number.isFinite(value) || Number.isNaN(value)
      ? Number.isNaN(value)
        ? 'NaN'
        : 'number'
      : String(value)
  if (
    typeof value === 'object' &&
    Object.getPrototypeOf(value) !== Object.prototype &&
    'constructor' in value &&
    value.constructor
  )
    return (value.constructor as { name: string }).name
  return typeof value
}

/** `Invalid input: expected <type>, received <its type>`, a problem that stops the checks of the value. */
export function wrongType(
  issues: Issue[],
  path: ReadonlyArray<string | number>,
  expected: string,
  value: unknown,
): void {
  issues.push({
    path,
    message: `Invalid input: expected ${expected}, received ${typeName(value)}`,
    abort: true,
  })
}

/** An object, not an array nor null: what a record, a snapshot or a day must be (zod's `object`). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A plain object (a map of names to values, zod's `record`): not a Map, a Date or a class's instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false
  const maker = (value as { constructor?: unknown }).constructor
  if (maker === undefined || typeof maker !== 'function') return true
  const prototype: unknown = maker.prototype
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf')
}

/** A string, or a problem saying it is not one. */
export function checkString(
  issues: Issue[],
  path: ReadonlyArray<string | number>,
  value: unknown,
): value is string {
  if (typeof value === 'string') return true
  wrongType(issues, path, 'string', value)
  return false
}

/** A whole number >= 0 (zod's `int()` with `nonnegative()`), or the problems it has. */
export function checkCount(issues: Issue[], path: ReadonlyArray<string | number>, value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    wrongType(issues, path, 'number', value)
    return false
  }
  if (!Number.isInteger(value)) {
    wrongType(issues, path, 'int', value)
    return false
  }
  const before = issues.length
  if (!Number.isSafeInteger(value))
    issues.push({
      path,
      message:
        value > 0
          ? `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`
          : `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`,
      abort: false,
    })
  if (value < 0) issues.push({ path, message: 'Too small: expected number to be >=0', abort: false })
  return issues.length === before
}

/** `true` when none of the problems since `from` stopped a value's checks (refinements then run). */
export function notAborted(issues: readonly Issue[], from = 0): boolean {
  for (let i = from; i < issues.length; i++) if (issues[i]?.abort) return false
  return true
}

/** A path as zod writes it: `keys[2].value`, `usage.key_1[0]`, `byStatus["a-b"]`. */
function dotPath(path: ReadonlyArray<string | number>): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (/[^\w$]/.test(segment)) out += `[${JSON.stringify(segment)}]`
    else out += out === '' ? segment : `.${segment}`
  }
  return out
}

/** The problems as lines, shortest path first (zod's `prettifyError`). */
export function formatIssues(issues: readonly Issue[]): string {
  const lines: string[] = []
  for (const issue of [...issues].sort((a, b) => a.path.length - b.path.length)) {
    lines.push(`✖ ${issue.message}`)
    if (issue.path.length > 0) lines.push(`  → at ${dotPath(issue.path)}`)
  }
  return lines.join('\n')
}

/** One field of a flat record: a string, or one of a few strings. */
export type FieldRule = 'string' | readonly string[]

/**
 * Checks a flat record against its fields and returns a copy with those fields only, in their
 * order (unknown properties are dropped, as zod's objects did), or undefined with the problems.
 */
export function checkRecord<T>(
  issues: Issue[],
  path: ReadonlyArray<string | number>,
  value: unknown,
  fields: Readonly<Record<keyof T & string, FieldRule>>,
): T | undefined {
  if (!isObject(value)) {
    wrongType(issues, path, 'object', value)
    return undefined
  }
  const before = issues.length
  const out: Record<string, unknown> = {}
  for (const [name, rule] of Object.entries(fields) as Array<[string, FieldRule]>) {
    const field = value[name]
    if (rule === 'string') checkString(issues, [...path, name], field)
    else if (!rule.includes(field as string))
      issues.push({
        path: [...path, name],
        message: `Invalid option: expected one of ${rule.map((option) => JSON.stringify(option)).join('|')}`,
        abort: true,
      })
    out[name] = field
  }
  return issues.length === before ? (out as T) : undefined
}

/** A rule of an option or a field: its check, and what the value must be, in the words of its error. */
interface Rule<T> {
  test(value: unknown): value is T
  /** What the value must be, e.g. `a whole number from 1`. */
  says: string
}

/** A seed: `seed` of the mock, of the Vite plugin, of a story. */
export const SEED: Rule<string | number> = {
  test: (value): value is string | number =>
    (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value)),
  says: 'a non-empty string or a finite number',
}

/** How many requests an override answers (`times`). */
export const TIMES: Rule<number> = {
  test: (value): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0,
  says: 'a whole number from 1',
}

/** The longest delay an override or a scenario may add: two minutes, as for a fault's `delayMs`. */
export const MAX_DELAY_MS = 120_000

/** A delay of an override or a scenario, in milliseconds (`delayMs`). */
export const DELAY_MS: Rule<number> = {
  test: (value): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_DELAY_MS,
  says: `a number of milliseconds from 0 to ${MAX_DELAY_MS}`,
}

/** A match's confidence (the low-confidence scenario's best). */
export const CONFIDENCE: Rule<number> = {
  test: (value): value is number => typeof value === 'number' && value >= 0 && value < 1,
  says: 'a number from 0 to below 1, e.g. 0.4',
}

const ISO_DATE_TIME_SHAPE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/

/**
 * A date and time as the console writes them (`toISOString()`): ISO 8601 with its zone, a day that
 * exists (`2026-02-30` is none, though `Date.parse` reads it as March 2nd).
 */
export const ISO_DATE_TIME: Rule<string> = {
  test: (value): value is string => {
    const parts = typeof value === 'string' ? ISO_DATE_TIME_SHAPE.exec(value) : null
    if (!parts) return false
    // The shape holds the first six; `Z` is a zone of 0 hours and 0 minutes.
    const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, zoneHour = 0, zoneMinute = 0] =
      parts.slice(1).map((part) => Number(part ?? 0))
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate() // the month's last day
    return (
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= days &&
      hour <= 23 &&
      minute <= 59 &&
      second <= 59 &&
      zoneHour <= 23 &&
      zoneMinute <= 59
    )
  },
  says: 'an ISO 8601 date-time, e.g. 2026-01-01T00:00:00.000Z',
}

/**
 * What throws a user's mistake: a `TypeError` reading `<context>: <why>.`, `context` saying what
 * failed (`Failed to set up tmaps-mock/vite`) and `why` what to fix.
 * @example const fail = failure('Failed to create the TMaps mock'); fail('seed must be ' + SEED.says)
 */
export function failure(context: string): (why: string) => never {
  return (why) => {
    throw new TypeError(`${context}: ${why}.`)
  }
}

/** The names of `value`'s own fields that are not among `known`, in their order. */
export function unknownFields(value: object, known: readonly string[]): string[] {
  return Object.keys(value).filter((name) => !known.includes(name))
}

/**
 * How deep a JSON request body may nest, for the API's POST endpoints and the control API alike:
 * the deepest documented body (a static map's GeoJSON overlay) needs under 10 levels, and a body
 * that is read, copied or sent to a render process must never overflow the stack on the way.
 */
export const MAX_JSON_DEPTH = 64

/**
 * True when a parsed JSON value nests deeper than `limit` levels (an object or array is a level;
 * `{}` is 1). Walked without recursion, so a body nested 100,000 deep is measured, not a crash.
 * @example deeperThan(JSON.parse('[[[]]]'), 2) // true
 */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [item, depth] = top
    if (item === null || typeof item !== 'object') continue
    if (depth > limit) return true
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return false
}
