/**
 * What `verify` compares TMaps's answers with, live or offline: the spec (`openapi.json`, checked
 * by Ajv) and the mock (a core of its own, with one local key), and the headers a probe is sent with.
 */
import { createTmapsCore, type TmapsMockCore } from '../../core/create-core.ts'
import type { Seen } from '../../upstream/spec-check.ts'
import { FOREIGN_ORIGIN, type Probe } from './probes.ts'

/** The mock's own key in `verify`: never a real one. */
const LOCAL_KEY = `ak_${'7e51'.repeat(8)}`

/** The mock `verify` asks: an empty console but one local key, linked to `domains`. */
export function localMock(domains: string[]): TmapsMockCore {
  return createTmapsCore({
    state: 'empty',
    seed: 'verify',
    keys: [{ value: LOCAL_KEY, name: 'verify', domains }],
  })
}

/** A probe's headers: what it accepts, its body's type, its `Origin` (the app's or a foreign one). */
export function headersOf(probe: Probe, origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: probe.picture ? 'image/png' : 'application/json' }
  if (probe.method === 'POST') headers['content-type'] = 'application/json'
  if (probe.origin === 'app' && origin !== undefined) headers.origin = origin
  if (probe.origin === 'foreign') headers.origin = FOREIGN_ORIGIN
  return headers
}

/** A path with `api_key` appended (none for `undefined`). */
export function withKey(path: string, key: string | undefined): string {
  if (key === undefined) return path
  return `${path}${path.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`
}

/** A probe's body as sent: JSON, or a text as it is (a recorded body that is not JSON). */
export function bodyText(probe: Probe): string | undefined {
  if (probe.body === undefined) return undefined
  return typeof probe.body === 'string' ? probe.body : JSON.stringify(probe.body)
}

/** The mock's answer to the same request (its own local key, linked to the same origin). */
export async function askMock(
  mock: TmapsMockCore,
  probe: Probe,
  headers: Record<string, string>,
): Promise<Seen> {
  const base = probe.host === 'tiles' ? mock.options.tilesUrl : mock.options.baseUrl
  const url = `${base}${withKey(probe.path, probe.key === 'real' ? LOCAL_KEY : undefined)}`
  const answer = await mock.answer({
    method: probe.method,
    url,
    headers: new Headers(headers),
    text: () => Promise.resolve(bodyText(probe) ?? ''),
  })
  const lower: Record<string, string> = {}
  for (const [name, value] of Object.entries(answer.headers)) lower[name.toLowerCase()] = value
  return {
    status: answer.status,
    contentType: lower['content-type'] ?? null,
    headers: lower,
    bytes: answer.body ?? new Uint8Array(),
  }
}
