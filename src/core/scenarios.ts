import {
  geocodingAtSea,
  geocodingLowConfidence,
  geocodingNoResults,
  type NoResultsEndpoint,
} from '../endpoints/geocoding/scenarios.ts'
import type {
  TmapsAnyEndpointOverride,
  TmapsOverrideContext,
  TmapsOverrideResult,
  TmapsScenario,
} from '../endpoints/override-types.ts'
import { ENDPOINT_NAMES, type TmapsEndpointName } from '../endpoints/registry.ts'
import { routingAtSea } from '../endpoints/routing/scenarios.ts'
import { DELAY_MS, failure } from '../validate/validate.ts'
import { IMAGE_CACHE_CONTROL, withEtag } from './answers.ts'

/**
 * The named scenarios, as the control API and `parameters.tmaps.use` name them.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { SCENARIO_ENDPOINTS, type TmapsScenarioName } from 'tmaps-mock'
 *
 * const name: TmapsScenarioName = 'no-results'
 * assert.deepEqual(SCENARIO_ENDPOINTS[name], ['geocoding/forward', 'geocoding/reverse', 'geocoding/nearby'])
 * ```
 */
export type TmapsScenarioName = (typeof SCENARIO_NAMES)[number]
export const SCENARIO_NAMES = ['no-results', 'at-sea', 'low-confidence', 'slow'] as const

/** Resolves after `ms` milliseconds (a scenario's or an override's delay). */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The endpoints of the at-sea scenario. */
type AtSeaEndpoint = keyof ReturnType<typeof geocodingAtSea> | keyof ReturnType<typeof routingAtSea>

/** A point at sea: the geocoding endpoints' and the routing endpoints' answers for one, together. */
function atSea(): TmapsScenario<AtSeaEndpoint> {
  return { ...geocodingAtSea(), ...routingAtSea() }
}

/**
 * A slow endpoint, any endpoint: the mock's own answer (or its 400), `delayMs` late, a picture
 * with its `ETag` and `Cache-Control`. One resolver fits every endpoint: it passes the answer on.
 */
export function slowly(delayMs: number): TmapsAnyEndpointOverride {
  return async <E extends TmapsEndpointName>({
    answer,
  }: TmapsOverrideContext<E>): Promise<TmapsOverrideResult<E>> => {
    const own = answer().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    )
    await sleep(delayMs)
    const settled = await own
    if ('error' in settled) throw settled.error
    const { value } = settled
    if (!(value instanceof Uint8Array)) return value
    // A picture keeps the caching headers the mock gives it (its bytes copied into a plain buffer).
    const bytes = new Uint8Array(value)
    const headers = {
      'Content-Type': 'image/png',
      'Cache-Control': IMAGE_CACHE_CONTROL,
      ETag: withEtag(bytes).etag,
    }
    return new Response(bytes, { headers })
  }
}

/** The endpoints a scenario has a resolver for, in the registry's order. */
const shaped = <S extends TmapsEndpointName>(scenario: TmapsScenario<S>): readonly S[] =>
  ENDPOINT_NAMES.filter((name): name is S => Object.hasOwn(scenario, name))

/**
 * The endpoints each named scenario applies to: those it has a resolver for.
 *
 * Each resolver is written beside its endpoints (`endpoints/geocoding/scenarios.ts`,
 * `endpoints/routing/scenarios.ts`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { SCENARIO_ENDPOINTS } from 'tmaps-mock'
 *
 * assert.ok(SCENARIO_ENDPOINTS['at-sea'].includes('distance-matrix'))
 * assert.ok(!SCENARIO_ENDPOINTS['low-confidence'].includes('geocoding/reverse')) // no confidence there
 * ```
 */
export const SCENARIO_ENDPOINTS: { readonly [S in TmapsScenarioName]: readonly TmapsEndpointName[] } = {
  'no-results': shaped(geocodingNoResults()),
  'at-sea': shaped(atSea()),
  'low-confidence': shaped(geocodingLowConfidence(0.4)),
  slow: ENDPOINT_NAMES,
}

/**
 * Named scenarios for what tests need most: no results, a point at sea, a weak match, a slow endpoint.
 *
 * Each keeps the contract (it runs after the key, domain and HTTPS checks), starts from the
 * mock's own answer (a bad parameter still gets its 400) and answers what the mock answers in
 * that situation. Give one to `mock.use(endpoint, scenario)`: a scenario has a resolver for each
 * endpoint it shapes (`TmapsScenario`), and for another endpoint it does not compile.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, scenarios } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * mock.use('geocoding/forward', scenarios.noResults(), { times: 1 })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * assert.deepEqual(await (await mock.fetch(new Request(url))).json(), { query: 'Sfax', results: [] })
 * ```
 */
export const scenarios = {
  /**
   * Nothing found: the mock's own answer with `results: []` (its `query` echoed as usual), as it
   * answers a query that matches nothing, or a point at sea.
   * @example mock.use('geocoding/forward', scenarios.noResults())
   */
  noResults(): TmapsScenario<NoResultsEndpoint> {
    return geocodingNoResults()
  },

  /**
   * A point at sea, which no road reaches: what the mock answers for one. Reverse and nearby:
   * `results: []`; isochrone: each contour's Feature with `geometry: null`; directions, tour and
   * matrix: 400 `invalid param: <to|waypoints|destinations> (no road reaches it: ...)`, naming
   * the last point (the destination; in a matrix, the destinations: an unreachable pair).
   * @example mock.use('distance-matrix', scenarios.atSea())
   */
  atSea(): TmapsScenario<AtSeaEndpoint> {
    return atSea()
  },

  /**
   * A weak match: the mock's own matches, their confidences scaled so that the best is
   * `confidence` (default 0.4; a match already weaker is kept as it is). Nothing found stays
   * nothing found: use a query the mock finds (a town, a street).
   * @example mock.use('geocoding/forward', scenarios.lowConfidence({ confidence: 0.3 }))
   */
  lowConfidence({ confidence = 0.4 }: { confidence?: number } = {}): TmapsScenario<'geocoding/forward'> {
    return geocodingLowConfidence(confidence)
  },

  /**
   * A slow endpoint: the mock's own answer (or its 400), `delayMs` late (default 3000, at most
   * 120,000), a picture with its `ETag` and `Cache-Control`. Unlike a fault's `delayMs`, only
   * requests the contract accepted wait. One resolver for every endpoint.
   * @example mock.use('routing/direction', scenarios.slow({ delayMs: 5000 }))
   */
  slow({ delayMs = 3000 }: { delayMs?: number } = {}): TmapsAnyEndpointOverride {
    if (!DELAY_MS.test(delayMs))
      failure('Failed to create the slow scenario')(
        `delayMs is ${JSON.stringify(delayMs)}. Use ${DELAY_MS.says}`,
      )
    return slowly(delayMs)
  },
}
