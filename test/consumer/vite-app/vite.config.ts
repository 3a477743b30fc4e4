import { tmapsMock } from 'tmaps-mock/vite'
import { defineConfig, loadEnv } from 'vite'

export default defineConfig(({ mode }) => ({
  // `vite dev`: TMaps answered offline in the page, the app's own key (VITE_TMAPS_API_KEY in .env)
  // in the mock's console. `vite build`: nothing of the mock.
  plugins: [tmapsMock({ apiKey: loadEnv(mode, import.meta.dirname).VITE_TMAPS_API_KEY })],
}))
