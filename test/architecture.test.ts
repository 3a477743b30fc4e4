/**
 * The import graph of `src/`, as the TypeScript compiler itself resolves it (`tsc --explainFiles`:
 * every import, type-only ones included), checked against the layers of docs/architecture.md:
 * no import cycle, and no import from a lower layer to a higher one. And no function of the core
 * or a runtime longer than 100 lines (oxc's parser, the one Vite's toolchain uses).
 *
 * Why not dependency-cruiser: its TypeScript support loads the `typescript` package's compiler
 * API, which TypeScript 7 (the native compiler this project builds with) does not have yet
 * (dependency-cruiser 18.7 says so and cruised 0 modules); the compiler's own explanation of why
 * each file is in the program is the same graph, with nothing to install.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSync } from 'oxc-parser'
import { describe, expect, it } from 'vitest'
import { deadExports } from './support/dead-exports.ts'

const root = join(import.meta.dirname, '..')

/**
 * Top to bottom: a directory of `src/` may import its own layer's and lower layers' directories,
 * never a higher one. The bottom layer's directories import nothing of ours but themselves.
 */
const LAYERS: string[][] = [
  ['cli', 'index.ts'],
  ['runtimes'],
  ['core'],
  ['console', 'upstream'],
  ['store'],
  // offload/: where answers are computed off the answering thread (the Web Worker, Node's render
  // pool, which draws pictures and computes heavy JSON answers by running the endpoints).
  ['offload'],
  ['endpoints'],
  // jobs/: what a renderer is and what is posted to it, under the endpoints that use one.
  ['jobs'],
  ['map'],
  ['data'],
  ['rasterizer', 'contract', 'text', 'validate', 'vendor'],
]
const BOTTOM = new Set(LAYERS.at(-1))

/** `[importer, imported]` for every import between two files of `src/` (tests left out). */
function importGraph(): Array<[string, string]> {
  const explained = execFileSync(
    join(root, 'node_modules/.bin/tsc'),
    ['-p', 'tsconfig.build.json', '--noEmit', '--explainFiles'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  const edges: Array<[string, string]> = []
  let file: string | undefined
  for (const line of explained.split('\n')) {
    if (!line.startsWith(' ')) {
      file = line.startsWith('src/') ? line.trim() : undefined
      continue
    }
    const importer = /Imported via .* from file '(src\/[^']+)'/.exec(line)?.[1]
    if (file && importer) edges.push([importer, file])
  }
  return edges
}

const area = (file: string) => file.slice('src/'.length).split('/')[0]!
const layerOf = (file: string) => LAYERS.findIndex((layer) => layer.includes(area(file)))

/** Strongly connected components of more than one file (Tarjan), each a cycle of imports. */
function cycles(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>()
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || next.get(v)?.includes(v)) found.push(component.sort())
    }
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return found
}

describe('the import graph of src/', () => {
  const edges = importGraph()

  it('is read whole (the compiler explained the program)', () => {
    expect(edges.length).toBeGreaterThan(300)
    expect(edges).toContainEqual(['src/core/create-core.ts', 'src/core/handle-request.ts'])
  })

  it('has no import cycle', () => {
    expect(cycles(edges)).toEqual([])
  })

  it('has no cycle between its folders, on one layer or not', () => {
    const folders = new Map<string, [string, string]>()
    for (const [from, to] of edges)
      if (area(from) !== area(to)) folders.set(`${area(from)}>${area(to)}`, [area(from), area(to)])
    expect(cycles([...folders.values()])).toEqual([])
  })

  it('every directory of src/ has its layer', () => {
    const unplaced = [...new Set(edges.flat().map(area))].filter((a) => !LAYERS.flat().includes(a))
    expect(unplaced).toEqual([])
  })

  it('never imports upwards: map/ never imports endpoints/, core/ never a runtime', () => {
    const upwards = edges
      .filter(([from, to]) => layerOf(to) < layerOf(from))
      .map(([from, to]) => `${from} -> ${to}`)
    expect(upwards).toEqual([])
  })

  it('contract/, render/, text/ and vendor/ import nothing of ours', () => {
    const outward = edges
      .filter(([from, to]) => BOTTOM.has(area(from)) && area(to) !== area(from))
      .map(([from, to]) => `${from} -> ${to}`)
    expect(outward).toEqual([])
  })
})

/** The longest a function of the core or a runtime may be: each reads in a screen or two. */
const MAX_FUNCTION_LINES = 100
/** The longest any function of `src/` may be, generated files aside. */
const MAX_SRC_FUNCTION_LINES = 120
/** Files a generator writes (their first line says so): not held to the limit. */
const GENERATED = /^\/\/ Generated from /

/** Every function of the folders' files longer than `max` lines, as `file:line name (n lines)`. */
function longFunctions(dirs: readonly string[], max: number): string[] {
  const files = dirs
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'))
        .map((file) => join(dir, file)),
    )
    .filter((file) => !GENERATED.test(readFileSync(join(root, file), 'utf8')))
  const long: string[] = []
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    const lineAt = (offset: number) => text.slice(0, offset).split('\n').length
    const visit = (node: unknown, name: string): void => {
      if (node === null || typeof node !== 'object') return
      if (Array.isArray(node)) {
        for (const child of node) visit(child, name)
        return
      }
      const n = node as {
        type?: string
        start: number
        end: number
        id?: { name?: string }
        key?: { name?: string }
      }
      const named =
        n.type === 'VariableDeclarator' || n.type === 'Property' || n.type === 'MethodDefinition'
          ? ((n.id ?? n.key)?.name ?? name)
          : name
      if (
        n.type === 'FunctionDeclaration' ||
        n.type === 'FunctionExpression' ||
        n.type === 'ArrowFunctionExpression'
      ) {
        const lines = lineAt(n.end) - lineAt(n.start) + 1
        if (lines > max) long.push(`${file}:${lineAt(n.start)} ${n.id?.name ?? named} (${lines} lines)`)
      }
      for (const [key, child] of Object.entries(node)) if (key !== 'parent') visit(child, named)
    }
    visit(parseSync(file, text).program, '')
  }
  return long
}

describe('the functions', () => {
  it(`of the core and the runtimes: none longer than ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(['src/core', 'src/runtimes'], MAX_FUNCTION_LINES)).toEqual([])
  })
  it(`of all src/ (generated files aside): none longer than ${MAX_SRC_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(['src'], MAX_SRC_FUNCTION_LINES)).toEqual([])
  })
})

/** The widest a comment line may be, as wide as the code (Biome's `lineWidth`), in characters. */
const MAX_COMMENT_COLUMNS = 110

describe('the comments', () => {
  it(`are at most ${MAX_COMMENT_COLUMNS} columns wide, everywhere (generated files and biome-ignore lines aside)`, () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file !== '')
    const wide: string[] = []
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8')
      if (GENERATED.test(text)) continue
      text.split('\n').forEach((line, i) => {
        const comment = /^\s*(\/\/|\*|\/\*\*)/.test(line) && !line.includes('biome-ignore')
        if (comment && [...line].length > MAX_COMMENT_COLUMNS) wide.push(`${file}:${i + 1}`)
      })
    }
    expect(wide).toEqual([])
  })
})

describe('the exports of src/', () => {
  it('are each imported by another file or exposed by an entry of the package: no dead export', () => {
    expect(deadExports(root)).toEqual([])
  })
})
