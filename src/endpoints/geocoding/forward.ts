import type { ForwardGeocodingResponse } from '../../contract/openapi.ts'
import type { EndpointContext } from '../endpoint.ts'
import { ParamError, query } from '../params.ts'
import { GEOCODER } from './geocoder.ts'
import { LANGS, PLACE_TYPES } from './places.ts'

/** `country` is ISO 3166-1 alpha-2. The offline data covers Tunisia only. */
const COUNTRY = /^[A-Za-z]{2}$/

/**
 * `GET /geocoding/forward`: free text to coordinates, with confidence and the Tunisian
 * administrative breakdown. Parameters and limits as documented (q, country, limit 1-20,
 * lang, proximity, bbox, type).
 * @example
 * await forwardGeocoding({
 *   url: new URL('https://api.tmaps.tn/geocoding/forward?q=Tunis'),
 *   params: {},
 *   seed: 'demo',
 *   renderer: inThread,
 *   world: async () => worldFor('demo'),
 * })
 */
export async function forwardGeocoding(ctx: EndpointContext): Promise<ForwardGeocodingResponse> {
  const params = query(ctx.url.searchParams)
  const q = params.requiredText('q', { max: 256 })
  const country = params.optionalText('country', { max: 2 }) ?? 'TN'
  if (!COUNTRY.test(country)) throw new ParamError('invalid-param', 'country')
  const limit = params.int('limit', { min: 1, max: 20, fallback: 5 })
  const lang = params.oneOf('lang', LANGS, 'fr')
  const proximity = params.latLng('proximity')
  const bbox = params.bbox('bbox')
  const type = params.optionalOneOf('type', PLACE_TYPES)
  if (country.toUpperCase() !== 'TN') return { query: q, results: [] }
  const geocoder = (await ctx.world()).derived(GEOCODER)
  return {
    query: q,
    results: geocoder.forward({
      q,
      limit,
      lang,
      ...(proximity && { proximity }),
      ...(bbox && { bbox }),
      ...(type && { type }),
    }),
  }
}
