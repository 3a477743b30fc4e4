/**
 * The part of Leaflet 1.9's API the playground's map uses. The package ships no types and
 * `@types/leaflet` is not a dependency (test/e2e/maps-app/leaflet.d.ts declares its own part).
 */
export type LatLngTuple = [lat: number, lng: number]

export interface PathOptions {
  color?: string
  weight?: number
  opacity?: number
  fillColor?: string
  fillOpacity?: number
  dashArray?: string
  className?: string
  interactive?: boolean
}

export interface Layer {
  addTo(target: LeafletMap | FeatureGroup): this
  bindPopup(content: HTMLElement): this
  bindTooltip(content: HTMLElement, options?: { sticky?: boolean }): this
}

export interface TileEvent {
  tile: HTMLImageElement
  coords: { x: number; y: number; z: number }
}

export interface TileLayer extends Layer {
  on(event: 'tileloadstart' | 'tileload' | 'tileerror', listener: (event: TileEvent) => void): this
  on(event: 'loading' | 'load', listener: () => void): this
  /** Reloads every tile unless the URL is the same. */
  setUrl(url: string, noRedraw?: boolean): this
  remove(): this
}

export interface FeatureGroup extends Layer {
  clearLayers(): this
}

export interface LeafletMap {
  fitBounds(
    bounds: [LatLngTuple, LatLngTuple],
    options?: {
      padding?: [number, number]
      paddingTopLeft?: [number, number]
      paddingBottomRight?: [number, number]
      maxZoom?: number
      animate?: boolean
    },
  ): this
  getZoom(): number
  getCenter(): { lat: number; lng: number }
  /** Space-separated event names, e.g. `'movestart zoomstart'`. */
  on(events: string, listener: () => void): this
  invalidateSize(): this
  remove(): this
  attributionControl: { setPrefix(prefix: string | false): unknown }
}

export interface Leaflet {
  map(element: HTMLElement, options?: { maxZoom?: number; zoomSnap?: number }): LeafletMap
  tileLayer(url: string, options: { maxZoom: number; attribution: string }): TileLayer
  featureGroup(): FeatureGroup
  polygon(rings: LatLngTuple[][], options?: PathOptions): Layer
  polyline(points: LatLngTuple[], options?: PathOptions): Layer
  circle(center: LatLngTuple, options: PathOptions & { radius: number }): Layer
  circleMarker(center: LatLngTuple, options: PathOptions & { radius: number }): Layer
}
