import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  API,
  type Checker,
  NodeBuilderFlags,
  SymbolFlags,
  type Symbol as TsSymbol,
} from 'typescript/unstable/sync'
import { root } from './packed.ts'

/** One entry of the package's `exports` map that has types (`./package.json` has none). */
export interface PublicEntry {
  /** The `exports` key: `.`, `./node`, ... */
  key: string
  /** What a consumer imports: `tmaps-mock`, `tmaps-mock/node`, ... */
  specifier: string
  /** The `types` file, relative to the package (`./dist/index.d.ts`). */
  types: string
  /** False when its conditions say `node: null` (a browser-only entry: `./browser`, `./storybook`). */
  runsInNode: boolean
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  exports: Record<string, string | Record<string, string | null>>
  peerDependencies?: Record<string, string>
  devDependencies: Record<string, string>
}

/** Every entry of `package.json`'s `exports` with a `types` condition, in the map's order. */
export const PUBLIC_ENTRIES: PublicEntry[] = Object.entries(pkg.exports).flatMap(([key, target]) =>
  typeof target === 'object' && typeof target.types === 'string'
    ? [
        {
          key,
          specifier: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`,
          types: target.types,
          runsInNode: target.node !== null,
        },
      ]
    : [],
)

export type ExportKind = 'function' | 'const' | 'class' | 'interface' | 'type' | 'enum' | 'namespace'

/** One name a public entry exports, as its `.d.ts` declares it. */
export interface PublicExport {
  name: string
  kind: ExportKind
  /** True for a value (something `import` gives at run time), false for a type only. */
  isValue: boolean
  /** The printed declaration: a function's signature, a constant's type, a type's members. */
  declaration: string
  /** The text of its `@deprecated` tag, when it has one. */
  deprecated?: string
  /** The JSDoc text before the tags. */
  doc: string
  /** The text of each `@example` tag, as written (with its Markdown fence). */
  examples: string[]
}

/** An entry as the installed package declares it; `exports` is undefined when its `.d.ts` is missing. */
export interface DeclaredEntry extends PublicEntry {
  file: string
  exports?: PublicExport[]
}

function kindOf(flags: number): ExportKind {
  if (flags & SymbolFlags.Function) return 'function'
  if (flags & SymbolFlags.Class) return 'class'
  if (flags & SymbolFlags.Enum) return 'enum'
  if (flags & SymbolFlags.Variable) return 'const'
  if (flags & SymbolFlags.Interface) return 'interface'
  if (flags & SymbolFlags.TypeAlias) return 'type'
  return 'namespace'
}

/**
 * Reads every public entry's exports from the `.d.ts` files of the package installed in
 * `projectDir`, with TypeScript 7's checker (its API drives the `tsgo` binary).
 */
export function readPublicApi(projectDir: string): DeclaredEntry[] {
  const packageDir = join(projectDir, 'node_modules', pkg.name)
  const entries = PUBLIC_ENTRIES.map((entry) => ({ ...entry, file: join(packageDir, entry.types) }))
  const present = entries.filter((entry) => existsSync(entry.file))
  const config = join(projectDir, 'tsconfig.public-api.json')
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'es2023',
        lib: ['es2023', 'dom', 'dom.iterable'],
        module: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: present.map((entry) => entry.file),
    }),
  )
  const api = new API({ cwd: projectDir })
  try {
    const project = api.updateSnapshot({ openProjects: [config] }).getProjects()[0]
    if (!project)
      throw new Error(`Failed to read the public API: TypeScript opened no project for ${config}.`)
    const { program, checker } = project
    return entries.map((entry) => {
      if (!present.includes(entry)) return entry
      const source = program.getSourceFile(entry.file)
      if (!source) throw new Error(`Failed to read the public API: TypeScript did not load ${entry.file}.`)
      const module = checker.getSymbolAtLocation(source)
      // A module with no export at all (the render worker) has no module symbol: no exports.
      const symbols = module ? checker.getExportsOfModule(module) : []
      const exports = symbols.map((symbol) => describeExport(checker, symbol, packageDir))
      return { ...entry, exports: exports.sort((a, b) => a.name.localeCompare(b.name, 'en')) }
    })
  } finally {
    api.close()
  }
}

function describeExport(checker: Checker, exported: TsSymbol, packageDir: string): PublicExport {
  const symbol = exported.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
  const kind = kindOf(symbol.flags)
  const isValue = (symbol.flags & SymbolFlags.Value) !== 0
  const tags = checker.getJsDocTagsOfSymbol(symbol)
  const deprecated = tags.find((tag) => tag.name === 'deprecated')
  const print = (
    type: Parameters<Checker['typeToString']>[0],
    flags: number = NodeBuilderFlags.NoTruncation,
  ) => checker.typeToString(type, undefined, flags)
  /** A type's own members (those this package declares), sorted: `name`, `name?`, `name()`. */
  const members = (type: Parameters<Checker['getPropertiesOfType']>[0]) =>
    checker
      .getPropertiesOfType(type)
      .filter((member) => member.declarations.some((d) => d.path.startsWith(packageDir)))
      .map(
        (member) =>
          `${member.name}${member.flags & SymbolFlags.Method ? '()' : ''}${member.flags & SymbolFlags.Optional ? '?' : ''}`,
      )
      .sort()
      .join(', ')

  let declaration: string
  const name = exported.name
  if (kind === 'function' || kind === 'const') {
    declaration = `${kind} ${name}: ${print(checker.getTypeOfSymbol(symbol)!)}`
  } else if (kind === 'class') {
    const instance = checker.getDeclaredTypeOfSymbol(symbol)
    declaration = `class ${name} { ${members(instance)} }`
  } else if (kind === 'interface') {
    declaration = `interface ${name} { ${members(checker.getDeclaredTypeOfSymbol(symbol))} }`
  } else if (kind === 'type') {
    const type = checker.getDeclaredTypeOfSymbol(symbol)
    const named = type.getSymbol()
    // Another name for an interface reads as that name; an object type by its members; anything
    // else (a union of names) as written.
    declaration =
      named && named.flags & (SymbolFlags.Interface | SymbolFlags.Class)
        ? `type ${name} = ${named.name}`
        : type.isObjectType() && checker.getPropertiesOfType(type).length > 0
          ? `type ${name} = { ${members(type)} }`
          : `type ${name} = ${print(type, NodeBuilderFlags.NoTruncation | NodeBuilderFlags.InTypeAlias)}`
  } else {
    declaration = `${kind} ${name}`
  }
  return {
    name,
    kind,
    isValue,
    declaration,
    ...(deprecated && { deprecated: deprecated.text ?? '' }),
    doc: checker.getDocumentationCommentOfSymbol(symbol),
    examples: tags.filter((tag) => tag.name === 'example').map((tag) => tag.text ?? ''),
  }
}

/** The exports snapshot: per entry, one export a line, sorted by name; deprecated ones say so. */
export function formatPublicApi(entries: DeclaredEntry[]): string {
  const header =
    '# The public API of tmaps-mock as its packed .d.ts files declare it: one section per entry of\n' +
    "# package.json's exports, one export a line. Made by test/consumer/exports.test.ts; after a\n" +
    '# change to the API, review the diff and accept it with: npx vitest run test/consumer/exports.test.ts -u\n\n'
  return `${header}${entries
    .filter((entry) => entry.exports)
    .map((entry) => {
      const lines = entry.exports!.map(
        (e) => `${e.deprecated === undefined ? '' : '@deprecated '}${e.declaration}`,
      )
      return `## ${entry.specifier} (${entry.types})\n${lines.length > 0 ? lines.join('\n') : '(no exports)'}\n`
    })
    .join('\n')}`
}
