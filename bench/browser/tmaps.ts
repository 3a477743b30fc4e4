import { setupTmapsWorker } from '../../mocks/browser.ts'
import { firstResponse, URL_PATH } from './shared.ts'

const tmaps = setupTmapsWorker({ state: 'empty', seed: 'bench' })
await tmaps.start()
const { value } = await tmaps.console.createKey({ name: 'bench', domains: [location.hostname] })
await firstResponse(`https://api.tmaps.tn${URL_PATH}&api_key=${value}`)
