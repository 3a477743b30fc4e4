import { HttpResponse, http } from 'msw'
import { setupWorker } from 'msw/browser'
import { ANSWER, timed, UNKNOWN_KEY, URL_PATH } from './shared.ts'

const worker = setupWorker(
  http.get('https://api.tmaps.tn/geocoding/forward', ({ request }) =>
    new URL(request.url).searchParams.get('api_key') === UNKNOWN_KEY
      ? HttpResponse.json({ error: 'unauthorized' }, { status: 401 })
      : HttpResponse.json(ANSWER),
  ),
)
await worker.start({ quiet: true, onUnhandledFrame: 'bypass' })
window.firstResponseMs = await timed(`https://api.tmaps.tn${URL_PATH}&api_key=${UNKNOWN_KEY}`, 401)
window.firstGeocodeMs = await timed(`https://api.tmaps.tn${URL_PATH}&api_key=ak_${'1'.repeat(32)}`, 200)
