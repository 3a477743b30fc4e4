'use client'
import { type ReactNode, Suspense, use } from 'react'

// In the browser, with NEXT_PUBLIC_TMAPS_MOCK=1 at build time (else this is dead code, left out
// of the bundle): the mock starts as the page loads.
const started =
  typeof window !== 'undefined' && process.env.NEXT_PUBLIC_TMAPS_MOCK === '1'
    ? import('tmaps-mock/browser').then(async ({ setupTmapsWorker }) => {
        const tmaps = setupTmapsWorker({
          state: 'empty',
          keys: [{ value: process.env.NEXT_PUBLIC_TMAPS_API_KEY!, name: 'Web', domains: ['localhost'] }],
        })
        await tmaps.start() // msw's worker script: public/mockServiceWorker.js (npx msw init public --save)
      })
    : undefined

/** Renders the app once the mock answers, so no component's first request escapes it. */
export function TmapsMockProvider({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Started>{children}</Started>
    </Suspense>
  )
}

function Started({ children }: { children: ReactNode }) {
  if (started) use(started)
  return children
}
