import { readFileSync } from 'node:fs'
import { createUpstream, type UpstreamExchange } from './forward.ts'
import { createHarRecorder } from './recorder.ts'
import { packageVersion } from './version.ts'

/**
 * The real TMaps that accepted requests are forwarded to, with the real key in place of the local one.
 *
 * `setupTmapsNode`'s `upstream`, the Playwright fixtures', `tmapsRecorder()`'s; `serve --upstream`'s
 * adds `record`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsUpstream } from 'tmaps-mock/node'
 *
 * const upstream: TmapsUpstream = {
 *   key: process.env.TMAPS_KEY, // the real key: from the environment, never from code
 *   api: 'https://api.tmaps.tn', // the defaults
 *   tiles: 'https://tiles.tmaps.tn',
 *   timeoutMs: 15_000,
 * }
 * assert.equal(upstream.browserHeaders, undefined) // default: Origin and Referer forwarded
 * ```
 */
export interface TmapsUpstream {
  /** The real API's origin. Default `https://api.tmaps.tn`. */
  api?: string
  /** The real tiles' origin. Default `https://tiles.tmaps.tn`. */
  tiles?: string
  /**
   * The real key. Never printed, logged or recorded. From tests it may be missing (CI without the
   * secret): nothing is forwarded then, and a recording is replayed.
   */
  key: string | undefined
  /** A certificate authority (PEM text or file) to trust besides the system's. */
  ca?: string
  /** TMaps slower than this (ms) gets a 504 `{"error":"upstream timeout"}`. Default 15000. */
  timeoutMs?: number
  /**
   * `false`: send no `Origin`/`Referer` to TMaps, as a server-side caller. Default `true`: as the app sent
   * them.
   */
  browserHeaders?: boolean
}

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
export interface TmapsUpstreamOptions extends TmapsUpstream {
  /** The real key. Never printed, logged or recorded. */
  key: string
  /** A HAR file to record every exchange to (`0600`, rewritten atomically after each). */
  record?: string
}

/**
 * An upstream's options checked (the origins https, the CA read), for `who` ("start the TMaps
 * server", "set up setupTmapsNode") to name in a thrown error that says how to fix them.
 */
export function checkUpstream(options: TmapsUpstream, who: string) {
  const fail = (why: string): never => {
    throw new TypeError(`Failed to ${who}: upstream ${why}.`)
  }
  const origin = (name: string, value: string) => {
    if (!URL.canParse(value)) fail(`${name} ${JSON.stringify(value)} is not a URL; write it as https://host`)
    const url = new URL(value)
    if (url.protocol !== 'https:')
      fail(`${name} must be https:// (TMaps refuses plain HTTP), got ${url.protocol}`)
    return url.origin
  }
  const key = options.key
  if (key !== undefined && typeof key !== 'string') fail(`key must be text (the real key), got ${typeof key}`)
  const api = origin('api', options.api ?? 'https://api.tmaps.tn')
  const tiles = origin('tiles', options.tiles ?? 'https://tiles.tmaps.tn')
  let ca: string | undefined
  if (options.ca !== undefined) {
    ca = options.ca
    if (!ca.includes('-----BEGIN'))
      try {
        ca = readFileSync(ca, 'utf8')
      } catch (error) {
        fail(`CA file ${options.ca} cannot be read (${(error as Error).message})`)
      }
  }
  return {
    api,
    tiles,
    // A secret read from a file or a variable often ends in a line break: the key is what is left.
    key: key?.trim() ? key.trim() : undefined,
    ...(ca !== undefined && { ca }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.browserHeaders !== undefined && { browserHeaders: options.browserHeaders }),
    fail,
  }
}

/** The upstream source and its recorder, checked before anything listens. */
export async function startUpstream(
  options: TmapsUpstreamOptions,
  keyName: (id: string | null) => string | null,
) {
  const { fail, key, ...target } = checkUpstream(options, 'start the TMaps server')
  if (key === undefined)
    return fail(
      'key is empty: give the real key (from an environment variable, e.g. --upstream-key-env TMAPS_KEY)',
    )
  let recorder: ReturnType<typeof createHarRecorder> | undefined
  if (options.record !== undefined) {
    const check = await specCheck()
    try {
      recorder = createHarRecorder({
        path: options.record,
        mockVersion: packageVersion(),
        secrets: () => [key],
        keyName,
        check,
      })
    } catch (error) {
      fail(`cannot write the recording ${options.record} (${(error as Error).message})`)
    }
  }
  const source = createUpstream({
    ...target,
    key,
    ...(recorder && { onExchange: (exchange) => recorder.add(exchange).findings }),
  })
  return { source, recorder }
}

/** What a recording checks each exchange with: the request and the answer against `openapi.json`. */
export async function specCheck() {
  const { createValidator, exchangeAgainstSpec, readOpenApi } = await import('./spec-check.ts')
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
