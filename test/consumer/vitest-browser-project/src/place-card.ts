/**
 * Your component (plain DOM here; React's would be the same test): finds a place with TMaps and
 * shows its address with the map tile around it at zoom 12, or a banner with TMaps' error.
 */
export async function placeCard(element: HTMLElement, { apiKey, query }: { apiKey: string; query: string }) {
  const url = `https://api.tmaps.tn/geocoding/forward?q=${encodeURIComponent(query)}&limit=1&api_key=${apiKey}`
  const response = await fetch(url)
  if (!response.ok) {
    const { error } = (await response.json()) as { error: string }
    element.innerHTML = '<p role="alert"></p>'
    element.querySelector('p')!.textContent = `TMaps refused this page (${response.status}): ${error}`
    return
  }
  const { results } = (await response.json()) as {
    results: { lat: number; lng: number; formatted: string }[]
  }
  const place = results[0]!
  const { x, y } = tileOf(place.lng, place.lat, 12)
  element.innerHTML = '<h2></h2><img width="256" height="256" alt="Map">'
  element.querySelector('h2')!.textContent = place.formatted
  element.querySelector('img')!.src = `https://tiles.tmaps.tn/r-tile/12/${x}/${y}?api_key=${apiKey}`
}

/** The slippy-map tile holding a point. */
function tileOf(lon: number, lat: number, z: number) {
  const n = 2 ** z
  const rad = (lat * Math.PI) / 180
  return {
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  }
}
