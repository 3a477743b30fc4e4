import type { TmapsErrorBody } from '../contract/openapi.ts'
import type { TmapsOverride, TmapsScenario } from '../endpoints/override-types.ts'
import {
  ENDPOINT_NAMES,
  ENDPOINTS,
  type TmapsEndpointAnswers,
  type TmapsEndpointName,
} from '../endpoints/registry.ts'
import { CONFIDENCE, DELAY_MS, isObject, TIMES, unknownFields } from '../validate/validate.ts'
import type { TmapsMockCore } from './create-core.ts'
import { FAULT_BODIES, RETRY_AFTER_SECONDS } from './faults.ts'
import { resolverFor } from './override-registry.ts'
import {
  SCENARIO_ENDPOINTS,
  SCENARIO_NAMES,
  scenarios,
  sleep,
  slowly,
  type TmapsScenarioName,
} from './scenarios.ts'

/*
 * Override lists: entries as functions (`{ endpoint, resolver, times? }`) or as data (a named
 * scenario, a status and a body, a delay), checked and applied to a mock in one go: what
 * Storybook's `parameters.tmaps.use`, the Vite plugin's overrides module and the control API take.
 */

/**
 * An override as data: a named `scenario`, a `status` with a `body`, or only `delayMs`.
 *
 * For where functions cannot go (the control API of `tmaps-mock serve`) or a table reads best
 * (`parameters.tmaps.use`, the Vite plugin's overrides module). `delayMs` alone answers the
 * mock's own answer late, and with the others delays them too; `times` uses it up, as in `mock.use`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { applyOverrides, createTmapsMock, type TmapsOverrideSpec } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const busy: TmapsOverrideSpec = { endpoint: 'distance-matrix', status: 503, times: 1 }
 * applyOverrides(mock, [busy, { endpoint: 'geocoding/forward', scenario: 'no-results' }])
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * assert.deepEqual(await (await mock.fetch(new Request(url))).json(), { query: 'Sfax', results: [] })
 * ```
 */
export type TmapsOverrideSpec = {
  [E in TmapsEndpointName]: {
    endpoint: E
    /** A named scenario of this endpoint (`SCENARIO_ENDPOINTS`). */
    scenario?: TmapsScenarioName
    /** The low-confidence scenario's best confidence (default 0.4). */
    confidence?: number
    /**
     * The status to answer: 200 (with a `body`) or an error status the document declares (400,
     * 401, 403, 404, 429, 500, 502, 503, 504). An error's `body` defaults to TMaps' own for it
     * (`{"error":"rate limited"}`, with `Retry-After: 1` on 429 and 503).
     */
    status?: number
    /** The JSON body: the endpoint's answer for 200, `{ error }` for an error. Sent as given. */
    body?: TmapsEndpointAnswers[E] | TmapsErrorBody
    /** Answer this many milliseconds late (0-120,000); alone: the mock's own answer, late. */
    delayMs?: number
    /** How many requests it answers; default: until removed. */
    times?: number
  }
}[TmapsEndpointName]

/**
 * One entry of an override list: `{ endpoint, resolver, times? }` or an override as data.
 *
 * The first is what `mock.use` takes; the second is a {@link TmapsOverrideSpec}.
 * @example
 * ```ts
 * import { scenarios, type TmapsOverrideEntry } from 'tmaps-mock'
 *
 * // parameters: { tmaps: { use: overrides } } in a story; the default export of the Vite plugin's
 * // overrides module
 * export const overrides: TmapsOverrideEntry[] = [
 *   { endpoint: 'geocoding/forward', resolver: scenarios.lowConfidence(), times: 1 },
 *   { endpoint: 'routing/direction', scenario: 'at-sea' },
 *   {
 *     endpoint: 'geocoding/reverse',
 *     resolver: ({ params }) => ({
 *       query: { lat: Number(params.lat), lng: Number(params.lng) },
 *       results: [],
 *     }),
 *   },
 * ]
 * ```
 */
export type TmapsOverrideEntry =
  | {
      [E in TmapsEndpointName]: { endpoint: E; resolver: TmapsOverride<E> | TmapsScenario<E>; times?: number }
    }[TmapsEndpointName]
  | TmapsOverrideSpec

const SPEC_FIELDS = ['endpoint', 'scenario', 'confidence', 'status', 'body', 'delayMs', 'times'] as const
const ENTRY_FIELDS = ['endpoint', 'resolver', 'times'] as const
/** The statuses an override as data may answer: 200 and the error statuses the document declares. */
const OVERRIDE_STATUSES = [200, 400, 401, 403, 404, 429, 500, 502, 503, 504] as const
const ERROR_BODIES: Record<number, string> = {
  401: 'missing api_key',
  403: 'domain not authorized',
  404: 'not found',
  ...FAULT_BODIES,
}

/**
 * Checks one override entry and makes its resolver; a bad entry throws a `TypeError` that names
 * the field (`at` says where it is, e.g. `parameters.tmaps.use[0]`) and what to write.
 */
export function compileOverride(
  input: unknown,
  at: string,
): { endpoint: TmapsEndpointName; resolver: TmapsOverride<TmapsEndpointName>; times: number | undefined } {
  const fail = (why: string): never => {
    throw new TypeError(`${at}${why}`)
  }
  if (!isObject(input))
    return fail(' must be an object such as { endpoint: "geocoding/forward", scenario: "no-results" }')
  const entry = input
  const { endpoint, times } = entry
  const name =
    ENDPOINT_NAMES.find((known) => known === endpoint) ??
    fail(`.endpoint is ${JSON.stringify(endpoint)}: use one of ${ENDPOINT_NAMES.join(', ')}`)
  if (times !== undefined && !TIMES.test(times))
    fail(`.times is ${JSON.stringify(times)}: use ${TIMES.says}, or leave it out (until removed)`)
  const count = TIMES.test(times) ? times : undefined
  const allowed: readonly string[] = 'resolver' in entry ? ENTRY_FIELDS : SPEC_FIELDS
  const extra = unknownFields(entry, allowed)
  if (extra.length > 0)
    fail(
      'resolver' in entry
        ? ` has a resolver and ${extra.join(', ')}: an entry is { endpoint, resolver, times? }, or, without a resolver, { endpoint, scenario | status, body | delayMs, times? }`
        : ` has no field ${extra.join(', ')}. Its fields are ${SPEC_FIELDS.join(', ')}`,
    )
  if ('resolver' in entry) {
    const resolver =
      resolverFor(name, entry.resolver) ??
      fail(
        `.resolver must be a function ({ request, params, answer }) => body, or a scenario of ${name}, e.g. scenarios.noResults()`,
      )
    return { endpoint: name, resolver, times: count }
  }
  return { endpoint: name, resolver: specResolver(entry, name, fail), times: count }
}

function specResolver(
  spec: Record<string, unknown>,
  endpoint: TmapsEndpointName,
  fail: (why: string) => never,
): TmapsOverride<TmapsEndpointName> {
  const { scenario, confidence, status, body, delayMs } = spec
  if (delayMs !== undefined && !DELAY_MS.test(delayMs))
    fail(`.delayMs is ${JSON.stringify(delayMs)}: use ${DELAY_MS.says}`)
  const late = DELAY_MS.test(delayMs) ? delayMs : 0
  if (confidence !== undefined && scenario !== 'low-confidence')
    fail('.confidence goes with scenario "low-confidence" only')
  let answer: TmapsOverride<TmapsEndpointName>
  if (scenario !== undefined) {
    const name =
      SCENARIO_NAMES.find((known) => known === scenario) ??
      fail(`.scenario is ${JSON.stringify(scenario)}: use one of ${SCENARIO_NAMES.join(', ')}`)
    const applies = SCENARIO_ENDPOINTS[name]
    if (!applies.includes(endpoint))
      fail(`.scenario "${scenario}" does not apply to ${endpoint}: it applies to ${applies.join(', ')}`)
    if (status !== undefined || body !== undefined)
      fail(
        `.scenario and .${status !== undefined ? 'status' : 'body'} cannot go together: a scenario says what it answers`,
      )
    if (confidence !== undefined && !CONFIDENCE.test(confidence))
      fail(`.confidence is ${JSON.stringify(confidence)}: use ${CONFIDENCE.says}`)
    // The slow scenario's delay is delayMs itself.
    if (name === 'slow') return slowly(delayMs === undefined ? 3000 : late)
    const named =
      name === 'no-results'
        ? scenarios.noResults()
        : name === 'at-sea'
          ? scenarios.atSea()
          : scenarios.lowConfidence(typeof confidence === 'number' ? { confidence } : {})
    answer = resolverFor(endpoint, named) ?? fail(`.scenario "${scenario}" does not apply to ${endpoint}`)
  } else if (status !== undefined || body !== undefined) {
    answer = fixedAnswer(status ?? 200, body, endpoint, fail)
  } else if (delayMs !== undefined) {
    return slowly(late)
  } else {
    return fail(
      ' says nothing to answer: give a scenario (no-results, at-sea, low-confidence, slow), a status (and body), or delayMs',
    )
  }
  if (late === 0) return answer
  return async (context) => {
    const [result] = await Promise.all([answer(context), sleep(late)])
    return result
  }
}

function fixedAnswer(
  status: unknown,
  body: unknown,
  endpoint: TmapsEndpointName,
  fail: (why: string) => never,
): TmapsOverride<TmapsEndpointName> {
  const code =
    OVERRIDE_STATUSES.find((known) => known === status) ??
    fail(`.status is ${JSON.stringify(status)}: use one of ${OVERRIDE_STATUSES.join(', ')}`)
  const picture = ENDPOINTS.some((e) => e.name === endpoint && e.answers === 'png')
  if (code === 200) {
    if (picture)
      fail(`.status 200 with a JSON body: ${endpoint} answers PNG bytes; use an error status or a scenario`)
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      fail(`.body must be the JSON object ${endpoint} answers (status 200)`)
  } else if (body !== undefined) {
    const error = (body as { error?: unknown } | null)?.error
    if (
      body === null ||
      typeof body !== 'object' ||
      typeof error !== 'string' ||
      Object.keys(body).length !== 1
    )
      fail(`.body of an error must be TMaps' error format, { "error": "<a short message>" }`)
  } else if (ERROR_BODIES[code] === undefined) {
    fail(`.body is needed with status ${code}, e.g. { "error": "missing required param: q" }`)
  }
  const text = JSON.stringify(body ?? { error: ERROR_BODIES[code] })
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (code === 429 || code === 503) headers['Retry-After'] = String(RETRY_AFTER_SECONDS)
  return () => new Response(text, { status: code, headers })
}

/**
 * Applies a list of overrides to a mock and returns the function that removes them all.
 *
 * It calls `mock.use` for each, the first of an endpoint on top. A bad entry throws a
 * `TypeError` before any is applied, naming it (`where[i].field`) and what to write.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { applyOverrides, createTmapsMock, scenarios } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const remove = applyOverrides(mock, [
 *   { endpoint: 'geocoding/forward', resolver: scenarios.lowConfidence() },
 *   { endpoint: 'routing/direction', scenario: 'slow', delayMs: 2000 },
 * ])
 * assert.throws(
 *   () => applyOverrides(mock, [{ endpoint: 'geocoding/forward', scenario: 'at-sea' }]),
 *   /does not apply/,
 * )
 * remove()
 * ```
 */
export function applyOverrides(
  mock: Pick<TmapsMockCore, 'use'>,
  entries: readonly TmapsOverrideEntry[],
  where = 'overrides',
): () => void {
  if (!Array.isArray(entries))
    throw new TypeError(
      `${where} must be an array of overrides, e.g. [{ endpoint: "geocoding/forward", scenario: "no-results" }]`,
    )
  const compiled = entries.map((entry, i) => compileOverride(entry, `${where}[${i}]`))
  // mock.use puts the newest on top: applied last to first, the list reads top down.
  const disposers = compiled
    .reverse()
    .map(({ endpoint, resolver, times }) =>
      mock.use(endpoint, resolver, times === undefined ? {} : { times }),
    )
  return () => {
    for (const dispose of disposers) dispose()
  }
}
