import type { TmapsErrorBody } from '../contract/openapi.ts'
import type { TmapsEndpointAnswers, TmapsEndpointName } from './registry.ts'

/**
 * What an override's resolver receives: the request, its parameters, and the mock's own answer.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsOverrideContext } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const seen: string[] = []
 * mock.use('geocoding/forward', async ({ params, answer }: TmapsOverrideContext<'geocoding/forward'>) => {
 *   seen.push(params.q ?? '')
 *   return answer() // the mock's own answer, typed
 * })
 * await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`))
 * assert.deepEqual(seen, ['Sfax'])
 * ```
 */
export interface TmapsOverrideContext<E extends TmapsEndpointName> {
  /** The request as the mock received it. */
  request: { method: string; url: string; headers: Pick<Headers, 'get'> }
  /**
   * Its query parameters (the first value of each) and path parameters (`z`, `x`, `y`), as sent; never
   * `api_key`.
   */
  params: Readonly<Record<string, string | undefined>>
  /** The mock's own answer; rejects as the endpoint would (a 400 for a bad parameter) if left unhandled. */
  answer(): Promise<TmapsEndpointAnswers[E]>
}

/**
 * What an override answers: a typed body (200), a status with a body, or a `Response`.
 *
 * A status's body for an error is `{ error }`, as TMaps's.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsOverrideResult } from 'tmaps-mock'
 *
 * const busy: TmapsOverrideResult<'distance-matrix'> = { status: 500, body: { error: 'internal error' } }
 * assert.equal('status' in busy && busy.status, 500)
 * ```
 */
export type TmapsOverrideResult<E extends TmapsEndpointName> =
  | TmapsEndpointAnswers[E]
  | { status: number; body: TmapsEndpointAnswers[E] | TmapsErrorBody }
  | Response

/**
 * An override: called instead of the endpoint, only for requests the contract accepted.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsOverride } from 'tmaps-mock'
 *
 * const noResults: TmapsOverride<'geocoding/forward'> = ({ params }) => ({
 *   query: params.q ?? '',
 *   results: [],
 * })
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * mock.use('geocoding/forward', noResults)
 * const response = await mock.fetch(
 *   new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`),
 * )
 * assert.deepEqual(await response.json(), { query: 'Sfax', results: [] })
 * ```
 */
export type TmapsOverride<E extends TmapsEndpointName> = (
  context: TmapsOverrideContext<E>,
) => TmapsOverrideResult<E> | Promise<TmapsOverrideResult<E>>

/**
 * A named scenario: a resolver for each endpoint of `S` it shapes.
 *
 * `mock.use` takes it for those endpoints, and for another it does not compile.
 * Give it to `mock.use(endpoint, scenario)`: the mock uses the endpoint's own resolver of it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, scenarios, type TmapsScenario } from 'tmaps-mock'
 *
 * const empty: TmapsScenario<'geocoding/forward' | 'geocoding/nearby'> = scenarios.noResults()
 * const mock = createTmapsMock({ state: 'empty' })
 * const remove = mock.use('geocoding/nearby', empty)
 * // @ts-expect-error a distance matrix has no results to empty (and from JavaScript it throws)
 * assert.throws(() => mock.use('distance-matrix', empty), /nor a scenario of distance-matrix/)
 * assert.equal(typeof remove, 'function')
 * ```
 */
export type TmapsScenario<S extends TmapsEndpointName> = { readonly [E in S]: TmapsOverride<E> }

/** A resolver that fits every endpoint: it passes the mock's own answer on (as `scenarios.slow()` does). */
export type TmapsAnyEndpointOverride = <E extends TmapsEndpointName>(
  context: TmapsOverrideContext<E>,
) => Promise<TmapsOverrideResult<E>>
