/**
 * How `verify` compares TMaps's answer with the mock's: in structure only (statuses, field paths
 * and JSON types, error bodies byte for byte, the headers that matter), never values that vary,
 * and each answer against `openapi.json`.
 */

import {
  type AddFinding,
  answerAgainstSpec,
  expectedAnswer,
  type Finding,
  label,
  mediaType,
  type OpenApiDocument,
  parseJson,
  refName,
  type Schema,
  type Seen,
  type SpecProbe,
  type Validate,
} from '../../upstream/spec-check.ts'

const decoder = new TextDecoder()

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array'

/** Every field path of a JSON value with the types seen there: `results[].components.postcode` → string. */
function shapeOf(value: unknown, path = '', into = new Map<string, Set<JsonType>>()) {
  const type: JsonType =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : (typeof value as 'string' | 'number' | 'boolean' | 'object')
  const at = into.get(path) ?? new Set<JsonType>()
  at.add(type)
  into.set(path, at)
  if (type === 'array') for (const item of value as unknown[]) shapeOf(item, `${path}[]`, into)
  else if (type === 'object')
    for (const [name, item] of Object.entries(value as Record<string, unknown>))
      shapeOf(item, path === '' ? name : `${path}.${name}`, into)
  return into
}

const shown = (types: Set<JsonType>) => [...types].sort().join(' | ')

/** True when the schema declares the field path (through `$ref`, `oneOf`/`anyOf`/`allOf`, `items`). */
function schemaHas(doc: OpenApiDocument, schema: Schema | undefined, segments: string[]): boolean {
  if (schema === undefined) return false
  if (schema.$ref) return schemaHas(doc, doc.components.schemas[refName(schema.$ref)], segments)
  if (segments.length === 0) return true
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    if (schemaHas(doc, branch, segments)) return true
  const [first, ...rest] = segments as [string, ...string[]]
  if (first === '[]') return schemaHas(doc, schema.items, rest)
  if (schema.properties?.[first]) return schemaHas(doc, schema.properties[first], rest)
  if (typeof schema.additionalProperties === 'object')
    return schemaHas(doc, schema.additionalProperties, rest)
  return false
}

/** `results[].components.postcode` → `['results', '[]', 'components', 'postcode']`. */
const segmentsOf = (path: string) =>
  path === '' ? [] : path.replace(/\[\]/g, '.[]').split('.').filter(Boolean)

/**
 * The findings for one probe: TMaps's answer (`real`) against the mock's and against the spec.
 * `picture` is the size a PNG answer must have.
 */
export function compareAnswers(
  doc: OpenApiDocument,
  validate: Validate,
  probe: Probe,
  real: Seen,
  mock: Seen,
): Finding[] {
  const findings: Finding[] = []
  const add: Add = (severity, path, message, realValue, mockValue) =>
    findings.push({
      severity,
      path,
      ...(realValue !== undefined && { real: realValue }),
      ...(mockValue !== undefined && { mock: mockValue }),
      message,
    })
  compareHeaders(add, probe, real, mock)
  answerAgainstSpec(add, doc, validate, probe, 'TMaps', real)
  answerAgainstSpec(add, doc, validate, probe, 'the mock', mock)

  // Error bodies byte for byte; successful JSON bodies in structure.
  if (real.status >= 400 && real.status === mock.status) {
    const [a, b] = [decoder.decode(real.bytes), decoder.decode(mock.bytes)]
    if (a !== b) add('error', 'body', `The error body differs: TMaps ${a}, the mock ${b}.`, a, b)
    return dedupe(findings)
  }
  const realJson = mediaType(real.contentType).includes('json')
    ? parseJson(real.bytes)
    : { ok: false as const }
  const mockJson = mediaType(mock.contentType).includes('json')
    ? parseJson(mock.bytes)
    : { ok: false as const }
  if (!realJson.ok || !mockJson.ok || real.status !== mock.status) return dedupe(findings)
  const schema = expectedAnswer(doc, probe.method, probe.pathname, real.status)?.schema
  compareShapes(add, findings, doc, schema, shapeOf(realJson.value), shapeOf(mockJson.value))
  return dedupe(findings)
}

/**
 * The findings for an answer against the spec alone (a recorded 429 or 5xx: how TMaps was that
 * moment, nothing to compare with the mock).
 */
export function checkWithSpec(doc: OpenApiDocument, validate: Validate, probe: Probe, real: Seen): Finding[] {
  const findings: Finding[] = []
  answerAgainstSpec(
    (severity, path, message) => findings.push({ severity, path, message }),
    doc,
    validate,
    probe,
    'TMaps',
    real,
  )
  return dedupe(findings)
}

/** What `compareAnswers` is told of a probe. */
interface Probe extends SpecProbe {
  origin: string | null
}

type Add = AddFinding

/** The status, the media type and (with an Origin) CORS, TMaps's against the mock's. */
function compareHeaders(add: Add, probe: Probe, real: Seen, mock: Seen): void {
  if (real.status !== mock.status)
    add(
      'error',
      'status',
      `TMaps answered ${real.status}, the mock ${mock.status}.`,
      real.status,
      mock.status,
    )
  if (mediaType(real.contentType) !== mediaType(mock.contentType))
    add(
      'warning',
      'headers.content-type',
      `Content-Type differs: TMaps ${JSON.stringify(real.contentType)}, the mock ${JSON.stringify(mock.contentType)}.`,
      real.contentType,
      mock.contentType,
    )
  if (probe.origin !== null) {
    const cors = (seen: Seen) => {
      const value = seen.headers['access-control-allow-origin']
      return value === undefined
        ? 'absent'
        : value === '*'
          ? '*'
          : value === probe.origin
            ? 'the Origin'
            : value
    }
    if (cors(real) !== cors(mock))
      add(
        'warning',
        'headers.access-control-allow-origin',
        'CORS differs: Access-Control-Allow-Origin.',
        real.headers['access-control-allow-origin'] ?? null,
        mock.headers['access-control-allow-origin'] ?? null,
      )
  }
}

/** Successful JSON bodies in structure: each field path and its types, TMaps's against the mock's. */
function compareShapes(
  add: Add,
  findings: Finding[],
  doc: OpenApiDocument,
  schema: Schema | undefined,
  realShape: Map<string, Set<JsonType>>,
  mockShape: Map<string, Set<JsonType>>,
): void {
  const coveredByMissingParent = (path: string, shape: Map<string, Set<JsonType>>) => {
    const segments = segmentsOf(path)
    for (let i = segments.length - 1; i > 0; i--) {
      const parent = segments.slice(0, i).join('.').replaceAll('.[]', '[]')
      if (!shape.has(parent)) return true
    }
    return false
  }
  /** Paths whose type differs: what is under them is not compared (one error says it). */
  const broken: string[] = []
  const under = (path: string) =>
    broken.some((b) => b === '' || path.startsWith(`${b}.`) || path.startsWith(`${b}[]`))
  for (const [path, types] of realShape) {
    if (under(path)) continue
    const other = mockShape.get(path)
    if (other === undefined) {
      if (coveredByMissingParent(path, mockShape)) continue
      if (schemaHas(doc, schema, segmentsOf(path)))
        add(
          'info',
          label(path),
          `TMaps sends ${label(path)} (${shown(types)}); the mock did not here (the spec has it).`,
          shown(types),
        )
      else
        add(
          'warning',
          label(path),
          `TMaps sends ${label(path)} (${shown(types)}); the spec and the mock lack it.`,
          shown(types),
        )
      continue
    }
    const [a, b] = [
      new Set([...types].filter((t) => t !== 'null')),
      new Set([...other].filter((t) => t !== 'null')),
    ]
    if (a.size > 0 && b.size > 0 && ![...a].some((t) => b.has(t))) {
      add(
        'error',
        label(path),
        `${label(path)} is ${shown(types)} at TMaps, ${shown(other)} in the mock.`,
        shown(types),
        shown(other),
      )
      broken.push(path)
    } else if (shown(types) !== shown(other))
      add(
        'info',
        label(path),
        `${label(path)} is ${shown(types)} at TMaps, ${shown(other)} in the mock.`,
        shown(types),
        shown(other),
      )
  }
  for (const [path, types] of mockShape) {
    if (realShape.has(path) || coveredByMissingParent(path, realShape) || under(path)) continue
    if (findings.some((f) => f.severity === 'error' && f.path === path)) continue
    add(
      'info',
      label(path),
      `The mock sends ${label(path)} (${shown(types)}); TMaps did not here.`,
      undefined,
      shown(types),
    )
  }
}

/** One finding per severity, path and message (the same spec error on many items is said once). */
function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = `${f.severity}\n${f.path}\n${f.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
