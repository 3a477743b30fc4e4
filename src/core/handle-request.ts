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
import { must } from '../validate/must.ts'
import { deeperThan, MAX_JSON_DEPTH } from '../validate/validate.ts'
import { type AnswerCache, type ComputedAnswer, computedKey } from './answer-cache.ts'
import {
  answer,
  IMAGE_CACHE_CONTROL,
  matchesEtag,
  rejection,
  type TmapsAnswer,
  utf8Json,
  withEtag,
} from './answers.ts'
import { FAULT_BODIES, type FaultPlan, RETRY_AFTER_SECONDS } from './faults.ts'
import type { ResolvedOptions } from './options.ts'
import { overrideAnswer, type TmapsEndpointName, type TmapsOverride } from './override-registry.ts'
import { PathTarget, type RequestTarget } from './request-target.ts'

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

/** A log entry as `handleRequest` makes it: the exit that records it adds its time and duration. */
export type HandledEntry = Omit<NewLogEntry, 'time' | 'durationMs'>

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
  /** The answer cache's key of the endpoint answer that is its body (`computedKey`), when one is kept. */
  bodyKey?: string
}

/** One request's way through the core; `plan` is a fault plan the caller already drew. */
export type HandleRequest = (
  request: RequestLike,
  options?: FetchOptions,
  plan?: FaultPlan,
) => Promise<Handled>

/** Everything `handleRequest` reads, built by `createTmapsCore`. */
interface CoreParts {
  opts: ResolvedOptions
  /** The mock's one cache of answers, shared with the memo: the endpoints' answers are kept here. */
  cache: AnswerCache
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
 * The header that says where an answer came from when not from the mock: `upstream`, `replay`, or
 * `replay-miss` (not in the recording: the mock's own answer, or the 500 of `onMissing: 'error'`).
 */
const SOURCE_HEADER = 'X-TMaps-Mock-Source'

/** An answer not the mock's own, marked where a developer looks: its log entry, a header pages may read. */
function markSource(reply: TmapsAnswer, source: NonNullable<TmapsAnswer['source']>): void {
  reply.source = source
  reply.headers[SOURCE_HEADER] = source
  reply.headers['Access-Control-Expose-Headers'] = SOURCE_HEADER
}

/**
 * The request path, one function read top to bottom: preflight, route, fault, decide (the
 * contract), the endpoint (or an override), the answer. It returns the answer with its log entry;
 * the caller records it, once (`recordHandled`). Every answer comes from one builder (`answer` /
 * `rejection`); endpoint answers depend only on the request and the data seed (the contract
 * decides before them), so `endpointAnswer` caches them whatever the console state.
 */
export function createRequestHandler({
  opts,
  cache,
  ready,
  lookup,
  faults,
  overrides,
  generation,
  source,
}: CoreParts): HandleRequest {
  const route = createRouter(opts)
  const endpointAnswer = createEndpointAnswers(opts, cache)

  return async function handleRequest(request, options, faultPlan) {
    const started = performance.now()
    const url = typeof options?.url === 'object' ? options.url : new URL(options?.url ?? request.url)
    const origin = options?.facts?.origin !== undefined ? options.facts.origin : request.headers.get('origin')
    if (request.method === 'OPTIONS')
      return { answer: preflight(request, origin), started, generation: -1, repeatable: false }

    const facts = requestFacts(request, url, origin, options)
    const { resolved, name } = route(request.method, url)
    const plan = faultPlan ?? faults.plan(name)
    if (plan && plan.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.delayMs))
    await ready
    const stateGeneration = generation()
    const decision = attribute(decide(facts, lookup), facts, lookup)
    /** The request's `Handled`: its answer, marked with its rule, and its log entry. */
    const handled = (
      reply: TmapsAnswer,
      rule: Rule,
      extras: Partial<HandledEntry> = {},
      repeatable: Handled['repeatable'] = false,
      bodyKey?: string,
    ): Handled => {
      reply.rule = rule
      if (extras.source !== undefined) markSource(reply, extras.source)
      const entry = { ...logEntry(request, url, name, reply, rule, decision, plan), ...extras }
      return {
        answer: reply,
        entry,
        started,
        generation: stateGeneration,
        repeatable,
        ...(bodyKey && { bodyKey }),
      }
    }

    if (plan && (plan.status !== null || plan.network !== null)) {
      const { reply, reason } = faultAnswer(plan, origin)
      return handled(reply, 'fault-injected', { reason })
    }
    if (decision.outcome === 'rejected')
      return handled(rejection(decision.rule, origin), decision.rule, {}, true)
    if (!resolved) return handled(rejection('not-found', origin), 'not-found', {}, true)

    const { endpoint } = resolved
    const warnings = ignoredParams(endpoint.method, endpoint.path, new URLSearchParams(url.search))
    const extras: Partial<HandledEntry> = warnings ? { warnings } : {}
    try {
      const override = overrides?.take(endpoint.name)
      if (override) {
        const reply = await runOverride(override, resolved, request, url, origin, endpointAnswer)
        return handled(reply, decision.rule, { ...extras, reason: OVERRIDDEN, overridden: true })
      }
      let endpointRequest = request
      if (source) {
        const body = request.method === 'GET' ? undefined : await readBody(request)
        if (body !== undefined) endpointRequest = withBody(request, body)
        const sourced = await source.answer({
          method: request.method,
          url,
          endpoint: endpoint.name,
          body,
          headers: options?.facts ? decidedHeaders(request.headers, facts) : request.headers,
          keyId: decision.facts.keyId,
        })
        if ('miss' in sourced) Object.assign(extras, { source: 'replay-miss', reason: sourced.reason })
        else {
          const reply = answer(sourced.status, sourced.body, origin, sourced.headers, sourced.contentType)
          const more = { ...extras, source: sourced.source, reason: sourced.reason }
          return handled(reply, decision.rule, more, sourced.repeatable)
        }
      }
      const computed = await endpointAnswer(resolved, endpointRequest, url)
      if (computed.etag === undefined)
        return handled(answer(200, computed.bytes, origin), decision.rule, extras, true, computed.key)
      // Pictures are cached by browsers and proxies like any tile server's (errors never are).
      const caching = { 'Cache-Control': IMAGE_CACHE_CONTROL, ETag: computed.etag }
      if (matchesEtag(request.headers.get('if-none-match'), computed.etag))
        return handled(answer(304, null, origin, caching), decision.rule, extras, 'picture')
      const reply = answer(200, computed.bytes, origin, caching, CONTENT_TYPES[endpoint.answers])
      return handled(reply, decision.rule, extras, 'picture', computed.key)
    } catch (error) {
      const { reply, rule, reason } = errorAnswer(error, endpoint.name, origin)
      return handled(reply, rule, { ...extras, ...(reason === undefined ? {} : { reason }) })
    }
  }
}

/**
 * The endpoint a method and path name on the TMaps host a URL's host stands for. A `PathTarget`
 * (one origin serving both hosts: the HTTPS server) is routed on both, and told the TMaps host
 * its path belongs to.
 */
function createRouter(opts: ResolvedOptions) {
  const hostOf = { api: new URL(opts.baseUrl).host, tiles: new URL(opts.tilesUrl).host }
  const both: Array<'api' | 'tiles'> = ['api', 'tiles']
  const kindsByHost = new Map<string, Array<'api' | 'tiles'>>([
    [hostOf.api, hostOf.api === hostOf.tiles ? both : ['api']],
    ...(hostOf.api === hostOf.tiles ? [] : [[hostOf.tiles, ['tiles']] as [string, Array<'api' | 'tiles'>]]),
  ])
  return (method: string, url: RequestTarget): { resolved: ResolvedEndpoint | undefined; name: string } => {
    const kinds = url instanceof PathTarget ? both : (kindsByHost.get(url.host) ?? [])
    // One lookup: the endpoint for this method, else (a wrong method) the name of its path.
    let resolved: ResolvedEndpoint | undefined
    for (const kind of kinds) resolved ??= resolveEndpoint(kind, method, url.pathname)
    let kind = resolved?.endpoint.host
    let name = resolved?.endpoint.name
    for (const k of kinds) {
      if (name !== undefined) break
      const named = endpointName(k, url.pathname)
      if (named !== 'unknown') [kind, name] = [k, named]
    }
    if (url instanceof PathTarget) url.routedTo(hostOf[kind ?? 'api'])
    return { resolved, name: name ?? 'unknown' }
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

/**
 * A request's headers with the `Origin` and `Referer` the contract decided on: those a page's
 * service worker rebuilt (the browser adds them after the worker), or a simulated caller's. What
 * a source forwards to TMaps, as the page sent them.
 */
function decidedHeaders(headers: Pick<Headers, 'get'>, facts: RequestFacts): Pick<Headers, 'get'> {
  return {
    get(name) {
      const lower = name.toLowerCase()
      return lower === 'origin' ? facts.origin : lower === 'referer' ? facts.referer : headers.get(name)
    },
  }
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
  const only = facts.keyValues.length === 1 ? facts.keyValues[0] : undefined
  if (decision.facts.keyId !== null || only === undefined) return decision
  const key = lookup(only)
  return key ? { ...decision, facts: { ...decision.facts, keyId: key.id } } : decision
}

/** The log's view of an answered request: keys masked in its path and query. */
function logEntry(
  request: RequestLike,
  url: RequestTarget,
  endpoint: string,
  reply: TmapsAnswer,
  rule: Rule,
  decision: Decision,
  plan: FaultPlan | undefined,
): HandledEntry {
  const { status } = reply
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
    size: reply.body?.byteLength ?? 0,
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
function faultAnswer(plan: FaultPlan, origin: string | null): { reply: TmapsAnswer; reason: string } {
  const which = `Injected fault ${plan.rules.join(', ')}`
  if (plan.network === 'reset') {
    const reply: TmapsAnswer = { status: 0, statusText: '', headers: {}, body: null, network: 'reset' }
    return { reply, reason: `${which}: the connection was reset (no answer).` }
  }
  // The caller answers a plan with a status or a reset only.
  const status = must(plan.status, 'a fault plan with neither a status nor a reset was answered')
  const error = FAULT_BODIES[status]
  const retry = status === 429 || status === 503 ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : undefined
  return {
    reply: rejection({ status, error }, origin, retry),
    reason: `${which}: ${status} ${error}${plan.delayMs ? ` after ${plan.delayMs} ms` : ''}, before the auth check.`,
  }
}

/** What an endpoint's error answers, once the contract accepted the request. */
function errorAnswer(
  error: unknown,
  endpoint: string,
  origin: string | null,
): { reply: TmapsAnswer; rule: Rule; reason?: string } {
  if (error instanceof ParamError) {
    const reply = rejection({ status: 400, error: error.message }, origin)
    return { reply, rule: error.rule, reason: `Authorized, but ${error.message}.` }
  }
  if (error instanceof BodyReadError) return { reply: rejection(error.rule, origin), rule: error.rule }
  if (error instanceof RendererBusyError || error instanceof RendererFailedError) {
    const rule = error instanceof RendererBusyError ? 'renderer-busy' : 'renderer-failed'
    const reply = rejection(rule, origin, { 'Retry-After': String(error.retryAfterSeconds) })
    return { reply, rule, reason: `Authorized, but ${error.message}.` }
  }
  if (error instanceof NotFoundError) {
    const body =
      error.detail === undefined ? 'not-found' : { status: 404, error: `not found (${error.detail})` }
    return { reply: rejection(body, origin), rule: 'not-found', reason: `Authorized, but ${error.message}.` }
  }
  console.error(`tmaps-mock: ${endpoint} failed (this is a bug in tmaps-mock, please report it):`, error)
  return { reply: rejection('internal-error', origin), rule: 'internal-error' }
}

/** An endpoint's answer, and its key in the answer cache when it is kept there. */
interface Computed extends ComputedAnswer {
  readonly key?: string
}

type EndpointAnswer = (
  resolved: ResolvedEndpoint,
  request: RequestLike,
  url: RequestTarget,
) => Promise<Computed>

/** Longer POST bodies are answered without keeping their answer. */
const CACHEABLE_BODY = 4096

/** Endpoint answers, kept in the answer cache under `computedKey` (of `answerCacheKey` and a POST's body). */
function createEndpointAnswers(opts: ResolvedOptions, cache: AnswerCache): EndpointAnswer {
  // A renderer that computes JSON too (a render pool) takes the heavy answers off this thread.
  const json = opts.renderer.json?.bind(opts.renderer)
  const kept = (key: string | undefined, bytes: Uint8Array<ArrayBuffer>, etag?: string): Computed => {
    const weight = bytes.byteLength + 64
    const computed: Computed = { bytes, weight, ...(etag !== undefined && { etag }), ...(key && { key }) }
    if (key === undefined) return computed
    cache.set(key, computed)
    if (cache.computed(key) === computed) return computed
    // Too large to keep (over a quarter of the cache): nothing may name it there.
    const { key: _, ...unkept } = computed
    return unkept
  }
  return async ({ endpoint, params }, request, url) => {
    let body: unknown
    const answerKey = answerCacheKey(url.pathname, url.search)
    let key: string | undefined = computedKey(answerKey)
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
      key = text.length <= CACHEABLE_BODY ? computedKey(answerKey, text) : undefined
    }
    const cached = key === undefined ? undefined : cache.computed(key)
    if (cached) return cached
    const target = url instanceof URL ? url : new URL(url.href)
    if (json && endpoint.answers === 'json' && isHeavy(endpoint.name, target)) {
      // Computed in a render pool's thread: the answering thread stays free for the cheap ones.
      const job = { endpoint: endpoint.name, method: endpoint.method, href: url.href, params, body }
      return kept(key, await json(opts.dataSeed, job))
    }
    const ctx = endpointContext(target, params, body, opts.dataSeed, opts.renderer)
    if (endpoint.answers === 'json') return kept(key, utf8Json(await endpoint.handle(ctx)))
    const { bytes, etag } = withEtag(await endpoint.handle(ctx))
    return kept(key, bytes, etag)
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
