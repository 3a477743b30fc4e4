/**
 * The last step of `npm run build`: `dist/vendor/msw-data.js` (tsc's re-export of `@msw/data`)
 * becomes `@msw/data` and what it imports, bundled and tree-shaken by Vite (Rolldown), with
 * their licences at the top. Why: `@msw/data` imports the `es-toolkit/compat` barrel (555
 * modules) for `get`, `set` and `unset`, ~100 ms of every fresh Node process that imports
 * tmaps-mock; the bundle loads in ~35 ms (bench: cold start). Browsers' bundlers get the same
 * module, smaller. The types (`msw-data.d.ts`) still come from the `@msw/data` dependency.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { build, type Rolldown } from 'vite'

const root = join(import.meta.dirname, '..')
const target = join(root, 'dist/vendor/msw-data.js')
const outDir = join(root, 'dist/vendor/.bundle')

const output = (await build({
  configFile: false,
  logLevel: 'warn',
  root,
  build: {
    outDir,
    emptyOutDir: true,
    minify: false,
    lib: { entry: join(root, 'src/vendor/msw-data.ts'), formats: ['es'], fileName: () => 'msw-data.js' },
  },
})) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[]
const chunk = (Array.isArray(output) ? output[0]! : output).output.find((o) => o.type === 'chunk')!

// The packages in the bundle, each with its licence (all MIT), as their licences ask.
const packages = new Map<string, string>()
for (const id of Object.keys(chunk.modules)) {
  const dir = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1]
  if (!dir) continue
  const manifest = join(dir, 'package.json')
  const { name, version, license } = JSON.parse(readFileSync(manifest, 'utf8'))
  if (packages.has(name)) continue
  const text = ['LICENSE', 'LICENSE.md', 'license', 'LICENSE.txt']
    .map((file) => {
      try {
        return readFileSync(join(dirname(manifest), file), 'utf8')
      } catch {
        return ''
      }
    })
    .find(Boolean)
  if (!text) throw new Error(`bundle-vendor: ${name} has no licence file to carry`)
  packages.set(name, `${name}@${version} (${license})\n\n${text.trim()}`)
}
if (!packages.has('@msw/data')) throw new Error('bundle-vendor: @msw/data is not in the bundle')
const banner = `/*!\n * @msw/data bundled for tmaps-mock (scripts/bundle-vendor.ts). Contains:\n *\n${[
  ...packages.values(),
]
  .join('\n\n')
  .split('\n')
  .map((line) => ` * ${line}`.trimEnd())
  .join('\n')}\n */\n`
writeFileSync(target, banner + chunk.code)
rmSync(outDir, { recursive: true, force: true })
console.log(
  `dist/vendor/msw-data.js: ${[...packages.keys()].join(', ')} (${Math.round(chunk.code.length / 1024)} kB)`,
)
