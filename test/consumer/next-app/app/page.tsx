import { PlaceInBrowser } from './place-in-browser'

export const dynamic = 'force-dynamic' // geocoded per request, not at build time

const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${process.env.NEXT_PUBLIC_TMAPS_API_KEY}`

/** A server component: it calls TMaps from Node, which sends no Origin. */
export default async function Page() {
  const response = await fetch(url, { cache: 'no-store' })
  const body = await response.json()
  return (
    <main>
      <p id="server">
        Server: {response.status} {response.ok ? body.results[0].formatted : body.error}
      </p>
      <PlaceInBrowser url={url} />
    </main>
  )
}
