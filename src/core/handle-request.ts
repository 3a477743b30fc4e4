import type { NewLogEntry } from '../console/request-log.ts'
import { maskQuery } from '../console/request-log.ts'
import { type Decision, decide, type KeyView, type RequestFacts } from '../contract/decide.ts'
import { maskSecrets, mayHoldKey } from '../contract/key-format.ts'
import type { Rule } from '../contract/rejections.ts'
import { CONTENT_TYPES, endpointContext } from '../endpoints/endpoint.ts'
import { isHeavy } from '../endpoints/json-job.ts'
import { BodyReadError, NotFoundError, ParamError, readBody } from '../endpoints/params.ts'
import { ignoredParams } from '../endpoints/query-params.ts'
import { endpointName, type ResolvedEndpoint, resolveEndpoint } from '../endpoints/registry.ts'
import { RendererBusyError, RendererFailedError } from '../jobs/protocol.ts'
import type { AnswerSource } from '../upstream/answer-source.ts'
import { deeperThan, MAX_JSON_DEPTH } from '../validate/validate.ts'
import {
  answer,
  IMAGE_CACHE_CONTROL,
  matchesEtag,
  rejection,
  type TmapsAnswer,
  utf8Json,
  withEtag,
} from './answers.ts'
import { boundedCache } from './bounded-cache.ts'
import { FAULT_BODIES, type FaultPlan, RETRY_AFTER_SECONDS } from './faults.ts'
import type { ResolvedOptions } from './options.ts'
import { overrideAnswer, type TmapsEndpointName, type TmapsOverride } from './overrides.ts'

/**
 * What the core reads of a request: a fetch `Request`, or a runtime's own view of one (the
 * HTTPS server reads Node's request without building a `Request`).
 */
export type RequestLike = Pick<Request, 'method' | 'url' | 'text'> & { headers: Pick<Headers, 'get'> }

/**
 * Overrides of what a runtime saw of a request, for `mock.fetch()` and `mock.answer()`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type FetchOptions } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const request = new Request(
 *   `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`,
 * )
 * const fromAnotherSite: FetchOptions = { facts: { origin: 'https://shop.example.tn' } }
 * assert.equal((await mock.fetch(request.clone())).status, 200) // no Origin: a server
 * assert.equal((await mock.fetch(request, fromAnotherSite)).status, 403)
 * ```
 */
export interface FetchOptions {
  facts?: Partial<RequestFacts>
  /**
   * The URL to decide on instead of `request.url` (the HTTPS server answers TMaps paths on its
   * own origin and names the TMaps host here, without copying the request), as text or already
   * split into its parts.
   */
  url?: string | RequestTarget
  /**
   * The host the client asked (the HTTPS server's own, `localhost:8443`), logged instead of the
   * TMaps host the request is decided on: the log shows the URL as it was called.
   */
  host?: string
}

/**
 * The parts of a request's URL the core reads: a `URL` has them, and the HTTPS server splits its
 * own request line into them without a `URL` on the hot path (`PathTarget`).
 */
export interface RequestTarget {
  readonly href: string
  /** `https:` */
  readonly protocol: string
  readonly host: string
  readonly pathname: string
  /** `?...`, or `''` */
  readonly search: string
}

/** A log entry as `handleRequest` makes it: the exit that records it adds its time and duration. */
type HandledEntry = Omit<NewLogEntry, 'time' | 'durationMs'>

/** What one request came to: the answer, and what the log and usage keep of it. */
export interface Handled {
  answer: TmapsAnswer
  /** The log entry; none for a CORS preflight, which is never logged. */
  entry?: HandledEntry
  /** `performance.now()` when the request arrived. */
  started: number
  /** The console state the decision saw (`generation()`). */
  generation: number
  /**
   * The same request (URL, `Origin`, `Referer`, `If-None-Match`) under the same console state gets
   * the same answer: a refusal of the contract, a JSON answer, or a picture (`'picture'`: its bytes
   * or its 304), not an override or a fault.
   */
  repeatable: boolean | 'picture'
}

/** One request's way through the core; `drawn` is a fault plan the caller already drew. */
export type HandleRequest = (
  request: RequestLike,
  options?: FetchOptions,
  drawn?: FaultPlan,
) => Promise<Handled>

/** Everything `handleRequest` reads, built by `createTmapsCore`. */
interface CoreParts {
  opts: ResolvedOptions
  ready: Promise<unknown>
  lookup: (value: string) => KeyView | undefined
  faults: { plan(endpoint: string): FaultPlan | undefined }
  /** Overrides (`mock.use`): run instead of an endpoint once the contract accepted the request. */
  overrides?: { take(endpoint: string): TmapsOverride<TmapsEndpointName> | undefined }
  /** Changes whenever the console state does (a key, a domain, a link, a load). */
  generation: () => number
  /** Where accepted requests are answered from instead of the endpoints: a recording, or the real TMaps. */
  source?: AnswerSource
}

const OVERRIDDEN = 'Authorized; answered by an override (mock.use), not by the mock itself.'

/**
 * The request path, one function read top to bottom: preflight, route, fault, decide (the
 * contract), the endpoint (or an override), the answer. It returns the answer with its log entry;
 * the caller records it, once (`recordHandled`). Every answer comes from one builder (`answer` /
 * `rejection`); endpoint answers depend only on the request and the data seed (the contract
 * decides before them), so `endpointAnswer` caches them whatever the console state.
 */
export function createRequestHandler({
  opts,
  ready,
  lookup,
  faults,
  overrides,
  generation,
  source,
}: CoreParts): HandleRequest {
  const route = createRouter(opts)
  const endpointAnswer = createEndpointAnswers(opts)

  return async function handleRequest(request, options, drawn) {
    const started = performance.now()
    const url = typeof options?.url === 'object' ? options.url : new URL(options?.url ?? request.url)
    const origin = options?.facts?.origin !== undefined ? options.facts.origin : request.headers.get('origin')
    if (request.method === 'OPTIONS')
      return { answer: preflight(request, origin), started, generation: -1, repeatable: false }

    const facts = requestFacts(request, url, origin, options)
    const { resolved, name } = route(request.method, url)
    const plan = drawn ?? faults.plan(name)
    if (plan && plan.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.delayMs))
    await ready
    const seen = generation()
    const decision = attribute(decide(facts, lookup), facts, lookup)
    const done = (
      sent: TmapsAnswer,
      rule: Rule,
      more: Partial<HandledEntry> = {},
      repeatable: Handled['repeatable'] = false,
    ): Handled => {
      sent.rule = rule
      if (more.source !== undefined) sent.source = more.source
      const entry = logEntry(request, url, name, sent, rule, decision, plan)
      return { answer: sent, entry: { ...entry, ...more }, started, generation: seen, repeatable }
    }

    if (plan && (plan.status !== null || plan.network !== null)) {
      const { sent, reason } = faultAnswer(plan, origin)
      return done(sent, 'fault-injected', { reason })
    }
    if (decision.outcome === 'rejected')
      return done(rejection(decision.rule, origin), decision.rule, {}, true)
    if (!resolved) return done(rejection('not-found', origin), 'not-found', {}, true)

    const { endpoint } = resolved
    const warnings = ignoredParams(endpoint.method, endpoint.path, new URLSearchParams(url.search))
    const noted: Partial<HandledEntry> = warnings ? { warnings } : {}
    try {
      const override = overrides?.take(endpoint.name)
      if (override) {
        const sent = await runOverride(override, resolved, request, url, origin, endpointAnswer)
        return done(sent, decision.rule, { ...noted, reason: OVERRIDDEN, overridden: true })
      }
      let asked = request
      if (source) {
        const body = request.method === 'GET' ? undefined : await readBody(request)
        if (body !== undefined) asked = withBody(request, body)
        const given = await source.answer({
          method: request.method,
          url,
          endpoint: endpoint.name,
          body,
          headers: request.headers,
          keyId: decision.facts.keyId,
        })
        if ('miss' in given) Object.assign(noted, { source: 'replay-miss', reason: given.reason })
        else {
          const sent = answer(given.status, given.body, origin, given.headers, given.contentType)
          const more = { ...noted, source: given.source, reason: given.reason }
          return done(sent, decision.rule, more, given.repeatable)
        }
      }
      const computed = await endpointAnswer(resolved, asked, url)
      if (computed.etag === undefined)
        return done(answer(200, computed.bytes, origin), decision.rule, noted, true)
      // Pictures are cached by browsers and proxies like any tile server's (errors never are).
      const caching = { 'Cache-Control': IMAGE_CACHE_CONTROL, ETag: computed.etag }
      const sent = matchesEtag(request.headers.get('if-none-match'), computed.etag)
        ? answer(304, null, origin, caching)
        : answer(200, computed.bytes, origin, caching, CONTENT_TYPES[endpoint.answers])
      return done(sent, decision.rule, noted, 'picture')
    } catch (error) {
      const { sent, rule, reason } = errorAnswer(error, endpoint.name, origin)
      return done(sent, rule, { ...noted, ...(reason === undefined ? {} : { reason }) })
    }
  }
}

/** The TMaps hosts a URL's host stands for, and the endpoint a method and path name there. */
function createRouter(opts: ResolvedOptions) {
  const apiHost = new URL(opts.baseUrl).host
  const tilesHost = new URL(opts.tilesUrl).host
  const kindsByHost = new Map<string, Array<'api' | 'tiles'>>([
    [apiHost, apiHost === tilesHost ? ['api', 'tiles'] : ['api']],
    ...(apiHost === tilesHost ? [] : [[tilesHost, ['tiles']] as [string, Array<'api' | 'tiles'>]]),
  ])
  return (method: string, url: RequestTarget): { resolved: ResolvedEndpoint | undefined; name: string } => {
    const kinds = kindsByHost.get(url.host) ?? []
    // One lookup: the endpoint for this method, else (a wrong method) the name of its path.
    let resolved: ResolvedEndpoint | undefined
    for (const kind of kinds) resolved ??= resolveEndpoint(kind, method, url.pathname)
    const name =
      resolved?.endpoint.name ??
      kinds.map((k) => endpointName(k, url.pathname)).find((n) => n !== 'unknown') ??
      'unknown'
    return { resolved, name }
  }
}

/** A CORS preflight is answered at once, without a key, never faulted nor logged. */
function preflight(request: RequestLike, origin: string | null): TmapsAnswer {
  return answer(204, null, origin, {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': request.headers.get('access-control-request-headers') ?? 'Content-Type',
    'Access-Control-Max-Age': '600',
  })
}

/** What the contract decides on, as the runtime saw it (or rebuilt it). */
function requestFacts(
  request: RequestLike,
  url: RequestTarget,
  origin: string | null,
  options: FetchOptions | undefined,
): RequestFacts {
  const facts: RequestFacts = {
    scheme: url.protocol.slice(0, -1),
    keyValues: apiKeyValues(url.search),
    origin,
    referer: request.headers.get('referer'),
  }
  return options?.facts ? Object.assign(facts, options.facts) : facts
}

/** The key a refused request still names, for usage (plain HTTP is refused before the lookup). */
function attribute(decision: Decision, facts: RequestFacts, lookup: CoreParts['lookup']): Decision {
  if (decision.facts.keyId !== null || facts.keyValues.length !== 1) return decision
  const key = lookup(facts.keyValues[0]!)
  return key ? { ...decision, facts: { ...decision.facts, keyId: key.id } } : decision
}

/** The log's view of an answered request: keys masked in its path and query. */
function logEntry(
  request: RequestLike,
  url: RequestTarget,
  endpoint: string,
  sent: TmapsAnswer,
  rule: Rule,
  decision: Decision,
  plan: FaultPlan | undefined,
): HandledEntry {
  const { status } = sent
  const entry: HandledEntry = {
    method: request.method,
    host: url.host,
    path: mayHoldKey(url.pathname) ? maskSecrets(url.pathname) : url.pathname,
    query: maskQuery(url.search),
    endpoint,
    status,
    outcome: status >= 200 && status < 400 ? 'accepted' : 'rejected',
    rule,
    facts: decision.facts,
    size: sent.body?.byteLength ?? 0,
  }
  if (plan) {
    entry.fault = { rules: plan.rules, delayMs: plan.delayMs }
    if (plan.status !== null) entry.fault.status = plan.status
    if (plan.network !== null) entry.fault.network = plan.network
  }
  return entry
}

/** The request with its body already read (a source read it; the endpoint reads it again). */
function withBody(request: RequestLike, body: string): RequestLike {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    text: () => Promise.resolve(body),
  }
}

/** An infrastructure fault's answer (the docs' 429 is the edge's, before the auth check), or a reset. */
function faultAnswer(plan: FaultPlan, origin: string | null): { sent: TmapsAnswer; reason: string } {
  const which = `Injected fault ${plan.rules.join(', ')}`
  if (plan.network === 'reset') {
    const sent: TmapsAnswer = { status: 0, statusText: '', headers: {}, body: null, network: 'reset' }
    return { sent, reason: `${which}: the connection was reset (no answer).` }
  }
  const status = plan.status!
  const error = FAULT_BODIES[status]
  const retry = status === 429 || status === 503 ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : undefined
  return {
    sent: rejection({ status, error }, origin, retry),
    reason: `${which}: ${status} ${error}${plan.delayMs ? ` after ${plan.delayMs} ms` : ''}, before the auth check.`,
  }
}

/** What an endpoint's error answers, once the contract accepted the request. */
function errorAnswer(
  error: unknown,
  endpoint: string,
  origin: string | null,
): { sent: TmapsAnswer; rule: Rule; reason?: string } {
  if (error instanceof ParamError) {
    const sent = rejection({ status: 400, error: error.message }, origin)
    return { sent, rule: error.rule, reason: `Authorized, but ${error.message}.` }
  }
  if (error instanceof BodyReadError) return { sent: rejection(error.rule, origin), rule: error.rule }
  if (error instanceof RendererBusyError || error instanceof RendererFailedError) {
    const rule = error instanceof RendererBusyError ? 'renderer-busy' : 'renderer-failed'
    const sent = rejection(rule, origin, { 'Retry-After': String(error.retryAfterSeconds) })
    return { sent, rule, reason: `Authorized, but ${error.message}.` }
  }
  if (error instanceof NotFoundError) {
    const body =
      error.detail === undefined ? 'not-found' : { status: 404, error: `not found (${error.detail})` }
    return { sent: rejection(body, origin), rule: 'not-found', reason: `Authorized, but ${error.message}.` }
  }
  console.error(`tmaps-mock: ${endpoint} failed (this is a bug in tmaps-mock, please report it):`, error)
  return { sent: rejection('internal-error', origin), rule: 'internal-error' }
}

/** An endpoint's answer as bytes, with an ETag for pictures. Deterministic, so it is cached. */
interface Computed {
  bytes: Uint8Array<ArrayBuffer>
  etag?: string
}

type EndpointAnswer = (
  resolved: ResolvedEndpoint,
  request: RequestLike,
  url: RequestTarget,
) => Promise<Computed>

const CACHE_SIZE = 256
/** The endpoints' answers kept, in bytes at most (a 1280 x 1280 map is ~0.8 MB; a geocode ~1 kB). */
const CACHE_BYTES = 32 * 1024 * 1024
/** Longer POST bodies are answered without keeping their answer. */
const CACHEABLE_BODY = 4096

/** Endpoint answers behind one cache, keyed by `answerCacheKey` (and a POST's body). */
function createEndpointAnswers(opts: ResolvedOptions): EndpointAnswer {
  const cache = boundedCache<Computed>(CACHE_SIZE, CACHE_BYTES, (c) => c.bytes.byteLength + 64)
  // A renderer that computes JSON too (a render pool) takes the heavy answers off this thread.
  const json = opts.renderer.json?.bind(opts.renderer)
  return async ({ endpoint, params }, request, url) => {
    let body: unknown
    let cacheKey: string | undefined = answerCacheKey(url.pathname, url.search)
    if (request.method !== 'GET') {
      const text = await readBody(request)
      try {
        body = JSON.parse(text)
      } catch {
        throw new ParamError('invalid-param', 'body')
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ParamError('invalid-param', 'body')
      // Refused before any work is queued: a render process could not even be sent it.
      if (deeperThan(body, MAX_JSON_DEPTH))
        throw new ParamError('invalid-param', 'body', `nested deeper than ${MAX_JSON_DEPTH} levels`)
      cacheKey = text.length <= CACHEABLE_BODY ? `${cacheKey}\n${text}` : undefined
    }
    const cached = cacheKey === undefined ? undefined : cache.get(cacheKey)
    if (cached) return cached
    const target = url instanceof URL ? url : new URL(url.href)
    if (json && endpoint.answers === 'json' && isHeavy(endpoint.name, target)) {
      // Computed in a render pool's thread: the answering thread stays free for the cheap ones.
      const job = { endpoint: endpoint.name, method: endpoint.method, href: url.href, params, body }
      const computed = { bytes: await json(opts.dataSeed, job) }
      if (cacheKey !== undefined) cache.set(cacheKey, computed)
      return computed
    }
    const ctx = endpointContext(target, params, body, opts.dataSeed, opts.renderer)
    const computed =
      endpoint.answers === 'png'
        ? withEtag(await endpoint.handle(ctx))
        : { bytes: utf8Json(await endpoint.handle(ctx)) }
    if (cacheKey !== undefined) cache.set(cacheKey, computed)
    return computed
  }
}

const textDecoder = new TextDecoder()

/** An override's answer: its resolver gets the request, its parameters and the endpoint's own answer. */
async function runOverride(
  override: TmapsOverride<TmapsEndpointName>,
  resolved: ResolvedEndpoint,
  request: RequestLike,
  url: RequestTarget,
  origin: string | null,
  endpointAnswer: EndpointAnswer,
): Promise<TmapsAnswer> {
  const params: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(url.search))
    if (name !== 'api_key' && !(name in params)) params[name] = value
  Object.assign(params, resolved.params)
  let own: Promise<never> | undefined
  const result = await override({
    request,
    params,
    answer: () =>
      (own ??= endpointAnswer(resolved, request, url).then(
        (c) =>
          (resolved.endpoint.answers === 'png' ? c.bytes : JSON.parse(textDecoder.decode(c.bytes))) as never,
      )),
  })
  const { status, bytes, contentType, headers } = await overrideAnswer(result)
  return answer(status, bytes, origin, headers, contentType)
}

/**
 * Every `api_key` value of a query string, exactly as `URLSearchParams.getAll('api_key')` reads
 * them (`+` is a space, percent escapes decoded, malformed ones kept), without parsing the
 * other parameters on the hot path.
 */
export function apiKeyValues(search: string): string[] {
  const values: string[] = []
  if (search.length <= 1) return values
  for (const part of search.slice(1).split('&')) {
    const eq = part.indexOf('=')
    const rawName = eq < 0 ? part : part.slice(0, eq)
    const name = rawName.includes('%') || rawName.includes('+') ? decodeForm(rawName) : rawName
    if (name !== 'api_key') continue
    const raw = eq < 0 ? '' : part.slice(eq + 1)
    values.push(raw.includes('%') || raw.includes('+') ? decodeForm(raw) : raw)
  }
  return values
}

function decodeForm(text: string): string {
  return new URLSearchParams(`x=${text}`).get('x') ?? ''
}

/**
 * An answer-cache key: the path and the raw query without `api_key` (another spelling of the
 * same request is another entry, which is never wrong). The usual query, with one key, is cut
 * without splitting it.
 */
export function answerCacheKey(pathname: string, search: string): string {
  const query = search.slice(1)
  const at = query.indexOf('api_key=')
  if (at >= 0 && query.indexOf('api_key=', at + 8) < 0 && (at === 0 || query[at - 1] === '&')) {
    const end = query.indexOf('&', at)
    const rest = end < 0 ? query.slice(0, Math.max(0, at - 1)) : query.slice(0, at) + query.slice(end + 1)
    return `${pathname}?${rest}`
  }
  return `${pathname}?${search
    .slice(1)
    .split('&')
    .filter((part) => !part.startsWith('api_key='))
    .join('&')}`
}
