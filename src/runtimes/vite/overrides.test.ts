import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { afterEach, describe, expect, it } from 'vitest'
import { type TmapsVitePluginOptions, tmapsMock } from './index.ts'

const START = '\0virtual:tmaps-mock/start'
const roots: string[] = []
const servers: ViteDevServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const OVERRIDES =
  "import { scenarios } from 'tmaps-mock'\nexport default [{ endpoint: 'geocoding/forward', resolver: scenarios.noResults() }]\n"

/** A dev server (not listening) of a project with these files, the plugin on with `options`. */
async function dev(files: Record<string, string>, options: TmapsVitePluginOptions): Promise<ViteDevServer> {
  const root = mkdtempSync(join(tmpdir(), 'tmaps-vite-overrides-'))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'silent',
    server: { ws: false },
    optimizeDeps: { noDiscovery: true },
    plugins: [tmapsMock({ quiet: true, ...options })],
  })
  servers.push(server)
  return server
}

/** The start module as the plugin makes it (before Vite rewrites its imports). */
const startModule = async (server: ViteDevServer) =>
  String(((await server.pluginContainer.load(START)) as string | { code: string } | null) ?? '')

describe('tmapsMock({ overrides })', () => {
  it('loads nothing more without the option: no overrides module, no tmaps-mock entry to pre-bundle', async () => {
    const server = await dev({}, {})
    const code = await startModule(server)
    expect(code).toMatch(
      /^import \{ startTmapsPage \} from "tmaps-mock\/vite\/page"\nconst page = startTmapsPage\(\{/,
    )
    expect(code).not.toContain('overridesModule')
    expect(server.config.optimizeDeps.include).toEqual(['tmaps-mock/vite/page', 'tmaps-mock/render-worker'])
  })

  it('imports the module in the page, applies its default export before the mock starts, and accepts its edits', async () => {
    const server = await dev(
      { 'src/tmaps-overrides.ts': OVERRIDES },
      { overrides: './src/tmaps-overrides.ts' },
    )
    const file = join(server.config.root, 'src/tmaps-overrides.ts')
    const code = await startModule(server)
    expect(code).toContain(`import * as overridesModule from ${JSON.stringify(file)}\n`)
    // The page code applies the module's list before the mock starts (see page.ts).
    expect(code).toContain('"overrides":"./src/tmaps-overrides.ts"}, overridesModule)\n')
    expect(code.indexOf('overridesModule)')).toBeLessThan(code.indexOf('await page.started'))
    expect(code).toContain(
      `import.meta.hot.accept(${JSON.stringify(file)}, (next) => page.overridesEdited(next))`,
    )
    // Its `tmaps-mock` import is pre-bundled with the mock: no reload for a late discovery.
    expect(server.config.optimizeDeps.include).toContain('tmaps-mock')
  })

  it('refuses a module that does not exist, and an option that is not a path, saying what to give', async () => {
    await expect(dev({}, { overrides: './src/missing.ts' })).rejects.toThrow(
      /^Failed to set up tmaps-mock\/vite: overrides is "\.\/src\/missing\.ts", and \/.+\/src\/missing\.ts does not exist\. Give the path of a module from the project's root, e\.g\. "\.\/src\/tmaps-overrides\.ts", whose default export lists the overrides\.$/,
    )
    expect(() => tmapsMock({ overrides: [] as never })).toThrow(
      'Failed to set up tmaps-mock/vite: overrides must be the path of a module of your project whose default export lists the overrides, e.g. "./src/tmaps-overrides.ts".',
    )
  })
})
