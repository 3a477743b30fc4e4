import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { KeyInfo } from '../src/console/create-console.ts'
import { MAP_ATTRIBUTION } from '../src/data/attribution.ts'
import { ReasonText, type Sent } from './composer.tsx'
import type { FeatureGroup, LatLngTuple, Leaflet, LeafletMap, TileEvent, TileLayer } from './leaflet-api.ts'
import { type MarkerKind, type Overlay, overlayOf } from './map-overlay.ts'
import type { MapTiles } from './map-tiles.ts'
import type { PlaygroundMock } from './server-console.ts'

/** Tunisia, from the Sahara (30.2° N) to Cap Blanc (37.35° N), Algeria's border to Ras Jedir. */
const TUNISIA: [LatLngTuple, LatLngTuple] = [
  [30.2, 7.5],
  [37.4, 11.6],
]
const TILE_SIZE = 256
// The tiles' credit, OpenStreetMap's (ODbL) included: the land and water are OSM-derived.
const ATTRIBUTION = `© TMaps mock · ${MAP_ATTRIBUTION}`
const DEFAULT_TILES_KEY = 'Web app (local dev)'
/** The height of Leaflet's attribution bar at the map's foot, in pixels, before it is drawn. */
const ATTRIBUTION_HEIGHT = 16

let loading: Promise<Leaflet> | undefined
/** Leaflet and its CSS, in their own chunk: fetched as the page starts, beside the mock's start. */
export function loadLeaflet(): Promise<Leaflet> {
  loading ??= Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')]).then(
    ([module]) => {
      // A CommonJS (UMD) package: its exports are the default export of the ES module.
      const leaflet = module as unknown as Leaflet & { default?: Leaflet }
      return leaflet.default ?? leaflet
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** What the view shows, fitted again whenever the map's size changes (until a person moves it). */
interface Frame {
  bounds: [LatLngTuple, LatLngTuple]
  padding: [number, number]
  maxZoom?: number
}

interface View {
  map: LeafletMap
  layer: TileLayer
  answer: FeatureGroup
  L: Leaflet
  /** Fits the view to a frame, and keeps it fitted when the map is resized. */
  frame(next: Frame): void
}

interface Tiles {
  /** Leaflet is loading tiles, or has loaded (or failed) every visible one. */
  phase: 'loading' | 'done'
  /** Tiles that failed since the last one that loaded. */
  errors: number
  status?: number
  reason?: string
}

const MARKER_COLORS: Record<MarkerKind, string> = {
  result: '#dc2626',
  query: '#ffffff',
  start: '#16a34a',
  end: '#dc2626',
  stop: '#2563eb',
  origin: '#7c3aed',
  destination: '#ea580c',
  point: '#dc2626',
}

const defaultKeyId = (keys: KeyInfo[]) =>
  (keys.find((k) => k.name === DEFAULT_TILES_KEY) ?? keys[0])?.id ?? ''

/**
 * Tunisia on the mock's own raster tiles (Leaflet, loaded on mount), through the key and domain
 * contract like any tile `<img>`, with the last answer drawn on top and the view fitted to it.
 */
export function TunisiaMap({
  tmaps,
  tiles,
  sent,
}: {
  tmaps: PlaygroundMock
  tiles: MapTiles
  sent: Sent | null
}) {
  const host = useRef<HTMLDivElement>(null)
  const [view, setView] = useState<View | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [state, setState] = useState<Tiles>({ phase: 'loading', errors: 0 })
  const errors = useRef(0)
  errors.current = state.errors

  // The tiles' key: its value is read again after every console change (reset, restore).
  const keys = tmaps.console.listKeys()
  const [chosen, setChosen] = useState(() => defaultKeyId(keys))
  const keyId = keys.some((k) => k.id === chosen) ? chosen : defaultKeyId(keys)
  const [changes, setChanges] = useState(0)
  useEffect(() => tmaps.onChange(() => setChanges((n) => n + 1)), [tmaps])
  const keyValue = useMemo(
    () => tmaps.snapshot().keys.find((k) => k.id === keyId)?.value ?? '',
    [tmaps, keyId, changes],
  )
  // What decides the tiles: the key's status and domains. When they change, the tiles are asked
  // for again (a new `v`, which TMaps ignores, so the browser does not reuse its loaded images):
  // unlink this page's host and the map is refused at once.
  const tileKey = keys.find((k) => k.id === keyId)
  const access = tileKey ? `${tileKey.status} ${tileKey.domains.join(' ')}` : ''
  const accessVersion = useRef({ access, n: 0 })
  if (accessVersion.current.access !== access)
    accessVersion.current = { access, n: accessVersion.current.n + 1 }
  const url = `${tmaps.options.tilesUrl}/r-tile/{z}/{x}/{y}?api_key=${encodeURIComponent(keyValue)}&v=${accessVersion.current.n}`
  const urlNow = useRef(url)
  urlNow.current = url
  /** The URL the tile layer has. */
  const applied = useRef('')

  // A layout effect: the map asks for its first tiles before the page's first paint, not after.
  useLayoutEffect(() => {
    let cancelled = false
    let map: LeafletMap | undefined
    let resize: ResizeObserver | undefined
    loadLeaflet().then(
      (L) => {
        if (cancelled || !host.current) return
        const el = document.createElement('div')
        el.className = 'map-canvas'
        el.setAttribute('role', 'region')
        el.setAttribute('aria-label', 'Map of Tunisia on the mock’s tiles')
        host.current.replaceChildren(el)
        // Quarter zoom levels: the whole country fills the map whatever its size.
        const shown = L.map(el, { maxZoom: 18, zoomSnap: 0.25 })
        map = shown
        let framed: Frame | null = null
        let fitting = false
        const frame = (next: Frame) => {
          framed = next
          fitting = true
          try {
            // The attribution bar covers the map's foot (two lines on a phone): what is framed
            // stays above it.
            const credit = el.querySelector<HTMLElement>('.leaflet-control-attribution')
            shown.fitBounds(next.bounds, {
              paddingTopLeft: next.padding,
              paddingBottomRight: [
                next.padding[0],
                next.padding[1] + (credit?.offsetHeight || ATTRIBUTION_HEIGHT),
              ],
              ...(next.maxZoom !== undefined && { maxZoom: next.maxZoom }),
              animate: false,
            })
          } finally {
            fitting = false
          }
        }
        // A person moved or zoomed the map: leave the view where they put it.
        shown.on('movestart zoomstart', () => {
          if (!fitting) framed = null
        })
        // The view, for tests and tools: `data-zoom`, and `data-center` as "lat,lng".
        const mark = () => {
          const { lat, lng } = shown.getCenter()
          el.dataset.zoom = String(shown.getZoom())
          el.dataset.center = `${lat.toFixed(4)},${lng.toFixed(4)}`
        }
        shown.on('moveend', mark)
        frame({ bounds: TUNISIA, padding: [4, 4] })
        mark()
        shown.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>')
        applied.current = urlNow.current
        const layer = L.tileLayer(applied.current, { maxZoom: 18, attribution: ATTRIBUTION })
        layer.on('tileloadstart', (e: TileEvent) => {
          tiles.expect(e.tile.src)
          // Half a pixel over its neighbours: no seam between scaled tiles (styles.css).
          e.tile.style.width = e.tile.style.height = `${TILE_SIZE + 0.5}px`
        })
        layer.on('loading', () => setState((s) => ({ ...s, phase: 'loading' })))
        layer.on('load', () => setState((s) => ({ ...s, phase: 'done' })))
        layer.on('tileload', () => setState((s) => (s.errors === 0 ? s : { phase: s.phase, errors: 0 })))
        layer.on('tileerror', (e: TileEvent) => {
          // The <img> cannot read its answer: the status and the reason come from the mock's log.
          const entry = tiles.entryFor(e.tile.src)
          const refused = entry && entry.status !== 200 ? entry : undefined
          setState((s) => ({
            phase: s.phase,
            errors: s.errors + 1,
            status: refused?.status ?? s.status,
            reason: refused?.reason ?? s.reason,
          }))
        })
        layer.addTo(shown)
        const answer = L.featureGroup().addTo(shown)
        resize = new ResizeObserver(() => {
          // invalidateSize pans the map itself: that is no person moving it, so the frame holds.
          const holding = framed
          fitting = true
          try {
            shown.invalidateSize()
          } finally {
            fitting = false
          }
          if (holding) frame(holding)
        })
        resize.observe(el)
        // The credit bar too: it wraps to two lines once its text is in (or on a narrow map), and
        // the frame keeps the country above it.
        const credit = el.querySelector('.leaflet-control-attribution')
        if (credit) resize.observe(credit)
        setView({ map: shown, layer, answer, L, frame })
      },
      (error: Error) => {
        if (!cancelled) setFailed(`The map could not load: ${error.message}`)
      },
    )
    return () => {
      cancelled = true
      resize?.disconnect()
      map?.remove()
    }
  }, [tiles])

  // Another key (or another value of it): reload every tile.
  useEffect(() => {
    if (!view || applied.current === url) return
    applied.current = url
    setState({ phase: 'loading', errors: 0 })
    reload(view, url)
  }, [view, url])

  // The console changed (a domain linked, a key enabled) while tiles were refused: try again.
  useEffect(() => {
    if (view && errors.current > 0) reload(view)
  }, [view, changes])

  const overlay = useMemo(() => overlayOf(sent?.body), [sent])
  useEffect(() => {
    if (view && sent) draw(view, overlay)
  }, [view, sent, overlay])

  const tilesStatus = state.errors > 0 ? 'refused' : state.phase === 'done' ? 'loaded' : 'loading'
  return (
    <figure class="panel map" data-tiles={view ? tilesStatus : 'starting'} aria-labelledby="map-title">
      <div class="row spread">
        <h2 id="map-title">Map</h2>
        <div class="row map-key">
          <label for="tiles-key" class="small">
            Tiles key
          </label>
          <select
            id="tiles-key"
            value={keyId}
            onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}
          >
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} · {k.status}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="map-frame">
        {/* Leaflet's own: Preact renders nothing in it. */}
        <div ref={host} class="map-host" />
        {!view && (
          <p class="map-placeholder muted" role={failed ? 'alert' : undefined}>
            {failed ?? 'Loading the map…'}
          </p>
        )}
        {view && state.errors > 0 && (
          // The title and its buttons first: they stay in view however small the map is.
          <div class="map-notice" role="status" data-testid="map-notice">
            <p class="map-notice-head">
              <strong>
                Tiles refused
                {state.status === undefined ? '' : ` (${state.status === 0 ? 'reset' : state.status})`}
              </strong>
              <span class="muted small">
                {' '}
                · {state.errors} tile{state.errors === 1 ? '' : 's'} failed
              </span>
            </p>
            <p class="row map-notice-actions">
              {state.status === 403 && tileKey && tileKey.status !== 'revoked' && (
                <button
                  type="button"
                  class="primary"
                  onClick={() =>
                    tmaps.console.setKeyDomains(tileKey.id, [...tileKey.domains, location.hostname])
                  }
                >
                  Link {location.hostname} to {tileKey.name}
                </button>
              )}
              {state.status === 401 && tileKey?.status === 'disabled' && (
                <button type="button" class="primary" onClick={() => tmaps.console.enableKey(tileKey.id)}>
                  Enable {tileKey.name}
                </button>
              )}
              <button type="button" onClick={() => reload(view)}>
                Retry tiles
              </button>
            </p>
            <div class="map-notice-text small">
              <p data-testid="map-notice-reason">
                <ReasonText
                  text={state.reason ?? 'The browser could not load them, and the mock logged no refusal.'}
                />
              </p>
              {state.status === 401 && tileKey && tileKey.status !== 'enabled' ? (
                <p class="muted" data-testid="map-notice-same-key">
                  The map asks for its tiles with this same key (Tiles key, above): a {tileKey.status} key is
                  refused everywhere, so a real map's tiles go too, once the browser's cached ones expire.
                </p>
              ) : (
                <p class="muted">
                  Map tiles are <code>&lt;img&gt;</code> requests: they send only a <code>Referer</code> (this
                  page’s origin), never an <code>Origin</code>, and its host must be linked to the key.
                </p>
              )}
            </div>
          </div>
        )}
      </div>
      <figcaption class="muted small" data-testid="map-caption">
        {sent
          ? overlay.summary
            ? `The last answer (${sent.endpoint}): ${overlay.summary}.`
            : `Nothing to draw in the last answer (${sent.endpoint}, ${sent.status}).`
          : 'Geocoding, routing, isochrone and distance-matrix answers are drawn here.'}
      </figcaption>
    </figure>
  )
}

/**
 * Asks for every tile again (with a new URL, if given). Not `redraw()`: at a fractional zoom
 * Leaflet 1.9's redraw asks for tiles of that zoom (`/r-tile/11.25/…`); a layer added again
 * takes the nearest whole zoom, as on any other move.
 */
function reload({ map, layer }: View, url?: string) {
  if (url !== undefined) layer.setUrl(url, true)
  layer.remove()
  layer.addTo(map)
}

/** A popup or tooltip as text nodes (an answer's names are never parsed as HTML). */
function label(title: string, details: string[] = []): HTMLElement {
  const el = document.createElement('div')
  const strong = document.createElement('strong')
  strong.textContent = title
  el.append(strong)
  for (const line of details) {
    const div = document.createElement('div')
    div.textContent = line
    el.append(div)
  }
  return el
}

/** Replaces the drawn answer and fits the view to it (a bad answer draws nothing, never throws). */
function draw({ L, answer, frame }: View, overlay: Overlay) {
  try {
    answer.clearLayers()
    for (const area of overlay.areas) {
      L.polygon(area.rings, {
        color: area.color,
        weight: 1.5,
        fillColor: area.color,
        fillOpacity: 0.22,
        className: 'answer-area',
      })
        .bindTooltip(label(area.label), { sticky: true })
        .addTo(answer)
    }
    for (const circle of overlay.circles) {
      L.circle(circle.at, {
        radius: circle.radius,
        color: '#334155',
        weight: 1.5,
        dashArray: '5 5',
        fillOpacity: 0.06,
        interactive: false,
      }).addTo(answer)
    }
    for (const line of overlay.lines) {
      if (line.kind === 'link') {
        L.polyline(line.points, { color: '#334155', weight: 1.5, dashArray: '4 6', className: 'answer-link' })
          .bindTooltip(label(line.label), { sticky: true })
          .addTo(answer)
        continue
      }
      L.polyline(line.points, { color: '#ffffff', weight: 8, opacity: 0.9, interactive: false }).addTo(answer)
      L.polyline(line.points, { color: '#1d4ed8', weight: 5, className: 'answer-route' })
        .bindPopup(label(line.label))
        .addTo(answer)
    }
    for (const marker of overlay.markers) {
      const query = marker.kind === 'query'
      L.circleMarker(marker.at, {
        radius: marker.kind === 'stop' ? 6 : 8,
        color: query ? '#0f172a' : '#ffffff',
        weight: query ? 3 : 2,
        fillColor: MARKER_COLORS[marker.kind],
        fillOpacity: 1,
        className: `answer-marker answer-${marker.kind}`,
      })
        .bindPopup(label(marker.label, marker.details))
        .addTo(answer)
    }
    if (overlay.bounds) frame({ bounds: overlay.bounds, padding: [32, 32], maxZoom: 16 })
  } catch (error) {
    console.warn('tmaps-mock playground: the answer could not be drawn on the map:', error)
  }
}
