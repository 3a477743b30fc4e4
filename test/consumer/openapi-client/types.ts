// The contract's types are real types (not any): a wrong field does not compile.
import type {
  DirectionResponse,
  DistanceMatrixBody,
  ForwardGeocodingParams,
  ForwardGeocodingResponse,
  IsochroneBody,
  NearbySearchResponse,
  OptimizedRouteBody,
  RasterTileParams,
  StaticMapParams,
  TmapsErrorBody,
} from 'tmaps-mock'

export const params: ForwardGeocodingParams = { q: 'Sfax', api_key: 'ak_…', limit: 3 }
// @ts-expect-error q is a string
export const badParams: ForwardGeocodingParams = { q: 12, api_key: 'ak_…' }
// @ts-expect-error api_key is required, as in every TMaps operation
export const noKey: ForwardGeocodingParams = { q: 'Sfax' }
export const confidence = (answer: ForwardGeocodingResponse): number => answer.results[0]?.confidence ?? 0
// @ts-expect-error a result has no `score`
export const score = (answer: ForwardGeocodingResponse) => answer.results[0]?.score
// @ts-expect-error a category is one of the documented ones (and the docs' example's bakery)
export const category: NearbySearchResponse['results'][number]['category'] = 'supermarket'
export const legs = (route: DirectionResponse): number => route.legs.length
// @ts-expect-error profile is driving, walking, cycling or truck
export const matrix: DistanceMatrixBody = { origins: [], destinations: [], profile: 'plane' }
// @ts-expect-error lat is a number
export const tour: OptimizedRouteBody = { origin: { lat: '36.8', lng: 10.2 }, waypoints: [] }
export const area: IsochroneBody = { origin: { lat: 36.8, lng: 10.18 }, contours: [{ time: 15 }] }
// @ts-expect-error size is required
export const picture: StaticMapParams = { center: '36.8,10.18', zoom: 12, api_key: 'ak_…' }
// @ts-expect-error z is a number
export const tile: RasterTileParams = { z: '6', x: 33, y: 25, api_key: 'ak_…' }
export const message = (body: TmapsErrorBody): string => body.error
