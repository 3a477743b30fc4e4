import type { UpstreamExchange } from '../../upstream/forward.ts'
import { packageVersion } from '../../upstream/version.ts'
import { pem } from './certificate.ts'

/**
 * The server's `upstream` option (`tmaps-mock serve --upstream`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsUpstreamOptions } from 'tmaps-mock/server'
 *
 * const upstream: TmapsUpstreamOptions = {
 *   api: 'https://api.tmaps.tn', // the defaults
 *   tiles: 'https://tiles.tmaps.tn',
 *   key: process.env.TMAPS_KEY ?? '', // the real key: from the environment, never from code
 *   record: 'tmaps.har', // optional: every exchange, keys replaced by {{api_key}}
 *   timeoutMs: 15_000,
 * }
 * assert.equal(upstream.browserHeaders, undefined) // default: Origin and Referer forwarded
 * ```
 */
export interface TmapsUpstreamOptions {
  /** The real API's origin. Default `https://api.tmaps.tn`. */
  api?: string
  /** The real tiles' origin. Default `https://tiles.tmaps.tn`. */
  tiles?: string
  /** The real key. Never printed, logged or recorded. */
  key: string
  /** A certificate authority (PEM text or file) to trust besides the system's. */
  ca?: string
  /** TMaps slower than this (ms) gets a 504 `{"error":"upstream timeout"}`. Default 15000. */
  timeoutMs?: number
  /**
   * `false`: send no `Origin`/`Referer` to TMaps, as a server-side caller. Default `true`: as the app sent
   * them.
   */
  browserHeaders?: boolean
  /** A HAR file to record every exchange to (`0600`, rewritten atomically after each). */
  record?: string
}

/** The upstream source and its recorder, checked before anything listens. */
export async function startUpstream(
  options: TmapsUpstreamOptions,
  keyName: (id: string | null) => string | null,
) {
  const fail = (why: string): never => {
    throw new TypeError(`Failed to start the TMaps server: upstream ${why}.`)
  }
  const origin = (name: string, value: string) => {
    if (!URL.canParse(value)) fail(`${name} ${JSON.stringify(value)} is not a URL; write it as https://host`)
    const url = new URL(value)
    if (url.protocol !== 'https:')
      fail(`${name} must be https:// (TMaps refuses plain HTTP), got ${url.protocol}`)
    return url.origin
  }
  if (typeof options.key !== 'string' || options.key.trim() === '')
    fail('key is empty: give the real key (from an environment variable, e.g. --upstream-key-env TMAPS_KEY)')
  const api = origin('api', options.api ?? 'https://api.tmaps.tn')
  const tiles = origin('tiles', options.tiles ?? 'https://tiles.tmaps.tn')
  const ca = options.ca === undefined ? undefined : pem(options.ca, 'upstream CA')
  const { createHarRecorder } = await import('../../upstream/recorder.ts')
  const { createUpstream } = await import('../../upstream/forward.ts')
  let recorder: ReturnType<typeof createHarRecorder> | undefined
  if (options.record !== undefined) {
    const check = await specCheck()
    try {
      recorder = createHarRecorder({
        path: options.record,
        mockVersion: packageVersion(),
        secrets: () => [options.key],
        keyName,
        check,
      })
    } catch (error) {
      fail(`cannot write the recording ${options.record} (${(error as Error).message})`)
    }
  }
  const source = createUpstream({
    api,
    tiles,
    key: options.key,
    ...(ca !== undefined && { ca }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.browserHeaders !== undefined && { browserHeaders: options.browserHeaders }),
    ...(recorder && { onExchange: (exchange) => recorder.add(exchange) }),
  })
  return { source, recorder }
}

/** What a recording checks each exchange with: the request and the answer against `openapi.json`. */
async function specCheck() {
  const { createValidator, exchangeAgainstSpec, readOpenApi } = await import('../../upstream/spec-check.ts')
  const doc = readOpenApi()
  const validate = await createValidator(doc)
  return (exchange: UpstreamExchange) =>
    exchangeAgainstSpec(doc, validate, {
      method: exchange.method,
      url: new URL(exchange.url),
      body: exchange.body,
      answer: {
        status: exchange.status,
        contentType: exchange.headers['content-type'] ?? null,
        headers: exchange.headers,
        bytes: exchange.bytes ?? new Uint8Array(),
      },
    })
}
