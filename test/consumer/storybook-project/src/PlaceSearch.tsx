import 'leaflet/dist/leaflet.css'
import './place-search.css'
import * as L from 'leaflet'
import { useEffect, useRef, useState } from 'preact/hooks'

export interface PlaceSearchProps {
  /** The TMaps API key, for geocoding and for the map's tiles. */
  apiKey: string
}

interface Place {
  formatted: string
  lat: number
  lng: number
  type: string
}

type Search =
  | { state: 'idle' }
  | { state: 'loading'; query: string }
  | { state: 'done'; query: string; places: Place[] }
  | { state: 'failed'; query: string; title: string; detail: string }

/** What the user reads for each TMaps error (branch on the status, as the docs ask). */
function explain(status: number): { title: string; detail: string } {
  if (status === 401)
    return {
      title: 'API key refused (401)',
      detail: 'The key is missing, unknown, disabled or revoked. Check its status in the TMaps console.',
    }
  if (status === 403)
    return {
      title: 'This site is not authorized (403)',
      detail: `${location.hostname} is not an authorized domain of this key. Link it to the key in the TMaps console.`,
    }
  if (status === 429)
    return { title: 'Too many requests (429)', detail: 'TMaps is limiting requests. Try again in a moment.' }
  if (status >= 500) return { title: `TMaps is unavailable (${status})`, detail: 'Try again in a moment.' }
  return { title: `The search failed (${status})`, detail: 'Check the search text.' }
}

/** A place search on TMaps: a search box, the places found and a map of TMaps tiles. */
export function PlaceSearch({ apiKey }: PlaceSearchProps) {
  const [query, setQuery] = useState('')
  const [search, setSearch] = useState<Search>({ state: 'idle' })

  async function run(event: Event) {
    event.preventDefault()
    const text = query.trim()
    if (text === '') return
    setSearch({ state: 'loading', query: text })
    const url = `https://api.tmaps.tn/geocoding/forward?q=${encodeURIComponent(text)}&limit=5&api_key=${apiKey}`
    try {
      const response = await fetch(url)
      if (!response.ok) return setSearch({ state: 'failed', query: text, ...explain(response.status) })
      const { results } = (await response.json()) as { results: Place[] }
      setSearch({ state: 'done', query: text, places: results })
    } catch {
      setSearch({
        state: 'failed',
        query: text,
        title: 'Network error',
        detail: 'TMaps could not be reached.',
      })
    }
  }

  return (
    <section class="place-search">
      <form class="place-search__form" onSubmit={run}>
        <input
          type="search"
          aria-label="Place"
          placeholder="A town, a street, a place…"
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
        <button type="submit" disabled={search.state === 'loading'}>
          Search
        </button>
      </form>
      <div class="place-search__body">
        <div class="place-search__results">
          <Results search={search} />
        </div>
        <TileMap apiKey={apiKey} places={search.state === 'done' ? search.places : []} />
      </div>
    </section>
  )
}

function Results({ search }: { search: Search }) {
  switch (search.state) {
    case 'idle':
      return <p class="place-search__hint">Search a place in Tunisia.</p>
    case 'loading':
      return (
        <p class="place-search__loading" role="status">
          <span class="place-search__spinner" aria-hidden="true" /> Searching for “{search.query}”…
        </p>
      )
    case 'failed':
      return (
        <div class="place-search__error" role="alert">
          <strong>{search.title}</strong>
          <p>{search.detail}</p>
        </div>
      )
    case 'done':
      if (search.places.length === 0) return <p role="status">No place matches “{search.query}”.</p>
      return (
        <>
          <p role="status">
            {search.places.length === 1 ? '1 place' : `${search.places.length} places`} for “{search.query}”
          </p>
          <ol aria-label="Places">
            {search.places.map((place) => (
              <li key={place.formatted}>
                {place.formatted} <small>{place.type}</small>
              </li>
            ))}
          </ol>
        </>
      )
  }
}

/** A Leaflet map on TMaps raster tiles, with the places found. */
function TileMap({ apiKey, places }: { apiKey: string; places: Place[] }) {
  const container = useRef<HTMLDivElement>(null)
  const map = useRef<L.Map>()
  const markers = useRef<L.LayerGroup>()
  const [tilesRefused, setTilesRefused] = useState(false)

  useEffect(() => {
    const created = L.map(container.current!).setView([33.9, 9.6], 6)
    L.tileLayer(`https://tiles.tmaps.tn/r-tile/{z}/{x}/{y}?api_key=${apiKey}`, {
      maxZoom: 18,
      attribution: '© TMaps · © OpenStreetMap contributors', // the mock's tiles are OSM-derived (ODbL)
    })
      .on('tileerror', () => setTilesRefused(true))
      .addTo(created)
    markers.current = L.layerGroup().addTo(created)
    map.current = created
    setTilesRefused(false)
    return () => created.remove()
  }, [apiKey])

  useEffect(() => {
    markers.current?.clearLayers()
    for (const place of places) {
      L.circleMarker([place.lat, place.lng], { radius: 7, color: '#b3261e' })
        .bindTooltip(place.formatted)
        .addTo(markers.current!)
    }
    const [first] = places
    // No animation: a story can unmount the map at any time (Leaflet fails if it is removed mid-zoom).
    if (first) map.current?.setView([first.lat, first.lng], 10, { animate: false })
  }, [places])

  return (
    <div class="place-search__map">
      <div ref={container} data-testid="map" />
      {tilesRefused && (
        <p class="place-search__map-error" role="alert">
          Map tiles refused: check the key and its authorized domains.
        </p>
      )}
    </div>
  )
}
