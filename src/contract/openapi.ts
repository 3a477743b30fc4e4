/**
 * The TMaps contract's types by friendly name, from the OpenAPI document
 * (`openapi/tmaps.openapi.json`, shipped as `tmaps-mock/openapi.json`) through the generated
 * `openapi-types.ts`. The endpoints build their answers as these types, so an answer that drifts
 * from the document does not compile.
 */
import type { components, paths as OpenApiPaths, operations } from './openapi-types.ts'

type Schemas = components['schemas']

/**
 * The query of `GET /geocoding/forward` (`q` and `api_key` required; `limit` 1-20, default 5).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type ForwardGeocodingParams } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const params: ForwardGeocodingParams = { q: 'Sfax', limit: 1, api_key: key.value }
 * const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?${query}`))
 * assert.equal(response.status, 200)
 * ```
 */
export type ForwardGeocodingParams = operations['forwardGeocoding']['parameters']['query']

/**
 * The 200 body of `GET /geocoding/forward`: the query echoed and the matches, best first.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type ForwardGeocodingResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * const answer = (await (await mock.fetch(new Request(url))).json()) as ForwardGeocodingResponse
 * assert.equal(answer.query, 'Sfax')
 * assert.equal(answer.results[0]?.components.governorate, 'Sfax')
 * ```
 */
export type ForwardGeocodingResponse = Schemas['ForwardGeocodingResponse']

/**
 * The query of `GET /geocoding/reverse` (`lat`, `lng` and `api_key` required; `limit` 1-5).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type ReverseGeocodingParams } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const params: ReverseGeocodingParams = { lat: 36.8002, lng: 10.1815, type: 'locality', api_key: key.value }
 * const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/reverse?${query}`))
 * assert.equal(response.status, 200)
 * ```
 */
export type ReverseGeocodingParams = operations['reverseGeocoding']['parameters']['query']

/**
 * The 200 body of `GET /geocoding/reverse`: the point echoed and the nearest results.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type ReverseGeocodingResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const url = `https://api.tmaps.tn/geocoding/reverse?lat=36.8002&lng=10.1815&api_key=${key.value}`
 * const answer = (await (await mock.fetch(new Request(url))).json()) as ReverseGeocodingResponse
 * assert.deepEqual(answer.query, { lat: 36.8002, lng: 10.1815 })
 * assert.equal(answer.results[0]?.components.country, 'TN')
 * ```
 */
export type ReverseGeocodingResponse = Schemas['ReverseGeocodingResponse']

/**
 * The query of `GET /geocoding/nearby` (`lat`, `lng`, `radius` up to 10 000 m and `api_key` required).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type NearbySearchParams } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const params: NearbySearchParams = {
 *   lat: 36.8002,
 *   lng: 10.1815,
 *   radius: 1500,
 *   categories: 'pharmacy,hospital',
 *   api_key: key.value,
 * }
 * const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/nearby?${query}`))
 * assert.equal(response.status, 200)
 * ```
 */
export type NearbySearchParams = operations['nearbySearch']['parameters']['query']

/**
 * The 200 body of `GET /geocoding/nearby`: the search echoed and the places, nearest first.
 *
 * The mock's shape: the documentation cuts it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type NearbySearchResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const near = 'lat=36.8002&lng=10.1815&radius=1500&categories=pharmacy'
 * const url = `https://api.tmaps.tn/geocoding/nearby?${near}&api_key=${key.value}`
 * const answer = (await (await mock.fetch(new Request(url))).json()) as NearbySearchResponse
 * assert.ok(answer.results.every((place) => place.categories.includes('pharmacy')))
 * ```
 */
export type NearbySearchResponse = Schemas['NearbySearchResponse']

/**
 * The query of `GET /routing/direction` (`from`, `to` as `lat,lng` and `api_key` required).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DirectionParams } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const params: DirectionParams = {
 *   from: '36.8002,10.1815',
 *   to: '36.8528,10.3261',
 *   steps: true,
 *   api_key: key.value,
 * }
 * const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/routing/direction?${query}`))
 * assert.equal(response.status, 200)
 * ```
 */
export type DirectionParams = operations['directionGet']['parameters']['query']

/**
 * The JSON body of `POST /routing/direction`: 2 to 25 waypoints and the options of the GET form.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DirectionBody } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const body: DirectionBody = {
 *   waypoints: [
 *     { lat: 36.7992, lng: 10.1709 },
 *     { lat: 36.8528, lng: 10.3261 },
 *   ],
 *   geometry: 'geojson',
 * }
 * const request = new Request(`https://api.tmaps.tn/routing/direction?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify(body),
 * })
 * assert.equal((await mock.fetch(request)).status, 200)
 * ```
 */
export type DirectionBody = Schemas['DirectionBody']

/**
 * The 200 body of both forms of `/routing/direction`: the best route, waypoints, alternatives.
 *
 * Up to 2 alternatives, with `alternatives: true`. The mock's shape: the documentation cuts it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DirectionResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const trip = 'from=36.8002,10.1815&to=36.8528,10.3261'
 * const url = `https://api.tmaps.tn/routing/direction?${trip}&api_key=${key.value}`
 * const route = (await (await mock.fetch(new Request(url))).json()) as DirectionResponse
 * assert.equal(typeof route.geometry, 'string') // a polyline, ready for a static map's path
 * assert.equal(route.legs.length, 1)
 * ```
 */
export type DirectionResponse = Schemas['DirectionResponse']

/**
 * The JSON body of `POST /routing/optimized`: an origin and up to 50 waypoints to reorder.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type OptimizedRouteBody } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const body: OptimizedRouteBody = {
 *   origin: { lat: 36.8355, lng: 10.2261 },
 *   waypoints: [{ lat: 36.8485, lng: 10.1712 }, { lat: 36.8644, lng: 10.1808 }],
 *   roundtrip: true,
 * }
 * const request = new Request(`https://api.tmaps.tn/routing/optimized?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify(body),
 * })
 * assert.equal((await mock.fetch(request)).status, 200)
 * ```
 */
export type OptimizedRouteBody = Schemas['OptimizedRouteBody']

/**
 * The 200 body of `POST /routing/optimized`: totals, the visiting order, geometry and legs.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type OptimizedRouteResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const stops = [
 *   { lat: 36.8485, lng: 10.1712 },
 *   { lat: 36.8644, lng: 10.1808 },
 *   { lat: 36.8779, lng: 10.2024 },
 * ]
 * const request = new Request(`https://api.tmaps.tn/routing/optimized?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ origin: { lat: 36.8355, lng: 10.2261 }, waypoints: stops }),
 * })
 * const tour = (await (await mock.fetch(request)).json()) as OptimizedRouteResponse
 * assert.deepEqual([...tour.order].sort(), [0, 1, 2]) // every stop once
 * ```
 */
export type OptimizedRouteResponse = Schemas['OptimizedRouteResponse']

/**
 * The JSON body of `POST /routing/isochrone`: an origin and 1 to 4 contours in minutes or km.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type IsochroneBody } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const body: IsochroneBody = {
 *   origin: { lat: 36.8002, lng: 10.1815 },
 *   contours: [{ time: 5 }, { distance: 10 }],
 * }
 * const request = new Request(`https://api.tmaps.tn/routing/isochrone?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify(body),
 * })
 * assert.equal((await mock.fetch(request)).status, 200)
 * ```
 */
export type IsochroneBody = Schemas['IsochroneBody']

/**
 * The 200 body of `POST /routing/isochrone`: a GeoJSON FeatureCollection, one Feature per contour.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type IsochroneResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const request = new Request(`https://api.tmaps.tn/routing/isochrone?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ origin: { lat: 36.8002, lng: 10.1815 }, contours: [{ time: 15 }] }),
 * })
 * const area = (await (await mock.fetch(request)).json()) as IsochroneResponse
 * assert.equal(area.features[0]?.geometry?.type, 'Polygon')
 * ```
 */
export type IsochroneResponse = Schemas['IsochroneResponse']

/**
 * The JSON body of `POST /distance-matrix`: up to 25 origins and 25 destinations.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DistanceMatrixBody } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const body: DistanceMatrixBody = {
 *   origins: [{ lat: 36.828, lng: 10.21 }],
 *   destinations: [{ lat: 36.8, lng: 10.1815 }],
 *   metrics: ['duration'],
 * }
 * const request = new Request(`https://api.tmaps.tn/distance-matrix?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify(body),
 * })
 * assert.equal((await mock.fetch(request)).status, 200)
 * ```
 */
export type DistanceMatrixBody = Schemas['DistanceMatrixBody']

/**
 * The 200 body of `POST /distance-matrix`: `durations[i][j]` (s), `distances[i][j]` (m), the points echoed.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type DistanceMatrixResponse } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const request = new Request(`https://api.tmaps.tn/distance-matrix?api_key=${key.value}`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({
 *     origins: [{ lat: 36.828, lng: 10.21 }],
 *     destinations: [{ lat: 36.8, lng: 10.1815 }],
 *   }),
 * })
 * const matrix = (await (await mock.fetch(request)).json()) as DistanceMatrixResponse
 * assert.ok((matrix.durations?.[0]?.[0] ?? 0) > 0)
 * ```
 */
export type DistanceMatrixResponse = Schemas['DistanceMatrixResponse']

/**
 * The query of `GET /maps/static` (`size` and `api_key` required; `center` + `zoom` or `bbox`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type StaticMapParams } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const params: StaticMapParams = {
 *   center: '36.8528,10.3261',
 *   zoom: 15,
 *   size: '200x120',
 *   marker: ['36.8528,10.3261|red|H'],
 *   api_key: key.value,
 * }
 * const query = new URLSearchParams()
 * for (const [name, value] of Object.entries(params))
 *   for (const one of [value].flat()) query.append(name, String(one))
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/maps/static?${query}`))
 * assert.equal(response.headers.get('content-type'), 'image/png')
 * ```
 */
export type StaticMapParams = operations['staticMap']['parameters']['query']

/**
 * The path (`z` 0-18, `x`, `y`) and query (`api_key`) of a raster tile on `tiles.tmaps.tn`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type RasterTileParams } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const tile: RasterTileParams = { z: 6, x: 33, y: 25, api_key: key.value }
 * const url = `https://tiles.tmaps.tn/r-tile/${tile.z}/${tile.x}/${tile.y}?api_key=${tile.api_key}`
 * assert.equal((await mock.fetch(new Request(url))).headers.get('content-type'), 'image/png')
 * ```
 */
export interface RasterTileParams extends TilePath, TileQuery {}
type TilePath = operations['rasterTile']['parameters']['path']
type TileQuery = operations['rasterTile']['parameters']['query']

/**
 * The body of every error, on every endpoint (image ones too): `{ error }`, a short English message.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsErrorBody } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const response = await mock.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
 * const body = (await response.json()) as TmapsErrorBody
 * assert.deepEqual(body, { error: 'missing api_key' }) // 401: branch on the status, not the text
 * ```
 */
export type TmapsErrorBody = Schemas['TmapsErrorBody']

/**
 * Every TMaps operation by path and method, as `openapi-fetch`'s `createClient<paths>()` takes them.
 *
 * Generated by openapi-typescript 7 from `tmaps-mock/openapi.json`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type paths } from 'tmaps-mock'
 *
 * type Forward = paths['/geocoding/forward']['get']
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const query: Forward['parameters']['query'] = { q: 'Sousse', api_key: key.value }
 * const search = new URLSearchParams({ q: query.q, api_key: query.api_key })
 * const response = await mock.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?${search}`))
 * const answer = (await response.json()) as Forward['responses'][200]['content']['application/json']
 * assert.equal(answer.query, 'Sousse')
 * ```
 */
export type paths = OpenApiPaths
