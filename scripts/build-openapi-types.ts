/**
 * Writes `src/contract/openapi-types.ts`: the TypeScript types of `openapi/tmaps.openapi.json`, made
 * by openapi-typescript 7 (`--default-non-nullable=false`, so a body field with a default stays
 * optional). openapi-typescript needs TypeScript 5's compiler API, which TypeScript 7 has not: it
 * lives with its own TypeScript in the tools package `openapi/typegen`. `test/openapi.test.ts`
 * regenerates the types and compares them with the committed file. Run with
 * `npm run build:openapi` after a change to the document.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
export const OPENAPI_DOCUMENT = 'openapi/tmaps.openapi.json'
export const OPENAPI_TYPES = 'src/contract/openapi-types.ts'
const CLI = 'openapi/typegen/node_modules/openapi-typescript/bin/cli.js'

const HEADER = `// Generated from ${OPENAPI_DOCUMENT} by scripts/build-openapi-types.ts (openapi-typescript 7,
// --default-non-nullable=false): do not edit; change the document and run npm run build:openapi.
`

/** The types file's text, as openapi-typescript makes it from the document now. */
export function generateOpenApiTypes(): string {
  const output = execFileSync(
    process.execPath,
    [join(root, CLI), join(root, OPENAPI_DOCUMENT), '--default-non-nullable=false'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
  )
  return `${HEADER}${output}`
}

if (import.meta.main) {
  const text = generateOpenApiTypes()
  writeFileSync(join(root, OPENAPI_TYPES), text)
  console.log(`wrote ${OPENAPI_TYPES} (${text.split('\n').length} lines)`)
}
