import { TmapsConsoleError } from '../console/console-error.ts'
import { type CreatedKey, createConsole, type KeyRef, type TmapsConsole } from '../console/create-console.ts'
import { createRequestLog, type RequestLog } from '../console/request-log.ts'
import { createUsage, UNATTRIBUTED, type UsageReport } from '../console/usage.ts'
import { type Decision, decide, type RequestFacts } from '../contract/decide.ts'
import { explainDecision } from '../contract/explain.ts'
import { REJECTIONS, type Rule } from '../contract/rejections.ts'
import { createKeyGenerator } from '../data/seeded.ts'
import { CONTENT_TYPES } from '../endpoints/endpoint.ts'
import { NotFoundError, ParamError } from '../endpoints/params.ts'
import { endpointName, resolveEndpoint } from '../endpoints/registry.ts'
import { createStore, type TmapsStore } from '../store/create-store.ts'
import { demoSnapshot } from './demo-state.ts'
import { type ParsedSnapshot, parseSnapshot, type TmapsSnapshot } from './snapshot.ts'

export interface TmapsMockOptions {
  /** Origin of the REST API. Default `https://api.tmaps.tn`. */
  baseUrl?: string
  /** Origin of the raster tiles. Default `https://tiles.tmaps.tn`. */
  tilesUrl?: string
  /**
   * Makes everything reproducible: generated key values and ids, and the generated data
   * (streets, POIs). Without it, new keys come from a secure random source and the data from
   * the default data seed.
   */
  seed?: string | number
  /** The initial console: `'demo'` (default), `'empty'`, or a snapshot (object or JSON text). */
  state?: 'demo' | 'empty' | TmapsSnapshot | string
  /** How many requests the log keeps. Default 500. */
  logSize?: number
  /** How many days of usage each key keeps. Default 90. */
  usageDays?: number
  /** The clock, for usage days and creation dates. Default `() => new Date()`. */
  now?: () => Date
}

/** What the initial state created, resolved by `mock.ready` and `mock.reset()`. */
export interface TmapsReadyInfo {
  /**
   * The keys the initial state created, with their full values: the one time they are shown,
   * as the real console shows a new key once. Empty for `state: 'empty'` and for snapshots.
   */
  createdKeys: CreatedKey[]
}

/** An answer as data: what `fetch` turns into a `Response`. */
export interface TmapsAnswer {
  status: number
  headers: Record<string, string>
  /** UTF-8 JSON or PNG bytes, or `null` (a preflight's 204, a 304). */
  body: Uint8Array<ArrayBuffer> | null
}

/** Overrides of what a runtime saw of a request (the browser runtime rebuilds Origin/Referer). */
export interface FetchOptions {
  facts?: Partial<RequestFacts>
  /**
   * The URL to decide on instead of `request.url` (the HTTPS server answers TMaps paths on its
   * own origin and names the TMaps host here, without copying the request).
   */
  url?: string
}

export interface TmapsMockCore {
  /** Resolves once the initial state is loaded; requests wait for it by themselves. */
  readonly ready: Promise<TmapsReadyInfo>
  readonly console: TmapsConsole
  readonly log: RequestLog
  /** Answers a request to a TMaps host exactly as TMaps would (a fetch handler). */
  fetch(request: Request, options?: FetchOptions): Promise<Response>
  /**
   * The same answer as plain data, for runtimes that build their own response object (the HTTPS
   * server hands it to its server library without an intermediate `Response`).
   */
  answer(request: Request, options?: FetchOptions): Promise<TmapsAnswer>
  /** Usage of one key (id, full value or `{ id }`), or `'unattributed'`. */
  usage(ref: KeyRef | typeof UNATTRIBUTED): UsageReport
  /**
   * Calls `listener` after every change of the console state (a console write, `reset`,
   * `restore`); not for usage counts, which change with every request (watch `log` for those).
   * Returns the function that unsubscribes.
   */
  onChange(listener: () => void): () => void
  /** Back to the initial state (keys, domains, usage; the log is cleared). */
  reset(): Promise<TmapsReadyInfo>
  /** The whole console state as JSON. */
  snapshot(): TmapsSnapshot
  /** Replaces the state with a snapshot; an invalid snapshot throws and changes nothing. */
  restore(snapshot: TmapsSnapshot | string): Promise<void>
  /** The normalized options in force. */
  readonly options: {
    baseUrl: string
    tilesUrl: string
    seed: string | number | undefined
    dataSeed: string | number
  }
}

export const DEFAULT_BASE_URL = 'https://api.tmaps.tn'
export const DEFAULT_TILES_URL = 'https://tiles.tmaps.tn'
/** The data seed when none is given: the default data is the same for everyone. */
const DEFAULT_DATA_SEED = 'tmaps'
/** The demo keys' seed when none is given: the demo console is the same for everyone. */
const DEFAULT_DEMO_SEED = 'tmaps-demo'
const CACHE_SIZE = 256
/** Tiles and static maps may be reused for an hour; a changed key or domain still applies to new requests. */
const IMAGE_CACHE_CONTROL = 'public, max-age=3600'

/** An answer's bytes with a strong ETag: a 64-bit FNV-1a hash of the bytes, in hex. */
function withEtag(bytes: Uint8Array<ArrayBuffer>): { bytes: Uint8Array<ArrayBuffer>; etag: string } {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193 ^ bytes.length
  for (let i = 0; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i]!, 0x01000193)
    h2 = Math.imul(h2 ^ bytes[i]!, 0x5bd1e995) ^ (h2 >>> 15)
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
  return { bytes, etag: `"${hex(h1)}${hex(h2)}"` }
}

/** `If-None-Match` holds this ETag (or `*`), as RFC 9110 compares them for a GET. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*')
}

/**
 * Builds the runtime-free mock: store, console, usage, log and the request pipeline.
 * Runtimes wrap `fetch` (MSW handlers, the HTTPS server, Playwright routes).
 * @example const core = createTmapsCore({ state: 'empty' }); await core.ready
 */
export function createTmapsCore(options: TmapsMockOptions = {}): TmapsMockCore {
  const opts = validateOptions(options)
  const apiHost = new URL(opts.baseUrl).host
  const tilesHost = new URL(opts.tilesUrl).host
  const now = opts.now
  const usage = createUsage({ maxDays: opts.usageDays })
  const log = createRequestLog(opts.logSize)
  /** Recent answers (JSON or PNG bytes and the PNG's ETag): deterministic, so exact. */
  const cache = new Map<string, { bytes: Uint8Array<ArrayBuffer>; etag?: string }>()

  const initial: ParsedSnapshot =
    opts.state === 'demo'
      ? demoSnapshot(opts.seed ?? DEFAULT_DEMO_SEED)
      : opts.state === 'empty'
        ? parseSnapshot({ format: 'tmaps-mock/snapshot', version: 1, keys: [], domains: [], links: [] })
        : parseSnapshot(opts.state)

  let store: TmapsStore = createStore()
  let generator = createKeyGenerator(opts.seed)
  let loaded = false
  let writes: Promise<unknown> = Promise.resolve()
  const changeListeners = new Set<() => void>()
  /** Runs writes one at a time; once one has run, tells the change listeners (before its caller resumes). */
  const serialize = <T>(write: () => Promise<T>): Promise<T> => {
    const run = writes.then(write, write).then((result) => {
      for (const listener of changeListeners) {
        try {
          listener()
        } catch (error) {
          console.error('tmaps-mock: a change listener threw:', error)
        }
      }
      return result
    })
    writes = run.catch(() => undefined)
    return run
  }

  const consoleApi = createConsole({
    store: () => store,
    now,
    nextKey: () => generator.next(),
    assertReady: (action) => {
      if (!loaded) {
        throw new TmapsConsoleError(
          'not-ready',
          `Failed to ${action}: the mock is still loading its initial state. Await mock.ready first.`,
        )
      }
    },
    serialize,
  })

  const load = async (snapshot: ParsedSnapshot): Promise<void> => {
    const next = createStore()
    for (const key of snapshot.keys) await next.keys.create(key)
    for (const domain of snapshot.domains) await next.domains.create(domain)
    for (const link of snapshot.links) await next.links.create(link)
    store = next
    generator = createKeyGenerator(opts.seed, snapshot.keyIndex)
    usage.load(snapshot.usage)
    usage.retain((bucket) => next.byId.has(bucket))
    cache.clear()
    loaded = true
  }

  // The demo state's keys are new keys: their values are shown once, on ready and on reset.
  const createdKeys = (): TmapsReadyInfo => ({
    createdKeys:
      opts.state === 'demo' ? initial.keys.map((k) => ({ ...consoleApi.getKey(k.id)!, value: k.value })) : [],
  })

  const ready = serialize(async () => {
    await load(initial)
    return createdKeys()
  })
  // A failed load surfaces on `ready` and on every request; never as an unhandled rejection.
  ready.catch(() => undefined)

  const lookup = (value: string) => store.byValue.get(value)

  /** Bodies go out as bytes with their type and `Content-Length`, as a real server sends them. */
  const respond = (
    status: number,
    body: Uint8Array<ArrayBuffer> | null,
    origin: string | null,
    extra?: Record<string, string>,
    contentType: string = CONTENT_TYPES.json,
  ): TmapsAnswer => {
    const headers: Record<string, string> = {
      'Access-Control-Allow-Origin': origin ?? '*',
      Vary: 'Origin',
      ...extra,
    }
    if (body !== null) {
      headers['Content-Type'] = contentType
      headers['Content-Length'] = String(body.byteLength)
    }
    return { status, headers, body }
  }
  const utf8 = new TextEncoder()
  const errorBody = (error: string) => utf8.encode(JSON.stringify({ error }))

  const record = (
    request: Request,
    url: URL,
    endpoint: string,
    status: number,
    rule: Rule,
    decision: Decision,
    reason = explainDecision(rule, decision.facts),
  ) => {
    const keyId = decision.facts.keyId ?? (decision.facts.key !== null ? keyIdOf(url) : null)
    usage.record(keyId ?? UNATTRIBUTED, endpoint, status, now())
    log.push({
      time: now().toISOString(),
      method: request.method,
      host: url.host,
      path: url.pathname,
      endpoint,
      status,
      outcome: status < 400 ? 'accepted' : 'rejected',
      rule,
      reason,
      facts: decision.facts,
    })
  }
  // Attribution of a request the contract refused before looking the key up (plain HTTP).
  const keyIdOf = (url: URL): string | null => {
    const values = url.searchParams.getAll('api_key')
    return values.length === 1 ? (store.byValue.get(values[0]!)?.id ?? null) : null
  }

  const hostKinds = (host: string): Array<'api' | 'tiles'> =>
    host === apiHost && host === tilesHost
      ? ['api', 'tiles']
      : host === apiHost
        ? ['api']
        : host === tilesHost
          ? ['tiles']
          : []

  async function handle(request: Request, fetchOptions?: FetchOptions): Promise<TmapsAnswer> {
    const url = new URL(fetchOptions?.url ?? request.url)
    const origin =
      fetchOptions?.facts?.origin !== undefined ? fetchOptions.facts.origin : request.headers.get('origin')
    if (request.method === 'OPTIONS') {
      return respond(204, null, origin, {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers':
          request.headers.get('access-control-request-headers') ?? 'Content-Type',
        'Access-Control-Max-Age': '600',
      })
    }
    await ready
    const facts: RequestFacts = {
      scheme: url.protocol.slice(0, -1),
      keyValues: url.searchParams.getAll('api_key'),
      origin,
      referer: request.headers.get('referer'),
      ...fetchOptions?.facts,
    }
    const kinds = hostKinds(url.host)
    const name = kinds.map((k) => endpointName(k, url.pathname)).find((n) => n !== 'unknown') ?? 'unknown'
    const decision = decide(facts, lookup)
    if (decision.outcome === 'rejected') {
      const { status, error } = REJECTIONS[decision.rule]
      record(request, url, name, status, decision.rule, decision)
      return respond(status, errorBody(error), facts.origin)
    }

    const resolved = kinds
      .map((k) => resolveEndpoint(k, request.method, url.pathname))
      .find((e) => e !== undefined)
    if (!resolved) {
      record(request, url, name, 404, 'not-found', decision)
      return respond(404, errorBody(REJECTIONS['not-found'].error), facts.origin)
    }
    const { endpoint, params } = resolved

    try {
      let body: unknown
      let cacheKey: string | undefined
      if (request.method === 'GET') {
        cacheKey = `${url.pathname}?${[...url.searchParams]
          .filter(([k]) => k !== 'api_key')
          .map(([k, v]) => `${k}=${v}`)
          .sort()
          .join('&')}`
      } else {
        const text = await request.text()
        try {
          body = JSON.parse(text)
        } catch {
          throw new ParamError('invalid-param', 'body')
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body))
          throw new ParamError('invalid-param', 'body')
        if (text.length <= 4096)
          cacheKey = `${endpoint.name} ${url.search.replace(/api_key=[^&]*/g, '')} ${text}`
      }
      let answer = cacheKey === undefined ? undefined : cache.get(cacheKey)
      if (answer === undefined) {
        const ctx = { url, params, body, seed: opts.dataSeed }
        answer =
          endpoint.answers === 'png'
            ? withEtag(await endpoint.handle(ctx))
            : { bytes: utf8.encode(JSON.stringify(await endpoint.handle(ctx))) }
        if (cacheKey !== undefined) {
          if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
          cache.set(cacheKey, answer)
        }
      }
      if (answer.etag === undefined) {
        record(request, url, endpoint.name, 200, decision.rule, decision)
        return respond(200, answer.bytes, facts.origin)
      }
      // Pictures are cached by browsers and proxies like any tile server's (errors never are).
      const caching = { 'Cache-Control': IMAGE_CACHE_CONTROL, ETag: answer.etag }
      if (matchesEtag(request.headers.get('if-none-match'), answer.etag)) {
        record(request, url, endpoint.name, 304, decision.rule, decision)
        return respond(304, null, facts.origin, caching)
      }
      record(request, url, endpoint.name, 200, decision.rule, decision)
      return respond(200, answer.bytes, facts.origin, caching, CONTENT_TYPES[endpoint.answers])
    } catch (error) {
      if (error instanceof ParamError) {
        record(request, url, endpoint.name, 400, error.rule, decision, `Authorized, but ${error.message}.`)
        return respond(400, errorBody(error.message), facts.origin)
      }
      if (error instanceof NotFoundError) {
        record(request, url, endpoint.name, 404, 'not-found', decision, `Authorized, but ${error.message}.`)
        return respond(404, errorBody(REJECTIONS['not-found'].error), facts.origin)
      }
      console.error(
        `tmaps-mock: ${endpoint.name} failed (this is a bug in tmaps-mock, please report it):`,
        error,
      )
      record(request, url, endpoint.name, 500, 'internal-error', decision)
      return respond(500, errorBody(REJECTIONS['internal-error'].error), facts.origin)
    }
  }

  const resolveBucket = (ref: KeyRef | typeof UNATTRIBUTED): string => {
    if (ref === UNATTRIBUTED) return UNATTRIBUTED
    const info = consoleApi.getKey(ref)
    if (!info) {
      throw new TmapsConsoleError(
        'not-found',
        'Failed to read usage: no key matches. Name a key by its id or full value, or pass "unattributed".',
      )
    }
    return info.id
  }

  return {
    ready,
    console: consoleApi,
    log,
    options: { baseUrl: opts.baseUrl, tilesUrl: opts.tilesUrl, seed: opts.seed, dataSeed: opts.dataSeed },
    answer: handle,
    async fetch(request, fetchOptions) {
      const { status, headers, body } = await handle(request, fetchOptions)
      return new Response(body, { status, headers })
    },
    usage(ref) {
      return usage.report(resolveBucket(ref))
    },
    onChange(listener) {
      changeListeners.add(listener)
      return () => {
        changeListeners.delete(listener)
      }
    },
    reset() {
      return serialize(async () => {
        await load(initial)
        log.clear()
        return createdKeys()
      })
    },
    snapshot() {
      consoleApi.listKeys() // throws the "await mock.ready" error while loading
      return {
        format: 'tmaps-mock/snapshot',
        version: 1,
        keys: store.keys.all().map((k) => ({ ...k })),
        domains: store.domains.all().map((d) => ({ ...d })),
        links: store.links.all().map((l) => ({ ...l })),
        usage: usage.toJSON(),
        keyIndex: generator.index,
      }
    },
    async restore(snapshot) {
      const parsed = parseSnapshot(snapshot)
      await serialize(() => load(parsed))
    },
  }
}

function validateOptions(options: TmapsMockOptions) {
  const fail = (why: string): never => {
    throw new TypeError(`Failed to create the TMaps mock: ${why}.`)
  }
  if (options === null || typeof options !== 'object')
    fail('options must be an object, e.g. createTmapsMock({ state: "empty" })')
  const origin = (name: string, value: string | undefined, fallback: string) => {
    if (value === undefined) return fallback
    if (typeof value !== 'string' || !URL.canParse(value))
      fail(`${name} ${JSON.stringify(value)} is not an absolute URL. Use an origin such as "${fallback}"`)
    const url = new URL(value)
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      fail(`${name} must use https:// (got ${url.protocol})`)
    if (url.pathname !== '/' || url.search || url.hash || url.username) {
      fail(
        `${name} must be an origin without path, query or credentials, such as "${url.protocol}//${url.host}"`,
      )
    }
    return url.origin
  }
  const { seed, state = 'demo', logSize = 500, usageDays = 90, now = () => new Date() } = options
  if (
    seed !== undefined &&
    !((typeof seed === 'string' && seed !== '') || (typeof seed === 'number' && Number.isFinite(seed)))
  ) {
    fail('seed must be a non-empty string or a finite number')
  }
  if (
    !(
      state === 'demo' ||
      state === 'empty' ||
      typeof state === 'string' ||
      (typeof state === 'object' && state !== null)
    )
  ) {
    fail('state must be "demo", "empty" or a snapshot from mock.snapshot()')
  }
  if (!Number.isInteger(logSize) || logSize < 1 || logSize > 100_000)
    fail('logSize must be an integer from 1 to 100000')
  if (!Number.isInteger(usageDays) || usageDays < 1 || usageDays > 3660)
    fail('usageDays must be an integer from 1 to 3660')
  if (typeof now !== 'function') fail('now must be a function that returns a Date')
  return {
    baseUrl: origin('baseUrl', options.baseUrl, DEFAULT_BASE_URL),
    tilesUrl: origin('tilesUrl', options.tilesUrl, DEFAULT_TILES_URL),
    seed,
    dataSeed: seed ?? DEFAULT_DATA_SEED,
    state,
    logSize,
    usageDays,
    now,
  }
}
