import { CONFIDENCE } from '../../validate/validate.ts'
import type { TmapsScenario } from '../override-types.ts'

/** The endpoints whose answer is a list of `results`: what "nothing found" empties. */
export type NoResultsEndpoint = 'geocoding/forward' | 'geocoding/reverse' | 'geocoding/nearby'

/** An answer with `results: []`, the rest as the mock gave it (its `query` echoed as usual). */
const emptied = <T extends { results: unknown[] }>(own: T): T => ({ ...own, results: [] })

/** Nothing found, as the geocoder answers a query that matches nothing (a bad parameter is still its 400). */
export function geocodingNoResults(): TmapsScenario<NoResultsEndpoint> {
  return {
    'geocoding/forward': async ({ answer }) => emptied(await answer()),
    'geocoding/reverse': async ({ answer }) => emptied(await answer()),
    'geocoding/nearby': async ({ answer }) => emptied(await answer()),
  }
}

/** A point at sea: reverse and nearby find nothing there, as for any point off the land. */
export function geocodingAtSea(): TmapsScenario<'geocoding/reverse' | 'geocoding/nearby'> {
  const { 'geocoding/reverse': reverse, 'geocoding/nearby': nearby } = geocodingNoResults()
  return { 'geocoding/reverse': reverse, 'geocoding/nearby': nearby }
}

/**
 * A weak match: the mock's own matches, their confidences scaled so that the best is
 * `confidence` (a match already weaker is kept as it is). Throws a `TypeError` on a confidence
 * outside [0, 1).
 */
export function geocodingLowConfidence(confidence: number): TmapsScenario<'geocoding/forward'> {
  if (!CONFIDENCE.test(confidence))
    throw new TypeError(
      `Failed to create the low-confidence scenario: confidence is ${JSON.stringify(confidence)}. Use ${CONFIDENCE.says}.`,
    )
  return {
    'geocoding/forward': async ({ answer }) => {
      const own = await answer()
      const best = own.results[0]?.confidence ?? 0
      const factor = best > confidence ? confidence / best : 1
      return {
        ...own,
        results: own.results.map((r) => ({
          ...r,
          confidence: Math.round(r.confidence * factor * 100) / 100,
        })),
      }
    },
  }
}
