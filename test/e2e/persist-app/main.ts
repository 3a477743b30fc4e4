import { setupTmapsWorker, type TmapsWorker } from '../../../src/runtimes/browser/index.ts'
import { APP_KEY } from './app-key.ts'

declare global {
  interface Window {
    tmaps?: TmapsWorker
    /** Set once the mock has started. */
    started?: boolean
  }
}

const tmaps = setupTmapsWorker({
  state: 'empty',
  seed: 'persist-e2e',
  persist: 'persist-e2e',
  keys: [{ value: APP_KEY, name: 'App', domains: [location.hostname] }],
})
window.tmaps = tmaps
await tmaps.start()
window.started = true
