import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { root } from './packed.ts'

/** The OpenAPI document as shipped (`tmaps-mock/openapi.json`). */
export const OPENAPI = JSON.parse(readFileSync(join(root, 'openapi/tmaps.openapi.json'), 'utf8')) as {
  servers: Array<{ url: string }>
  paths: Record<string, Record<string, Operation> & { servers?: Array<{ url: string }> }>
  components: {
    schemas: Record<string, unknown>
    responses: Record<string, ResponseObject>
    headers: Record<string, unknown>
  }
}
interface ResponseObject {
  $ref?: string
  headers?: Record<string, unknown>
  content?: Record<string, { schema: unknown }>
}
interface Operation {
  operationId: string
  parameters: Array<{ $ref?: string; name?: string; in?: string; required?: boolean }>
  requestBody?: unknown
  responses: Record<string, ResponseObject>
}

const METHODS = ['get', 'post'] as const

/**
 * Ajv (draft 2020-12, strict) over the document's schemas: `#/components/schemas/X` is compiled
 * as `tmaps#/$defs/X`; `x-tmaps-source` is a known annotation.
 */
function compileSchemas() {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true })
  ajv.addKeyword({ keyword: 'x-tmaps-source', schemaType: 'string' })
  const text = JSON.stringify(OPENAPI.components.schemas).replaceAll('#/components/schemas/', 'tmaps#/$defs/')
  ajv.addSchema({ $id: 'tmaps', $defs: JSON.parse(text) })
  const cache = new Map<string, ValidateFunction>()
  return (ref: string): ValidateFunction => {
    const id = ref.replace('#/components/schemas/', 'tmaps#/$defs/')
    let validate = cache.get(id)
    if (!validate) {
      validate = ajv.getSchema(id)
      if (!validate) throw new Error(`Failed to compile ${ref}: no such schema in the document.`)
      cache.set(id, validate)
    }
    return validate
  }
}

/** An operation of the document for a request, by host, method and path (`/r-tile/6/33/25`). */
export function operationFor(url: URL, method: string): Operation | undefined {
  const verb = method.toLowerCase() as (typeof METHODS)[number]
  for (const [template, item] of Object.entries(OPENAPI.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    if (!pattern.test(url.pathname)) continue
    const tiles = item.servers?.[0]?.url.includes('tiles') ?? false
    // The local server serves both hosts on one origin: a path decides (the mock routes it so).
    if ((url.hostname === 'api.tmaps.tn' && tiles) || (url.hostname === 'tiles.tmaps.tn' && !tiles)) continue
    return item[verb]
  }
  return undefined
}

const resolve = (response: ResponseObject): ResponseObject =>
  response.$ref ? OPENAPI.components.responses[response.$ref.split('/').pop()!]! : response

/**
 * Checks answers against the document: the status is one the operation declares (an unknown path's
 * 404 too), the `Content-Type` is the one declared, a JSON body validates against its status's
 * schema, a PNG starts with the PNG signature, `Retry-After` is there where declared. Counts every
 * answer checked, by status, and keeps each failure.
 */
export function createAnswerChecker() {
  const schema = compileSchemas()
  const counts = new Map<string, number>()
  const failures: string[] = []
  const errorBody = () => schema('#/components/schemas/TmapsErrorBody')

  async function check(url: string | URL, method: string, response: Response): Promise<string[]> {
    if (method === 'OPTIONS' || response.type === 'error') {
      // A CORS preflight is the platform's, not an operation of the document; a reset has no answer.
      const bucket = method === 'OPTIONS' ? 'preflight' : 'network reset'
      counts.set(bucket, (counts.get(bucket) ?? 0) + 1)
      return []
    }
    const where = `${method} ${url} -> ${response.status}`
    const problems: string[] = []
    const parsed = new URL(url)
    const operation = operationFor(parsed, method)
    let declared: ResponseObject | undefined
    if (operation) declared = operation.responses[String(response.status)]
    // An unknown path answers as any path does: the contract's 401 and 403 first, then 404.
    else if (response.status >= 400) declared = resolve({ $ref: '#/components/responses/NotFound' })
    if (!declared) problems.push(`status ${response.status} is not declared for ${method} ${parsed.pathname}`)
    else {
      const spec = resolve(declared)
      for (const header of Object.keys(spec.headers ?? {}))
        if (response.headers.get(header) === null) problems.push(`no ${header} header`)
      const type = response.headers.get('content-type')?.split(';')[0] ?? null
      const media = Object.keys(spec.content ?? {})
      const bytes = new Uint8Array(await response.clone().arrayBuffer())
      if (media.length === 0) {
        if (bytes.byteLength !== 0)
          problems.push(`a ${response.status} has no body, got ${bytes.byteLength} bytes`)
      } else if (type === null || !media.includes(type)) {
        problems.push(`Content-Type ${type}, the document says ${media.join(' or ')}`)
      } else if (type === 'image/png') {
        const signature = [137, 80, 78, 71, 13, 10, 26, 10]
        if (!signature.every((b, i) => bytes[i] === b)) problems.push('not a PNG')
      } else {
        const ref = (spec.content![type]!.schema as { $ref?: string }).$ref
        const validate = ref ? schema(ref) : errorBody()
        let body: unknown
        try {
          body = JSON.parse(new TextDecoder().decode(bytes))
        } catch {
          problems.push('the body is not JSON')
        }
        if (problems.length === 0 && !validate(body))
          problems.push(
            ...(validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`),
          )
      }
    }
    const bucket = `${operation?.operationId ?? 'unknown path'} ${response.status}`
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1)
    if (problems.length > 0) failures.push(`${where}: ${problems.join('; ')}`)
    return problems
  }

  return {
    check,
    failures,
    /** How many answers were checked (a preflight or a reset is not an answer of the document). */
    total: () =>
      [...counts]
        .filter(([bucket]) => bucket !== 'preflight' && bucket !== 'network reset')
        .reduce((sum, [, n]) => sum + n, 0),
    /** `forwardGeocoding 200: 12, ...`, sorted. */
    summary: () =>
      [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k}: ${n}`)
        .join(', '),
  }
}
