import { tmapsMock } from 'tmaps-mock/vite'
import { defineConfig, loadEnv } from 'vite'

/** The app with the mock, as the README's recipe has it. */
export default defineConfig(({ mode }) => ({
  plugins: [tmapsMock({ apiKey: loadEnv(mode, import.meta.dirname).VITE_TMAPS_API_KEY })],
}))
