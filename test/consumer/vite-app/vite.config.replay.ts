import { tmapsMock } from 'tmaps-mock/vite'
import { defineConfig, loadEnv } from 'vite'

export default defineConfig(({ mode }) => ({
  plugins: [
    tmapsMock({
      apiKey: loadEnv(mode, import.meta.dirname).VITE_TMAPS_API_KEY,
      // TMaps's own answers, recorded by `tmaps-mock serve --upstream ... --record tmaps.har`.
      replay: './tmaps.har',
    }),
  ],
}))
