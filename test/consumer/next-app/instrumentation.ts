// Next.js runs register() once when the server starts, before any request.
export async function register() {
  // TMAPS_MOCK=1 next dev (or next start): server components and route handlers that call
  // TMaps get the mock; without it, the real TMaps.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.TMAPS_MOCK !== '1') return
  const { setupTmapsNode } = await import('tmaps-mock/node')
  const { server } = setupTmapsNode({
    state: 'empty',
    // The app's own key, linked to the domains it is authorized for.
    keys: [{ value: process.env.NEXT_PUBLIC_TMAPS_API_KEY!, name: 'Web', domains: ['localhost'] }],
  })
  server.listen({ onUnhandledFrame: 'bypass' })
}
