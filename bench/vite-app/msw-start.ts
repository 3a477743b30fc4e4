import { HttpResponse, http } from 'msw'
import { setupWorker } from 'msw/browser'
import answers from './answers.json'

/** A bare msw app (`vite.config.msw.ts`): one handler, the same JSON as the mock's, msw's defaults. */
const worker = setupWorker(
  http.get('https://api.tmaps.tn/geocoding/forward', ({ request }) => {
    const known = new URL(request.url).searchParams.get('api_key') === answers.key
    return HttpResponse.json(known ? answers.geocode : answers.unauthorized, { status: known ? 200 : 401 })
  }),
)
// With vite.config.msw-early.ts, msw's worker was registered by the page's first script: as the
// plugin's start module does, wait until it controls the page (msw reloads a page it does not).
await (globalThis as Record<symbol, unknown>)[Symbol.for('tmaps-mock:registration')]
await worker.start({ quiet: true, onUnhandledRequest: 'bypass' })
