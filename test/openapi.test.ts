import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { generateOpenApiTypes, OPENAPI_DOCUMENT, OPENAPI_TYPES } from '../scripts/build-openapi-types.ts'
import { QUERY_PARAMS } from '../src/endpoints/query-params.ts'
import { ENDPOINTS } from '../src/endpoints/registry.ts'
import { createAnswerChecker, OPENAPI } from './support/openapi.ts'
import { root } from './support/packed.ts'

/** Every value of every `x-tmaps-source` in the document, with where it stands. */
function sources(node: unknown, path = '#'): Array<{ path: string; value: unknown }> {
  if (node === null || typeof node !== 'object') return []
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'x-tmaps-source' ? [{ path, value }] : sources(value, `${path}/${key}`),
  )
}

const operations = Object.entries(OPENAPI.paths).flatMap(([path, item]) =>
  (['get', 'post'] as const).flatMap((method) => (item[method] ? [{ path, method, op: item[method]! }] : [])),
)

describe('the OpenAPI document (openapi/tmaps.openapi.json)', () => {
  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator, the official JSON schema)', async () => {
    const validator = new Validator()
    const result = await validator.validate(join(root, OPENAPI_DOCUMENT))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('compiles every schema with Ajv (draft 2020-12, strict)', () => {
    const checker = createAnswerChecker()
    expect(checker.total()).toBe(0)
  })

  it('declares exactly the operations of the endpoint registry, on their hosts', () => {
    const documented = operations
      .map(({ path, method }) => {
        const host = OPENAPI.paths[path]!.servers?.[0]?.url ?? OPENAPI.servers[0]!.url
        return `${method.toUpperCase()} ${host}${path.replace(/\{(\w+)\}/g, ':$1')}`
      })
      .sort()
    const registered = ENDPOINTS.map(
      (e) => `${e.method} https://${e.host === 'api' ? 'api' : 'tiles'}.tmaps.tn${e.path}`,
    ).sort()
    expect(documented).toEqual(registered)
  })

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.op]))(
    '%s takes api_key as a required query parameter and declares the error bodies',
    (_, op) => {
      expect(op.parameters[0]).toEqual({ $ref: '#/components/parameters/ApiKey' })
      for (const status of ['400', '401', '403', '404', '429', '500', '503'])
        expect(op.responses[status], `no ${status}`).toBeDefined()
      expect(op.responses['413'] !== undefined).toBe(op.requestBody !== undefined)
    },
  )

  it('declares exactly the query parameters the mock reads (QUERY_PARAMS, which the log warns by)', () => {
    const declared = Object.fromEntries(
      operations.map(({ path, method, op }) => [
        `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        op.parameters
          .map((p) =>
            p.$ref
              ? (
                  OPENAPI as unknown as {
                    components: { parameters: Record<string, { name: string; in: string }> }
                  }
                ).components.parameters[p.$ref.split('/').pop()!]!
              : (p as { name: string; in: string }),
          )
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
      ]),
    )
    const read = Object.fromEntries(
      Object.entries(QUERY_PARAMS).map(([op, names]) => [op, [...names].sort()]),
    )
    expect(read).toEqual(declared)
  })

  it('says Retry-After on 429 and 503, and image/png for tiles and static maps', () => {
    for (const name of ['TooManyRequests', 'ServiceUnavailable'])
      expect(Object.keys(OPENAPI.components.responses[name]!.headers ?? {})).toEqual(['Retry-After'])
    expect(OPENAPI.components.responses.Png!.content).toHaveProperty(['image/png'])
    expect(OPENAPI.paths['/maps/static']!.get!.responses['200']).toEqual({
      $ref: '#/components/responses/Png',
    })
    expect(OPENAPI.paths['/r-tile/{z}/{x}/{y}']!.get!.responses['200']).toEqual({
      $ref: '#/components/responses/Png',
    })
  })

  it('marks what the docs state and what the mock chose, on every operation and schema', () => {
    const marks = sources(OPENAPI)
    expect(marks.filter((m) => m.value !== 'docs' && m.value !== 'mock')).toEqual([])
    for (const { op } of operations) expect(op).toHaveProperty('x-tmaps-source')
    for (const [name, schema] of Object.entries(OPENAPI.components.schemas))
      expect(schema, name).toHaveProperty('x-tmaps-source')
    const mock = marks.filter((m) => m.value === 'mock').length
    console.log(`x-tmaps-source: ${marks.length - mock} docs, ${mock} mock`)
  })

  it('types a bbox as an array of 4 (not a prefixItems tuple, which openapi-fetch loses)', () => {
    expect(JSON.stringify(OPENAPI)).not.toContain('prefixItems')
    expect(OPENAPI.components.schemas.Bbox).toMatchObject({ type: 'array', minItems: 4, maxItems: 4 })
  })

  it(`has its types in ${OPENAPI_TYPES} as openapi-typescript makes them now`, () => {
    const committed = readFileSync(join(root, OPENAPI_TYPES), 'utf8')
    expect(
      generateOpenApiTypes() === committed,
      `${OPENAPI_TYPES} is not what ${OPENAPI_DOCUMENT} gives: run npm run build:openapi and commit both`,
    ).toBe(true)
  }, 60_000)
})
