import { tmapsMock } from 'tmaps-mock/vite'
import { defineConfig, loadEnv } from 'vite'

export default defineConfig(({ mode }) => ({
  plugins: [
    tmapsMock({
      apiKey: loadEnv(mode, import.meta.dirname).VITE_TMAPS_API_KEY,
      // Answers of your choosing in `vite dev`, from a module of the app: edit it, the page keeps running.
      overrides: './src/tmaps-overrides.ts',
    }),
  ],
}))
