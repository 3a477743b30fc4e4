import { render } from 'preact'
import { setupTmapsWorker } from '../mocks/browser.ts'
import { App } from './app.tsx'
import './styles.css'

/** The playground's mock: the demo console, kept across reloads and tabs of this origin. */
const tmaps = setupTmapsWorker({ persist: 'tmaps-mock/playground' })
const root = document.getElementById('app')!
try {
  await tmaps.start()
  root.replaceChildren()
  render(<App tmaps={tmaps} />, root)
} catch (error) {
  console.error('tmaps-mock playground: the mock did not start:', error)
  root.textContent = `The mock did not start: ${(error as Error).message}`
}
