import type { NextConfig } from 'next'

const config: NextConfig = {
  // The mock runs in Node as it is installed (its data files and render processes stay where
  // npm put them), not bundled into the server's chunks.
  serverExternalPackages: ['tmaps-mock', 'msw'],
}
export default config
