import type { Preview } from '@storybook/preact-vite'
import { tmapsLoader } from 'tmaps-mock/storybook'

const preview: Preview = {
  // Instead of msw-storybook-addon's mswLoader: starts msw's worker once (parameters.msw works
  // as the addon documents) and gives every story a fresh TMaps mock from its parameters.tmaps.
  loaders: [tmapsLoader()],
}

export default preview
