import type { StorybookConfig } from '@storybook/preact-vite'
import { msw } from 'msw/vite'
import { mergeConfig } from 'vite'

const config: StorybookConfig = {
  framework: '@storybook/preact-vite',
  stories: ['../src/**/*.stories.tsx'],
  addons: ['@storybook/addon-vitest'],
  viteFinal: (viteConfig) =>
    mergeConfig(viteConfig, {
      // Serves msw's mockServiceWorker.js in `storybook dev` and emits it with `storybook build`.
      plugins: [msw({ mode: 'worker-only' })],
      // One copy of preact in `storybook dev` (else hooks fail: "reading '__H'").
      optimizeDeps: { include: ['preact', 'preact/hooks', 'preact/jsx-runtime', 'preact/jsx-dev-runtime'] },
    }),
}

export default config
