import { scenarios, type TmapsOverrideEntry } from 'tmaps-mock'

// What TMaps answers the app in `vite dev` (tmapsMock({ overrides: './src/tmaps-overrides.ts' })),
// after the key and domain checks, as on TMaps. Only `vite dev` imports this file.
export default [
  // Every search finds nothing: does the app say so?
  { endpoint: 'geocoding/forward', resolver: scenarios.noResults() },
  // Directions to a point no road reaches: 400 invalid param: to (no road reaches it: ...).
  { endpoint: 'routing/direction', scenario: 'at-sea' },
] satisfies TmapsOverrideEntry[]
