import { setupTmapsWorker } from '../../src/runtimes/browser/index.ts'
import { timed, UNKNOWN_KEY, URL_PATH } from './shared.ts'

const tmaps = setupTmapsWorker({ state: 'empty', seed: 'bench' })
await tmaps.start()
window.firstResponseMs = await timed(`https://api.tmaps.tn${URL_PATH}&api_key=${UNKNOWN_KEY}`, 401)
const { value } = await tmaps.console.createKey({ name: 'bench', domains: [location.hostname] })
window.firstGeocodeMs = await timed(`https://api.tmaps.tn${URL_PATH}&api_key=${value}`, 200)
