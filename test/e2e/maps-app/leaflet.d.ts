/**
 * The part of Leaflet 1.9's API the maps fixture uses (the package ships no types, and
 * `@types/leaflet` is not a dependency of this project).
 */
declare module 'leaflet' {
  type LeafletEvent = 'tileload' | 'tileerror' | 'load'
  interface TileLayer {
    addTo(map: LeafletMap): TileLayer
    on(event: LeafletEvent, listener: () => void): TileLayer
  }
  interface LeafletMap {
    setView(center: [number, number], zoom: number): LeafletMap
  }
  export function map(id: string): LeafletMap
  export function tileLayer(url: string, options: { maxZoom: number; attribution: string }): TileLayer
}
