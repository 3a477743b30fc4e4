/** The zoom from which views draw land use, and the labels and icons of street zoom. */
export const STREET_LAYERS_ZOOM = 10

type Layers = {
  landUse: typeof import('./land-use.ts')
  details: typeof import('./detail-labels.ts')
}
let loaded: Layers | undefined
let loading: Promise<unknown> | undefined

/**
 * Loads the street-zoom layers (land use, area names, landmarks, street names, POI icons) once:
 * views of zoom 10 and more need them, a country view never loads them (`loadBaseLevel` does it
 * for the zooms that need it). `undefined` once loaded.
 * @example await loadStreetLayers()
 */
export function loadStreetLayers(): Promise<unknown> | undefined {
  if (loaded) return undefined
  loading ??= Promise.all([import('./land-use.ts'), import('./detail-labels.ts')]).then(
    ([landUse, details]) => {
      loaded = { landUse, details }
    },
  )
  return loading
}

/** The street-zoom layers, loaded by `loadStreetLayers` (a message that says so otherwise). */
export function streetLayers(zoom: number): Layers {
  if (!loaded)
    throw new Error(
      `Failed to draw zoom ${zoom}: the street-zoom layers are not loaded. Await loadBaseLevel(${zoom}) (or loadStreetLayers()) before drawing.`,
    )
  return loaded
}
