import type { Preview } from '@storybook/preact-vite'
import { tmapsLoader } from 'tmaps-mock/storybook'
// TMaps's own answers, recorded with `tmaps-mock serve --upstream ... --record` (here against the
// tests' stand-in TMaps): a story whose request is in it gets the recorded bytes, the rest the mock.
import har from './tmaps.har.json'

const preview: Preview = {
  // Instead of msw-storybook-addon's mswLoader: starts msw's worker once (parameters.msw works
  // as the addon documents) and gives every story a fresh TMaps mock from its parameters.tmaps.
  // maxAge false: a fixture kept in the repository, never re-recorded.
  loaders: [tmapsLoader({ replay: { har, maxAge: false } })],
}

export default preview
