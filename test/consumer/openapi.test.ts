import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject, filesOf, root } from '../support/packed.ts'

/**
 * The contract as data, from the packed tarball: `tmaps-mock/openapi.json` resolves and is valid
 * OpenAPI 3.1, the contract's types type-check in a strict project (and a wrong field does not),
 * and the README's typed client (openapi-fetch with `paths`, the docs' 429 retry) runs against
 * setupTmapsNode.
 */
let project: ConsumerProject
beforeAll(async () => {
  project = await consumerProject('openapi', {
    files: {
      ...filesOf(join(import.meta.dirname, 'openapi-client')),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2023',
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          verbatimModuleSyntax: true,
          erasableSyntaxOnly: true,
          resolveJsonModule: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          lib: ['es2023', 'dom'],
        },
        files: ['client.ts', 'document.ts', 'types.ts'],
      }),
    },
  })
}, 400_000)
afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

describe('the contract as data, from the packed tarball', () => {
  it('type-checks the client, the document and the types in a strict project; a wrong field fails', () => {
    project.run(join(root, 'node_modules/.bin/tsc'), ['-p', '.', '--pretty', 'false'])
  })

  it('resolves tmaps-mock/openapi.json, valid OpenAPI 3.1 with the nine operations (ten with both direction forms)', () => {
    expect(JSON.parse(project.run('node', ['document.ts']).trim())).toEqual({
      path: true,
      valid: true,
      version: '3.1',
      operations: 10,
    })
  })

  it('runs the README client: a 429 retried, 200 Sfax, a typed matrix, a typed 401 body', () => {
    const lines = project.run('node', ['client.ts'], { timeout: 60_000 }).trim().split('\n')
    expect(lines).toEqual(['200 Sfax', 'true', '401 missing api_key'])
  })

  it('ships the same document as the repository', () => {
    const shipped = readFileSync(
      join(project.dir, 'node_modules/tmaps-mock/openapi/tmaps.openapi.json'),
      'utf8',
    )
    expect(shipped).toBe(readFileSync(join(root, 'openapi/tmaps.openapi.json'), 'utf8'))
  })
})
