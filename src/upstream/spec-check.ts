/**
 * TMaps's answers and requests against the spec (`openapi.json`, its schemas checked by Ajv):
 * what `tmaps-mock verify` reports, and what `serve --record` notes on an entry it records.
 */
import { readFileSync } from 'node:fs'
import { must } from '../validate/must.ts'

/** One difference, as the report lists it. */
export interface Finding {
  severity: 'error' | 'warning' | 'info'
  /** `status`, `headers.content-type`, a field path (`results[].components.postcode`), `body`. */
  path: string
  real?: unknown
  mock?: unknown
  message: string
}

/** One side's answer, as read off the wire. */
export interface Seen {
  status: number
  contentType: string | null
  headers: Record<string, string>
  bytes: Uint8Array
}

/** The OpenAPI document, as far as the checks read it. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, Schema>
    responses: Record<string, ResponseObject>
    parameters?: Record<string, Parameter>
  }
}
interface Operation {
  responses: Record<string, ResponseObject>
  parameters?: Array<Parameter | { $ref: string }>
  requestBody?: { content?: Record<string, { schema?: Schema }> }
}
interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: Schema
}
interface ResponseObject {
  $ref?: string
  content?: Record<string, { schema?: Schema }>
}
export type Schema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  additionalProperties?: boolean | Schema
  oneOf?: Schema[]
  anyOf?: Schema[]
  allOf?: Schema[]
  required?: string[]
}

/** What the spec says of one operation's answer at one status. */
interface Expected {
  contentType: string | undefined
  schema: Schema | undefined
}

/** The name a `$ref` ends with: `#/components/schemas/Place` → `Place`. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)

/** The operation of a method and path (`/r-tile/9/273/201` meets `/r-tile/{z}/{x}/{y}`), or undefined. */
function operationOf(doc: OpenApiDocument, method: string, pathname: string): Operation | null | undefined {
  for (const [template, item] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    if (pattern.test(pathname)) return item[method.toLowerCase()] ?? null
  }
  return undefined
}

/** The operation's declared answer for a status (a `$ref` followed), or undefined when not declared. */
export function expectedAnswer(
  doc: OpenApiDocument,
  method: string,
  pathname: string,
  status: number,
): Expected | undefined {
  const operation = operationOf(doc, method, pathname)
  if (operation !== undefined) {
    let response = operation?.responses[String(status)] ?? operation?.responses.default
    if (response === undefined) return undefined
    if (response.$ref)
      response = must(
        doc.components.responses[refName(response.$ref)],
        `openapi.json has no ${response.$ref}`,
      )
    const [contentType, media] = Object.entries(response.content ?? {})[0] ?? []
    return { contentType, schema: media?.schema }
  }
  return undefined
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** A PNG's width and height, or undefined when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

export const mediaType = (value: string | null) => ((value ?? '').split(';')[0] ?? '').trim().toLowerCase()
const decoder = new TextDecoder()
export function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) }
  } catch {
    return { ok: false }
  }
}

/** A JSON-Schema validator for one schema: its errors (`instancePath`, `keyword`, `message`). */
export type Validate = (
  schema: Schema,
  value: unknown,
) => Array<{ instancePath: string; keyword: string; message: string; params: Record<string, unknown> }>

/** What the spec check is told of a request: its method, its path, and the picture size it asked. */
export interface SpecProbe {
  method: string
  pathname: string
  picture?: { width: number; height: number }
}

/** Adds one finding. */
export type AddFinding = (
  severity: Finding['severity'],
  path: string,
  message: string,
  realValue?: unknown,
  mockValue?: unknown,
) => void

/** `(the body)` for the root, else the path. */
export const label = (path: string) => (path === '' ? '(the body)' : path)

/**
 * One side's answer (TMaps's or the mock's) against the spec: its status is one the operation
 * declares, a PNG has the signature (and the size asked), JSON parses and meets its schema (an
 * extra field aside: `verify`'s shape comparison reports it).
 */
export function answerAgainstSpec(
  add: AddFinding,
  doc: OpenApiDocument,
  validate: Validate,
  probe: SpecProbe,
  side: 'TMaps' | 'the mock',
  seen: Seen,
): void {
  const expected = expectedAnswer(doc, probe.method, probe.pathname, seen.status)
  if (expected === undefined) {
    add(
      'error',
      'status',
      `${side}'s status ${seen.status} is not one the spec declares for ${probe.method} ${probe.pathname}.`,
    )
    return
  }
  if (expected.contentType === 'image/png') {
    const size = pngSize(seen.bytes)
    if (size === undefined) add('error', 'body', `${side}'s answer is not a PNG (no PNG signature).`)
    else if (probe.picture && (size.width !== probe.picture.width || size.height !== probe.picture.height))
      add(
        'error',
        'body',
        `${side}'s PNG is ${size.width} x ${size.height}, not ${probe.picture.width} x ${probe.picture.height}.`,
      )
    return
  }
  if (expected.contentType === undefined || seen.bytes.length === 0) return
  const parsed = parseJson(seen.bytes)
  if (!parsed.ok) {
    add('error', 'body', `${side}'s answer is not JSON though the spec says ${expected.contentType}.`)
    return
  }
  if (expected.schema === undefined) return
  for (const problem of validate(expected.schema, parsed.value)) {
    if (problem.keyword === 'additionalProperties') continue // an extra field: the shape comparison says it
    const at = problem.instancePath.replace(/^\//, '').replace(/\/\d+/g, '[]').replaceAll('/', '.')
    if (problem.keyword === 'required') {
      const field = `${at === '' ? '' : `${at}.`}${String(problem.params.missingProperty)}`
      add('error', field, `${side}'s answer lacks ${field}, which the spec requires.`)
    } else add('error', label(at), `${side}'s answer breaks the spec at ${label(at)}: ${problem.message}.`)
  }
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * A request against the spec: its query parameters (each a number where the spec says so, within
 * its bounds and enums; the required ones present; `api_key` aside) and its JSON body (its
 * schema: a `lat` sent as a string is an error). Path parameters are the router's.
 * @example
 * const url = new URL('https://api.tmaps.tn/geocoding/reverse?lat=north&lng=10')
 * requestAgainstSpec(add, doc, validate, 'GET', url, undefined) // adds an error at query.lat
 */
export function requestAgainstSpec(
  add: AddFinding,
  doc: OpenApiDocument,
  validate: Validate,
  method: string,
  url: URL,
  body: string | undefined,
): void {
  const operation = operationOf(doc, method, url.pathname)
  if (!operation) {
    add('error', 'request', `${method} ${url.pathname} is not an operation of the spec.`)
    return
  }
  for (const listed of operation.parameters ?? []) {
    const parameter = '$ref' in listed ? doc.components.parameters?.[refName(listed.$ref)] : listed
    if (parameter?.in !== 'query' || parameter.name === 'api_key' || parameter.schema === undefined) continue
    const raw = url.searchParams.get(parameter.name)
    const at = `query.${parameter.name}`
    if (raw === null) {
      if (parameter.required) add('error', at, `The request lacks ${at}, which the spec requires.`)
      continue
    }
    const type = scalarType(doc, parameter.schema)
    if (type === undefined) continue // a list or a pattern the endpoint reads itself
    const numeric = type === 'number' || type === 'integer'
    if (numeric && !NUMBER.test(raw.trim())) {
      add('error', at, `The request's ${at} is ${JSON.stringify(raw)}, not a ${type}.`)
      continue
    }
    for (const problem of validate(parameter.schema, numeric ? Number(raw) : raw))
      add('error', at, `The request's ${at} (${JSON.stringify(raw)}) breaks the spec: ${problem.message}.`)
  }
  const schema = operation.requestBody?.content?.['application/json']?.schema
  if (schema === undefined || body === undefined) return
  const parsed = parseJson(new TextEncoder().encode(body))
  if (!parsed.ok) {
    add('error', 'body', 'The request body is not JSON, though the spec says application/json.')
    return
  }
  for (const problem of validate(schema, parsed.value)) {
    if (problem.keyword === 'additionalProperties') continue
    const path = problem.instancePath.replace(/^\//, '').replace(/\/\d+/g, '[]').replaceAll('/', '.')
    const at = path === '' ? 'body' : `body.${path}`
    add('error', at, `The request's ${at} breaks the spec: ${problem.message}.`)
  }
}

/** A parameter schema's scalar type (`$ref` followed), or undefined for a list or a union. */
function scalarType(doc: OpenApiDocument, schema: Schema): string | undefined {
  const resolved = schema.$ref ? doc.components.schemas[refName(schema.$ref)] : schema
  const type = resolved?.type
  return typeof type === 'string' && type !== 'array' && type !== 'object' ? type : undefined
}

/**
 * One recorded exchange against the spec: the request, then the answer. What `serve --record`
 * notes on the entry, and says in the log.
 */
export function exchangeAgainstSpec(
  doc: OpenApiDocument,
  validate: Validate,
  exchange: { method: string; url: URL; body: string | undefined; answer: Seen },
): Finding[] {
  const findings: Finding[] = []
  const add: AddFinding = (severity, path, message) => findings.push({ severity, path, message })
  const { method, url, body, answer } = exchange
  requestAgainstSpec(add, doc, validate, method, url, body)
  answerAgainstSpec(add, doc, validate, { method, pathname: url.pathname }, 'TMaps', answer)
  const seen = new Set<string>()
  return findings.filter((f) => !seen.has(f.message) && seen.add(f.message))
}

/** The shipped OpenAPI document (`tmaps-mock/openapi.json`). */
export function readOpenApi(): OpenApiDocument {
  return JSON.parse(
    readFileSync(new URL('../../openapi/tmaps.openapi.json', import.meta.url), 'utf8'),
  ) as OpenApiDocument
}

/** Ajv (draft 2020-12) over the document's schemas, loaded only when asked (verify, a recording). */
export async function createValidator(doc: OpenApiDocument): Promise<Validate> {
  const { Ajv2020 } = await import('ajv/dist/2020.js')
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const text = JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', 'tmaps#/$defs/')
  ajv.addSchema({ $id: 'tmaps', $defs: JSON.parse(text) })
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
  return (schema, value) => {
    const id = JSON.stringify(schema).replaceAll('#/components/schemas/', 'tmaps#/$defs/')
    let check = compiled.get(id)
    if (!check) {
      check = ajv.compile(JSON.parse(id))
      compiled.set(id, check)
    }
    check(value)
    return (check.errors ?? []).map((e) => ({
      instancePath: e.instancePath,
      keyword: e.keyword,
      message: e.message ?? e.keyword,
      params: e.params as Record<string, unknown>,
    }))
  }
}
