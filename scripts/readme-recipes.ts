/**
 * Copies the recipes of the README from the consumer tests' files: after each
 * `<!-- recipe: <path> -->` line, the file's text in a fenced block. `--check` changes nothing and
 * exits 1 when a block differs (test/consumer/readme.test.ts runs the same check).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { extname, join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
// The block after a marker ends at its first closing fence, also when it is empty.
const MARKER = /^<!-- recipe: (\S+) -->\n(?:\n?```[a-z]*\n(?:[\s\S]*?\n)??```\n)?/gm

/** The README with every recipe block made from its file. */
export function withRecipes(
  readme: string,
  read = (path: string) => readFileSync(join(root, path), 'utf8'),
): string {
  return readme.replace(MARKER, (_all, path: string) => {
    const language =
      { '.ts': 'ts', '.mts': 'ts', '.tsx': 'tsx', '.js': 'js', '.sh': 'sh', '.json': 'json' }[
        extname(path)
      ] ?? ''
    return `<!-- recipe: ${path} -->\n\`\`\`${language}\n${read(path).trimEnd()}\n\`\`\`\n`
  })
}

/** The paths the README quotes. */
export function recipePaths(readme: string): string[] {
  return [...readme.matchAll(MARKER)].map((m) => m[1]!)
}

if (import.meta.main) {
  const path = join(root, 'README.md')
  const readme = readFileSync(path, 'utf8')
  const next = withRecipes(readme)
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error('README.md: a recipe differs from its file. Run: node scripts/readme-recipes.ts')
      process.exit(1)
    }
  } else {
    writeFileSync(path, next)
    console.log(`README.md: ${recipePaths(readme).length} recipes copied from their files`)
  }
}
