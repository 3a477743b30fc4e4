import type { TmapsScenario } from '../override-types.ts'
import { UNREACHABLE_WHY } from './road-model.ts'

/** The routing endpoints' own refusal of a point no road reaches, naming the parameter. */
const refused = (param: string) => ({
  status: 400,
  body: { error: `invalid param: ${param} (${UNREACHABLE_WHY})` },
})

/**
 * A point at sea, which no road reaches, as the routing endpoints answer one: directions, tour
 * and matrix a 400 naming the last point (the destination; in a matrix, the destinations),
 * isochrone each contour's Feature with `geometry: null`. The mock's own answer is asked first:
 * a bad parameter is still its own 400.
 */
export function routingAtSea(): TmapsScenario<
  'routing/direction' | 'routing/optimized' | 'routing/isochrone' | 'distance-matrix'
> {
  return {
    'routing/direction': async ({ request, answer }) => {
      await answer()
      return refused(request.method === 'GET' ? 'to' : 'waypoints')
    },
    'routing/optimized': async ({ answer }) => {
      await answer()
      return refused('waypoints')
    },
    'distance-matrix': async ({ answer }) => {
      await answer()
      return refused('destinations')
    },
    'routing/isochrone': async ({ answer }) => {
      const own = await answer()
      return { ...own, features: own.features.map((f) => ({ ...f, geometry: null })) }
    },
  }
}
