import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { parseSync } from 'oxc-parser'

/**
 * The exports of `src/` that no other file imports and no entry of the package exposes: each is
 * used in its own file only (or nowhere), so it should not be exported. Read from every tracked
 * TypeScript file of the repository (tests, the playground, benches and scripts count as users)
 * with oxc-parser's module records; a dynamic `import()` of a file (or of its compiled `dist/` copy,
 * as a build script imports it, or its `new URL('./x.ts', import.meta.url)` handed to a child
 * process) counts as a use of all its
 * exports, and so does `export *`. Generated files aside. As `file: name`.
 */
export function deadExports(root: string): string[] {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && !file.endsWith('.d.ts'))
  const exported = new Map<string, Set<string>>()
  const used = new Map<string, Set<string>>()
  const use = (file: string | undefined, name: string) => {
    if (file === undefined) return
    if (!used.has(file)) used.set(file, new Set())
    used.get(file)!.add(name)
  }
  const target = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined
    const path = relative(root, resolve(root, dirname(from), specifier))
    return [path, path.replace(/\.js$/, '.ts')].find((p) => existsSync(join(root, p)))
  }
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    const { module } = parseSync(file, text)
    // A generator's file (its first line says so) exports what the generator writes.
    const generated = text.startsWith('// Generated from ')
    for (const imported of module.staticImports) {
      const to = target(file, imported.moduleRequest.value)
      for (const entry of imported.entries)
        use(to, entry.importName.kind === 'Name' ? entry.importName.name! : '*')
    }
    for (const statement of module.staticExports)
      for (const entry of statement.entries) {
        if (entry.moduleRequest) {
          const to = target(file, entry.moduleRequest.value)
          use(to, entry.importName.kind === 'Name' ? entry.importName.name! : '*')
        } else if (
          entry.exportName.name &&
          file.startsWith('src/') &&
          !file.includes('.test.') &&
          !generated
        ) {
          if (!exported.has(file)) exported.set(file, new Set())
          exported.get(file)!.add(entry.exportName.name)
        }
      }
    for (const dynamic of module.dynamicImports) {
      const argument = text.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end)
      const literal = /^['"`]([^'"`$]+)['"`]$/.exec(argument)
      if (literal) use(target(file, literal[1]!), '*')
      // A build script's import of the compiled file (`import(join(dist, 'core/options.js'))`).
      const compiled = /['"]([\w/.-]+)\.js['"]/.exec(argument)
      if (compiled && existsSync(join(root, `src/${compiled[1]}.ts`))) use(`src/${compiled[1]}.ts`, '*')
    }
    // A file named by its URL or path (for a child process or a worker to import).
    for (const named of text.matchAll(/new URL\('(\.{1,2}\/[^']+\.ts)', import\.meta\.url\)/g))
      use(target(file, named[1]!), '*')
  }
  const entries = packageEntries(root)
  const dead: string[] = []
  for (const [file, names] of exported) {
    if (entries.has(file)) continue
    const users = used.get(file) ?? new Set()
    for (const name of names) if (!users.has(name) && !users.has('*')) dead.push(`${file}: ${name}`)
  }
  return dead.sort()
}

/** The source files of the package's entries (`exports` of package.json: `./dist/x.js` is `src/x.ts`). */
function packageEntries(root: string): Set<string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: unknown }
  const paths = new Set<string>()
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') && value.endsWith('.js'))
        paths.add(value.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))
    } else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v)
  }
  walk(pkg.exports)
  return paths
}
