import { seededInts } from '../data/seeded.ts'
import { MAX_DELAY_MS } from '../validate/validate.ts'

/** The statuses a fault can answer, each with the body TMaps would send. */
export const FAULT_BODIES = {
  429: 'rate limited',
  500: 'internal error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
} as const
export type FaultStatus = keyof typeof FAULT_BODIES
/** Seconds in the `Retry-After` of a 429 and a 503: the docs' first backoff step. */
export const RETRY_AFTER_SECONDS = 1

const MAX_RULES = 100

/**
 * What a fault rule does, as given to `mock.faults.add()`: all optional, combined as given.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type FaultInput } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const rateLimited: FaultInput = { endpoint: '/geocoding/forward', status: 429, times: 1 }
 * mock.faults.add(rateLimited)
 * const url = 'https://api.tmaps.tn/geocoding/forward?q=Sfax'
 * const first = await mock.fetch(new Request(url))
 * const second = await mock.fetch(new Request(url))
 * assert.equal(first.status, 429) // with Retry-After: 1
 * assert.equal(second.status, 401) // the rule is used up: the contract again (no api_key)
 * ```
 */
export interface FaultInput {
  /**
   * A documented path (`/geocoding/forward`, `/maps/static`; tiles: `/r-tile`). Default: every
   * endpoint (and unknown paths).
   */
  endpoint?: string
  /** Answer this instead (before the auth check): 429 with `Retry-After`, 500, 502, 503, 504. */
  status?: FaultStatus
  /** Hold the answer back this long, in ms; a `[min, max]` range draws per request (seeded). */
  delayMs?: number | [number, number]
  /** `'reset'`: the connection fails, no answer at all (fetch rejects). */
  network?: 'reset'
  /** How many matching requests it applies to; default: until removed. */
  times?: number
  /** The chance it applies to a matching request (0-1, default 1), drawn from the seed: reproducible. */
  probability?: number
}

/**
 * A fault rule in force, as `mock.faults.add()` and `mock.faults.list()` give it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type FaultRule } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const rule: FaultRule = mock.faults.add({ status: 503, times: 2 })
 * await mock.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
 * assert.equal(mock.faults.list()[0]?.remaining, 1)
 * assert.equal(mock.faults.list()[0]?.hits, 1)
 * assert.equal(mock.faults.remove(rule.id), true)
 * ```
 */
export interface FaultRule {
  id: string
  /** The endpoint name it is limited to (`geocoding/forward`, `r-tile`), or `null` for all. */
  endpoint: string | null
  status: FaultStatus | null
  delayMs: number | [number, number] | null
  network: 'reset' | null
  /** Requests it still applies to (`null`: until removed). */
  remaining: number | null
  probability: number
  /** Requests it applied to so far. */
  hits: number
}

/** What the faults decided for one request. */
export interface FaultPlan {
  /** The rules that applied, in the order they were added. */
  rules: string[]
  delayMs: number
  status: FaultStatus | null
  network: 'reset' | null
}

/**
 * `mock.faults`: infrastructure faults on demand (the docs' 429 and 5xx, latency, resets).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsFaults } from 'tmaps-mock'
 *
 * const faults: TmapsFaults = createTmapsMock({ state: 'empty' }).faults
 * faults.add({ delayMs: [200, 800] }) // a slow network, drawn per request from the seed
 * faults.add({ network: 'reset', probability: 0.1 }) // one request in ten fails
 * assert.equal(faults.list().length, 2)
 * assert.throws(() => faults.add({ status: 418 as never }), /Failed to add the fault/)
 * faults.clear()
 * ```
 */
export interface TmapsFaults {
  /** Adds a rule; a bad rule throws a `TypeError` that says what to fix. */
  add(input: FaultInput): FaultRule
  /** The rules in force, in the order they apply. */
  list(): FaultRule[]
  /** Removes a rule; `false` when no rule has this id. */
  remove(id: string): boolean
  clear(): void
}

/**
 * The fault rules of one mock. `endpointNames` are the names a rule may be limited to; a rule's
 * draws (probability, delay in a range) come from its own seeded stream, so a run is
 * reproducible request by request.
 * @example const faults = createFaults('seed', ['geocoding/forward']); faults.add({ status: 429, times: 2 })
 */
export function createFaults(
  seed: string | number,
  endpointNames: readonly string[],
): TmapsFaults & {
  plan(endpoint: string): FaultPlan | undefined
  /** How many rules are in force (none: no request can be faulted). */
  readonly size: number
} {
  const rules: Array<FaultRule & { draw: () => number }> = []
  let next = 0
  const known = new Set(endpointNames)
  const view = ({ draw: _, ...rule }: FaultRule & { draw: () => number }): FaultRule => ({
    ...rule,
    delayMs: Array.isArray(rule.delayMs) ? [...rule.delayMs] : rule.delayMs,
  })

  return {
    add(input) {
      const { name, status, delayMs, network, times, probability } = checkFault(input, known)
      if (rules.length >= MAX_RULES) failFault(`at most ${MAX_RULES} rules; remove some first`)
      const id = `fault_${++next}`
      const rule = {
        id,
        endpoint: name,
        status,
        delayMs,
        network,
        remaining: times ?? null,
        probability,
        hits: 0,
        draw: unitFloats(seededInts(seed, `fault:${id}`)),
      }
      rules.push(rule)
      return view(rule)
    },
    list: () => rules.map(view),
    remove(id) {
      const i = rules.findIndex((r) => r.id === id)
      if (i >= 0) rules.splice(i, 1)
      return i >= 0
    },
    clear() {
      rules.length = 0
    },
    get size() {
      return rules.length
    },
    plan(endpoint) {
      if (rules.length === 0) return undefined
      let plan: FaultPlan | undefined
      for (const rule of [...rules]) {
        if (rule.endpoint !== null && rule.endpoint !== endpoint) continue
        if (rule.probability < 1 && rule.draw() >= rule.probability) continue
        plan ??= { rules: [], delayMs: 0, status: null, network: null }
        plan.rules.push(rule.id)
        rule.hits++
        if (rule.delayMs !== null) {
          const [min, max] = Array.isArray(rule.delayMs) ? rule.delayMs : [rule.delayMs, rule.delayMs]
          plan.delayMs = Math.max(plan.delayMs, Math.round(min + (max - min) * rule.draw()))
        }
        if (plan.status === null && plan.network === null) {
          plan.status = rule.status
          plan.network = rule.network
        }
        if (rule.remaining !== null && --rule.remaining === 0) rules.splice(rules.indexOf(rule), 1)
      }
      return plan
    },
  }
}

const failFault = (why: string): never => {
  throw new TypeError(`Failed to add the fault: ${why}.`)
}

const FAULT_OPTIONS = new Set(['endpoint', 'status', 'delayMs', 'network', 'times', 'probability'])

/** A fault rule's input checked, or a `TypeError` that says what to fix. */
function checkFault(input: FaultInput, known: ReadonlySet<string>) {
  if (input === null || typeof input !== 'object')
    failFault('give an object, e.g. { status: 429, times: 3 } or { delayMs: [200, 800] }')
  const { endpoint, status, delayMs, network, times, probability = 1 } = input
  const unknown = Object.keys(input).filter((k) => !FAULT_OPTIONS.has(k))
  if (unknown.length > 0) failFault(`unknown option ${unknown.join(', ')}`)
  let name: string | null = null
  if (endpoint !== undefined) {
    name =
      typeof endpoint === 'string' ? endpoint.replace(/^\//, '').replace(/\/\{z\}\/\{x\}\/\{y\}$/, '') : ''
    if (!known.has(name))
      failFault(
        `endpoint ${JSON.stringify(endpoint)} is not a TMaps path. Use one of ${[...known].map((n) => `/${n}`).join(', ')}`,
      )
  }
  // A number that is an own key of the table: "429" (a string) or "toString" (inherited) is not.
  if (status !== undefined && !(typeof status === 'number' && Object.hasOwn(FAULT_BODIES, status)))
    failFault(
      `status must be one of the numbers ${Object.keys(FAULT_BODIES).join(', ')} (got ${JSON.stringify(status)?.slice(0, 40)})`,
    )
  if (network !== undefined && network !== 'reset') failFault('network must be "reset"')
  if (status !== undefined && network !== undefined) failFault('give status or network, not both')
  if (status === undefined && network === undefined && delayMs === undefined)
    failFault('give at least one of status, delayMs or network')
  if (times !== undefined && !(Number.isInteger(times) && times >= 1))
    failFault('times must be a whole number >= 1')
  if (!(typeof probability === 'number' && probability > 0 && probability <= 1))
    failFault('probability must be a number above 0 and at most 1')
  return {
    name,
    status: status ?? null,
    delayMs: delayMs === undefined ? null : faultDelay(delayMs),
    network: network ?? null,
    times,
    probability,
  }
}

/** A rule's delay: whole milliseconds up to `MAX_DELAY_MS`, or a [min, max] range of them. */
function faultDelay(value: unknown): number | [number, number] {
  const ok = (n: unknown): n is number =>
    Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_DELAY_MS
  if (ok(value)) return value
  if (Array.isArray(value) && value.length === 2 && ok(value[0]) && ok(value[1]) && value[0] <= value[1])
    return [value[0], value[1]]
  return failFault(`delayMs must be whole milliseconds from 0 to ${MAX_DELAY_MS}, or a [min, max] range`)
}

/**
 * Floats in [0, 1) from a seeded stream of 32-bit numbers: the same seed, the same draws, in every engine.
 */
function unitFloats(next: () => number): () => number {
  return () => next() / 0x1_0000_0000
}
