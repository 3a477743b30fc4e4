import { describe, expect, it } from 'vitest'
import { assertNodeVersion } from './node-version.ts'

describe('assertNodeVersion', () => {
  it.each(['20.19.2', '22.11.0', '18.0.0'])('refuses Node %s and says how to fix it', (version) => {
    expect(() => assertNodeVersion('tmaps-mock/node', version)).toThrow(
      `tmaps-mock/node: tmaps-mock needs Node >= 22.12 (msw 3); this is Node ${version}. Upgrade Node, or add the \`node\` package as a devDependency (npm i -D node@24), which npm scripts then use.`,
    )
  })

  it.each(['22.12.0', '22.20.1', '24.0.0', '25.1.0'])('accepts Node %s', (version) => {
    expect(() => assertNodeVersion('tmaps-mock/node', version)).not.toThrow()
  })
})
