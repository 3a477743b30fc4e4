import { HttpResponse, http } from 'msw'
import { setupWorker } from 'msw/browser'
import { ANSWER, firstResponse, URL_PATH } from './shared.ts'

const worker = setupWorker(
  http.get('https://api.tmaps.tn/geocoding/forward', () => HttpResponse.json(ANSWER)),
)
await worker.start({ quiet: true, onUnhandledFrame: 'bypass' })
await firstResponse(`https://api.tmaps.tn${URL_PATH}&api_key=ak_${'0'.repeat(32)}`)
