/**
 * Copies the recipes of the README and of `docs/` from the consumer tests' files: after each
 * `<!-- recipe: <path> -->` line, the file's text in a fenced block. `--check` changes nothing and
 * exits 1 when a block differs (test/consumer/readme.test.ts runs the same check).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { extname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
// The block after a marker ends at its first closing fence, also when it is empty.
const MARKER = /^<!-- recipe: (\S+) -->\n(?:\n?```[a-z]*\n(?:[\s\S]*?\n)??```\n)?/gm

/**
 * The Markdown files that may quote recipes: the README and every page under `docs/`, as paths from the root.
 */
export function documentPaths(): string[] {
  const pages: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.md')) pages.push(relative(root, path))
    }
  }
  walk(join(root, 'docs'))
  return ['README.md', ...pages]
}

/** The text with every recipe block made from its file (paths from the repository's root). */
export function withRecipes(
  text: string,
  read = (path: string) => readFileSync(join(root, path), 'utf8'),
): string {
  return text.replace(MARKER, (_all, path: string) => {
    const language =
      { '.ts': 'ts', '.mts': 'ts', '.tsx': 'tsx', '.js': 'js', '.sh': 'sh', '.json': 'json' }[
        extname(path)
      ] ?? ''
    return `<!-- recipe: ${path} -->\n\`\`\`${language}\n${read(path).trimEnd()}\n\`\`\`\n`
  })
}

/** The paths a text quotes. */
export function recipePaths(text: string): string[] {
  return [...text.matchAll(MARKER)].map((m) => m[1]!)
}

if (import.meta.main) {
  let stale = 0
  let copied = 0
  for (const page of documentPaths()) {
    const path = join(root, page)
    const text = readFileSync(path, 'utf8')
    const next = withRecipes(text)
    copied += recipePaths(text).length
    if (next === text) continue
    if (process.argv.includes('--check')) {
      console.error(`${page}: a recipe differs from its file. Run: node scripts/readme-recipes.ts`)
      stale++
    } else writeFileSync(path, next)
  }
  if (stale) process.exit(1)
  console.log(`${copied} recipes copied from their files`)
}
