/**
 * The credit the sources of the shipped data require, wherever the data is shown.
 *
 * CC BY for the places, ODbL for the OpenStreetMap-derived land, lakes and coast, and GSHHG's credit for the
 * sea coast and Lake Ichkeul's and the Mellègue reservoir's outlines (LGPL-3.0-or-later). Its own tiny
 * module, so showing it never loads the gazetteer.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { DATA_ATTRIBUTION } from 'tmaps-mock'
 *
 * const footer = `Map data: ${DATA_ATTRIBUTION}` // show it wherever the mock's data is shown
 * assert.ok(footer.includes('GeoNames (CC BY 4.0'))
 * ```
 */
export const DATA_ATTRIBUTION =
  "Place data © GeoNames (CC BY 4.0, www.geonames.org); Data from Who's On First (licence: https://github.com/whosonfirst-data/whosonfirst-data/blob/master/LICENSE.md), including geometry derived from Quattroshapes (CC BY 2.0); Natural Earth (public domain); OurAirports (public domain); UN/LOCODE (UNECE). Land, lakes and coast © OpenStreetMap contributors (ODbL 1.0, www.openstreetmap.org/copyright); sea coast and two lakes (Ichkeul, the Mellègue reservoir) from GSHHG 2.3.7 (Wessel & Smith, LGPL-3.0-or-later, www.soest.hawaii.edu/pwessel/gshhg)."

/**
 * The short credit of the map (tiles and static maps), for a map library's attribution control.
 *
 * The OpenStreetMap-derived land and water need "© OpenStreetMap contributors" (ODbL); the sea
 * coast is GSHHG's.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { MAP_ATTRIBUTION } from 'tmaps-mock'
 *
 * // Leaflet: L.tileLayer(url, { attribution: MAP_ATTRIBUTION })
 * assert.ok(MAP_ATTRIBUTION.startsWith('© OpenStreetMap contributors'))
 * ```
 */
export const MAP_ATTRIBUTION =
  '© OpenStreetMap contributors · GSHHG · GeoNames, Who’s On First, Natural Earth'
