'use client'
import { useEffect, useState } from 'react'

/** A client component: it calls TMaps from the browser, which sends the page's Origin. */
export function PlaceInBrowser({ url }: { url: string }) {
  const [text, setText] = useState('…')
  useEffect(() => {
    fetch(url)
      .then(async (response) => {
        const body = await response.json()
        setText(`${response.status} ${response.ok ? body.results[0].formatted : body.error}`)
      })
      .catch((error: Error) => setText(`failed: ${error.message}`))
  }, [url])
  return <p id="browser">Browser: {text}</p>
}
