import type { Rgba } from '../rasterizer/raster.ts'

/** The documented static-map styles; tiles are drawn in `streets`. */
export const MAP_STYLES = ['streets', 'dark', 'terrain', 'sunny'] as const
export type MapStyle = (typeof MAP_STYLES)[number]

/** The colours of one style. */
export interface Palette {
  sea: Rgba
  /** Land; the terrain style shades it from the green north (`land`) to the Saharan south (`landSouth`). */
  land: Rgba
  landSouth?: Rgba
  /** Salt flats (chotts, sebkhas): neither water nor land. */
  salt: Rgba
  countryBorder: Rgba
  governorateBorder: Rgba
  motorway: Rgba
  motorwayCasing: Rgba
  primary: Rgba
  primaryCasing: Rgba
  secondary: Rgba
  secondaryCasing: Rgba
  street: Rgba
  streetCasing: Rgba
  dot: Rgba
  dotOutline: Rgba
  label: Rgba
  labelHalo: Rgba
  countryLabel: Rgba
  seaLabel: Rgba
  /** Built-up areas (generated), parks, cemeteries, squares, ports and aerodromes, runways. */
  urban: Rgba
  park: Rgba
  cemetery: Rgba
  square: Rgba
  port: Rgba
  airport: Rgba
  runway: Rgba
  /** Railway lines (the TGM): a thin dark line. */
  railway: Rgba
  /** Names of parks, squares, ports, airports and landmarks. */
  areaLabel: Rgba
}

// biome-ignore format: palettes read best as tables
export const PALETTES: Record<MapStyle, Palette> = {
  streets: {
    sea: [170, 211, 223, 255], land: [242, 239, 233, 255], salt: [220, 208, 232, 255],
    countryBorder: [157, 122, 172, 255], governorateBorder: [186, 168, 196, 255],
    motorway: [233, 144, 160, 255], motorwayCasing: [194, 96, 118, 255],
    primary: [252, 214, 164, 255], primaryCasing: [200, 150, 90, 255],
    secondary: [255, 255, 255, 255], secondaryCasing: [196, 188, 176, 255],
    street: [255, 255, 255, 255], streetCasing: [204, 196, 184, 255],
    dot: [70, 70, 70, 255], dotOutline: [255, 255, 255, 255],
    label: [40, 40, 40, 255], labelHalo: [255, 255, 255, 220],
    countryLabel: [110, 80, 130, 255], seaLabel: [60, 110, 150, 255],
    urban: [226, 221, 216, 255], park: [200, 228, 178, 255], cemetery: [178, 206, 180, 255],
    square: [232, 226, 238, 255], port: [232, 214, 228, 255], airport: [230, 228, 236, 255],
    runway: [176, 176, 192, 255], railway: [96, 96, 96, 255], areaLabel: [70, 90, 60, 255],
  },
  dark: {
    sea: [22, 30, 40, 255], land: [44, 48, 55, 255], salt: [62, 66, 76, 255],
    countryBorder: [128, 112, 150, 255], governorateBorder: [88, 88, 108, 255],
    motorway: [170, 120, 70, 255], motorwayCasing: [90, 66, 40, 255],
    primary: [112, 104, 86, 255], primaryCasing: [60, 58, 52, 255],
    secondary: [82, 86, 94, 255], secondaryCasing: [50, 53, 60, 255],
    street: [78, 82, 90, 255], streetCasing: [38, 41, 47, 255],
    dot: [215, 215, 215, 255], dotOutline: [30, 32, 36, 255],
    label: [222, 226, 232, 255], labelHalo: [18, 20, 24, 210],
    countryLabel: [170, 160, 200, 255], seaLabel: [110, 145, 180, 255],
    urban: [54, 57, 64, 255], park: [40, 60, 46, 255], cemetery: [44, 58, 50, 255],
    square: [66, 64, 74, 255], port: [62, 54, 66, 255], airport: [58, 58, 68, 255],
    runway: [100, 100, 116, 255], railway: [150, 150, 160, 255], areaLabel: [170, 200, 160, 255],
  },
  terrain: {
    sea: [150, 194, 214, 255], land: [200, 222, 170, 255], landSouth: [238, 216, 164, 255],
    salt: [246, 243, 236, 255],
    countryBorder: [140, 100, 80, 255], governorateBorder: [170, 150, 128, 255],
    motorway: [214, 120, 80, 255], motorwayCasing: [150, 80, 50, 255],
    primary: [236, 192, 120, 255], primaryCasing: [170, 130, 80, 255],
    secondary: [252, 248, 236, 255], secondaryCasing: [178, 164, 140, 255],
    street: [255, 252, 244, 255], streetCasing: [186, 172, 150, 255],
    dot: [70, 60, 50, 255], dotOutline: [255, 255, 255, 255],
    label: [58, 46, 36, 255], labelHalo: [255, 255, 255, 200],
    countryLabel: [120, 80, 60, 255], seaLabel: [50, 100, 130, 255],
    urban: [214, 206, 192, 255], park: [168, 206, 140, 255], cemetery: [160, 190, 150, 255],
    square: [232, 224, 214, 255], port: [222, 206, 214, 255], airport: [224, 220, 214, 255],
    runway: [160, 156, 160, 255], railway: [90, 84, 80, 255], areaLabel: [60, 80, 40, 255],
  },
  sunny: {
    sea: [52, 190, 226, 255], land: [255, 242, 204, 255], salt: [250, 250, 246, 255],
    countryBorder: [226, 112, 64, 255], governorateBorder: [240, 176, 128, 255],
    motorway: [255, 128, 48, 255], motorwayCasing: [214, 90, 20, 255],
    primary: [255, 196, 84, 255], primaryCasing: [222, 150, 40, 255],
    secondary: [255, 255, 255, 255], secondaryCasing: [232, 200, 150, 255],
    street: [255, 255, 255, 255], streetCasing: [236, 206, 160, 255],
    dot: [120, 60, 20, 255], dotOutline: [255, 255, 255, 255],
    label: [96, 56, 20, 255], labelHalo: [255, 250, 236, 220],
    countryLabel: [190, 90, 40, 255], seaLabel: [255, 255, 255, 255],
    urban: [246, 226, 196, 255], park: [190, 232, 150, 255], cemetery: [176, 214, 160, 255],
    square: [255, 232, 214, 255], port: [246, 210, 214, 255], airport: [240, 232, 220, 255],
    runway: [190, 170, 160, 255], railway: [110, 90, 80, 255], areaLabel: [80, 100, 30, 255],
  },
}
