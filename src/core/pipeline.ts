import { maskQuery, type NewLogEntry, type RequestLog } from '../console/request-log.ts'
import { type createUsage, UNATTRIBUTED } from '../console/usage.ts'
import { type Decision, decide, type KeyView, type RequestFacts } from '../contract/decide.ts'
import { maskSecrets, mayHoldKey } from '../contract/key-format.ts'
import type { Rule } from '../contract/rejections.ts'
import { CONTENT_TYPES, type EndpointContext } from '../endpoints/endpoint.ts'
import { BodyReadError, NotFoundError, ParamError, readBody } from '../endpoints/params.ts'
import { ignoredParams } from '../endpoints/query-params.ts'
import { endpointName, type ResolvedEndpoint, resolveEndpoint } from '../endpoints/registry.ts'
import { RendererBusyError } from '../map/renderer.ts'
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
import { overrideAnswer, type TmapsEndpointName, type TmapsOverride } from './overrides.ts'

/**
 * What the pipeline reads of a request: a fetch `Request`, or a runtime's own view of one (the
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
}

/**
 * The parts of a request's URL the pipeline reads: a `URL` has them, and the HTTPS server
 * splits its own request line into them without a `URL` on the hot path (`splitTarget`).
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

/** An endpoint's answer as bytes, with an ETag for pictures. Deterministic, so it is cached. */
interface Computed {
  bytes: Uint8Array<ArrayBuffer>
  etag?: string
}

const CACHE_SIZE = 256
const CACHEABLE_BODY = 4096

/** One request on its way through the pipeline: what the log needs, and the rule that decided it. */
interface Exchange {
  request: RequestLike
  /** The host, path and query as the log shows them (keys masked). */
  host: string
  path: string
  query: string
  /** `performance.now()` when the request arrived. */
  started: number
  plan: FaultPlan | undefined
  rule: Rule | undefined
  /** Answered by an override (`mock.use`), not by the endpoint. */
  overridden?: boolean
  /** What the log warns of: query parameters the operation ignores. */
  warnings?: string[]
}

/**
 * A GET answered before under the same console state (`generation`), when its answer depended
 * on nothing but the request: a refusal of the contract, or a JSON answer. The same request
 * (URL, Origin, Referer) is answered from it without deciding again; it is still faulted,
 * counted and logged like any other.
 */
interface Memo {
  generation: number
  name: string
  host: string
  path: string
  query: string
  rule: Rule
  decision: Decision
  answer: TmapsAnswer
  warnings: string[] | undefined
}

const MEMO_SIZE = 1024
/** Longer memo keys (a long Referer) are not kept: memory stays bounded by MEMO_SIZE entries. */
const MEMO_KEY_LIMIT = 2048

/** Everything the pipeline reads and writes, built by `createTmapsCore`. */
export interface PipelineParts {
  opts: ResolvedOptions
  ready: Promise<unknown>
  lookup: (value: string) => KeyView | undefined
  usage: ReturnType<typeof createUsage>
  log: RequestLog & { push(entry: NewLogEntry): unknown }
  faults: { plan(endpoint: string): FaultPlan | undefined }
  /** Overrides (`mock.use`): run instead of an endpoint once the contract accepted the request. */
  overrides?: { take(endpoint: string): TmapsOverride<TmapsEndpointName> | undefined; readonly size: number }
  /** Changes whenever the console state does (a key, a domain, a link, a load). */
  generation: () => number
}

/**
 * The request pipeline, in named steps: preflight, facts, faults, decide (the contract),
 * endpoint, respond. Every step that answers goes through one builder (`answer` / `rejection`)
 * and one recorder (log and usage), so each answer is explained and counted exactly once.
 * Endpoint answers depend only on the request and the data seed (the contract decides before
 * them), so they are cached whatever the console state.
 */
export function createPipeline({
  opts,
  ready,
  lookup,
  usage,
  log,
  faults,
  overrides,
  generation,
}: PipelineParts) {
  const apiHost = new URL(opts.baseUrl).host
  const tilesHost = new URL(opts.tilesUrl).host
  const cache = new Map<string, Computed>()
  const memos = new Map<string, Memo>()

  /** The TMaps hosts this URL's host stands for (both when one origin serves both). */
  const kindsByHost = new Map<string, Array<'api' | 'tiles'>>([
    [apiHost, apiHost === tilesHost ? ['api', 'tiles'] : ['api']],
    ...(apiHost === tilesHost ? [] : [[tilesHost, ['tiles']] as [string, Array<'api' | 'tiles'>]]),
  ])
  const NO_KINDS: Array<'api' | 'tiles'> = []
  const hostKinds = (host: string) => kindsByHost.get(host) ?? NO_KINDS

  /** Step 1: a CORS preflight is answered at once, without a key, never faulted. */
  const preflight = (request: RequestLike, origin: string | null): TmapsAnswer =>
    answer(204, null, origin, {
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': request.headers.get('access-control-request-headers') ?? 'Content-Type',
      'Access-Control-Max-Age': '600',
    })

  /** Step 2: what the contract decides on, as the runtime saw it (or rebuilt it). */
  const collectFacts = (
    request: RequestLike,
    url: RequestTarget,
    origin: string | null,
    options?: FetchOptions,
  ): RequestFacts => {
    const facts: RequestFacts = {
      scheme: url.protocol.slice(0, -1),
      keyValues: apiKeyValues(url.search),
      origin,
      referer: request.headers.get('referer'),
    }
    return options?.facts ? Object.assign(facts, options.facts) : facts
  }

  /** Log and usage: every answered request, once, with the facts its decision used; returns the answer. */
  const record = (
    ex: Exchange,
    endpoint: string,
    sent: TmapsAnswer,
    rule: Rule,
    decision: Decision,
    reason?: string,
  ): TmapsAnswer => {
    const { request, plan: fault } = ex
    const { status } = sent
    ex.rule = rule
    const now = opts.now()
    usage.record(decision.facts.keyId ?? UNATTRIBUTED, endpoint, status, now)
    // Put in words (ISO time, reason from the rule and facts) when the log is read, not here.
    const entry: NewLogEntry = {
      time: now,
      method: request.method,
      host: ex.host,
      path: ex.path,
      query: ex.query,
      endpoint,
      status,
      outcome: status >= 200 && status < 400 ? 'accepted' : 'rejected',
      rule,
      facts: decision.facts,
      size: sent.body?.byteLength ?? 0,
      durationMs: performance.now() - ex.started,
    }
    if (reason !== undefined) entry.reason = reason
    if (ex.overridden) entry.overridden = true
    if (ex.warnings) entry.warnings = ex.warnings
    if (fault) {
      entry.fault = { rules: fault.rules, delayMs: fault.delayMs }
      if (fault.status !== null) entry.fault.status = fault.status
      if (fault.network !== null) entry.fault.network = fault.network
    }
    log.push(entry)
    return sent
  }

  /** The key a refused request still names, for usage (plain HTTP is refused before the lookup). */
  const attribute = (decision: Decision, facts: RequestFacts): Decision => {
    if (decision.facts.keyId !== null || facts.keyValues.length !== 1) return decision
    const key = lookup(facts.keyValues[0]!)
    return key ? { ...decision, facts: { ...decision.facts, keyId: key.id } } : decision
  }

  /** Step 3: infrastructure faults on demand, before the contract (the docs' 429 is the edge's). */
  const injectFault = async (
    ex: Exchange,
    plan: FaultPlan,
    name: string,
    decision: Decision,
    origin: string | null,
  ): Promise<TmapsAnswer | undefined> => {
    if (plan.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.delayMs))
    const which = `Injected fault ${plan.rules.join(', ')}`
    if (plan.network === 'reset') {
      const reset: TmapsAnswer = { status: 0, statusText: '', headers: {}, body: null, network: 'reset' }
      return record(
        ex,
        name,
        reset,
        'fault-injected',
        decision,
        `${which}: the connection was reset (no answer).`,
      )
    }
    if (plan.status !== null) {
      const error = FAULT_BODIES[plan.status]
      const reason = `${which}: ${plan.status} ${error}${plan.delayMs ? ` after ${plan.delayMs} ms` : ''}, before the auth check.`
      const retry =
        plan.status === 429 || plan.status === 503
          ? { 'Retry-After': String(RETRY_AFTER_SECONDS) }
          : undefined
      return record(
        ex,
        name,
        rejection({ status: plan.status, error }, origin, retry),
        'fault-injected',
        decision,
        reason,
      )
    }
    return undefined
  }

  /** A GET's cache key: the raw query without the key (another spelling is another entry, never wrong). */
  const getKey = (url: RequestTarget) => answerCacheKey(url.pathname, url.search)
  /** A GET answered before, without leaving the current tick. */
  const cached = (request: RequestLike, url: RequestTarget): Computed | undefined =>
    request.method === 'GET' && cache.size > 0 ? cache.get(getKey(url)) : undefined

  /** Step 5: the endpoint's answer, from the cache when the same request was answered before. */
  const runEndpoint = async (
    { endpoint, params }: ResolvedEndpoint,
    request: RequestLike,
    url: RequestTarget,
  ): Promise<Computed> => {
    let body: unknown
    let cacheKey: string | undefined
    if (request.method === 'GET') {
      cacheKey = getKey(url)
    } else {
      const text = await readBody(request)
      try {
        body = JSON.parse(text)
      } catch {
        throw new ParamError('invalid-param', 'body')
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ParamError('invalid-param', 'body')
      if (text.length <= CACHEABLE_BODY)
        cacheKey = `${endpoint.name} ${url.search.replace(/api_key=[^&]*/g, '')} ${text}`
    }
    const cached = cacheKey === undefined ? undefined : cache.get(cacheKey)
    if (cached) return cached
    const ctx: EndpointContext = {
      url: url instanceof URL ? url : new URL(url.href),
      params,
      body,
      seed: opts.dataSeed,
      renderer: opts.renderer,
      world: () => import('../data/world.ts').then((m) => m.worldFor(opts.dataSeed)),
    }
    const computed =
      endpoint.answers === 'png'
        ? withEtag(await endpoint.handle(ctx))
        : { bytes: utf8Json(await endpoint.handle(ctx)) }
    if (cacheKey !== undefined) {
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
      cache.set(cacheKey, computed)
    }
    return computed
  }

  /** An override's answer: its resolver gets the request, its parameters and the endpoint's own answer. */
  const runOverride = async (
    override: TmapsOverride<TmapsEndpointName>,
    resolved: ResolvedEndpoint,
    request: RequestLike,
    url: RequestTarget,
    origin: string | null,
  ): Promise<TmapsAnswer> => {
    const params: Record<string, string> = {}
    for (const [name, value] of new URLSearchParams(url.search))
      if (name !== 'api_key' && !(name in params)) params[name] = value
    Object.assign(params, resolved.params)
    let own: Promise<never> | undefined
    const result = await override({
      request,
      params,
      answer: () =>
        (own ??= runEndpoint(resolved, request, url).then(
          (c) =>
            (resolved.endpoint.answers === 'png'
              ? c.bytes
              : JSON.parse(textDecoder.decode(c.bytes))) as never,
        )),
    })
    const { status, bytes, contentType, headers } = await overrideAnswer(result)
    return answer(status, bytes, origin, headers, contentType)
  }

  /**
   * Answers a request; the answer names the rule that decided it (for the server's request
   * lines). A GET answered before under the same console state is answered at once, without a
   * promise; anything else (the first time, a fault, a body to read, a picture) takes the steps.
   */
  function handle(request: RequestLike, options?: FetchOptions): TmapsAnswer | Promise<TmapsAnswer> {
    // With an override in force, every request takes the steps (an override is not memoized).
    const key = overrides?.size ? undefined : memoKey(request, options)
    if (key === undefined) return respond(request, options, undefined, undefined)
    const memo = memos.get(key)
    if (memo === undefined || memo.generation !== generation())
      return respond(request, options, key, undefined)
    const plan = faults.plan(memo.name)
    if (plan !== undefined) return respond(request, options, undefined, plan)
    const ex: Exchange = {
      request,
      host: memo.host,
      path: memo.path,
      query: memo.query,
      started: performance.now(),
      plan: undefined,
      rule: undefined,
      warnings: memo.warnings,
    }
    return record(ex, memo.name, memo.answer, memo.rule, memo.decision)
  }

  /** The memo key of a plain GET: its URL and the two headers the contract reads. */
  const memoKey = (request: RequestLike, options?: FetchOptions): string | undefined => {
    if (request.method !== 'GET' || options?.facts !== undefined) return undefined
    const url = options?.url
    const href = url === undefined ? request.url : typeof url === 'string' ? url : url.href
    const key = `${href}\n${request.headers.get('origin') ?? '\0'}\n${request.headers.get('referer') ?? '\0'}`
    return key.length <= MEMO_KEY_LIMIT ? key : undefined
  }

  async function respond(
    request: RequestLike,
    options: FetchOptions | undefined,
    key: string | undefined,
    drawn: FaultPlan | undefined,
  ): Promise<TmapsAnswer> {
    const url = typeof options?.url === 'object' ? options.url : new URL(options?.url ?? request.url)
    const ex: Exchange = {
      request,
      host: url.host,
      path: mayHoldKey(url.pathname) ? maskSecrets(url.pathname) : url.pathname,
      query: maskQuery(url.search),
      started: performance.now(),
      plan: undefined,
      rule: undefined,
    }
    const step: Step = { name: 'unknown', decision: undefined, generation: -1, memo: false }
    const result = await respondTo(ex, url, options, drawn, step)
    if (ex.rule !== undefined) result.rule = ex.rule
    if (key !== undefined && step.memo && ex.plan === undefined && step.decision) {
      if (memos.size >= MEMO_SIZE) memos.delete(memos.keys().next().value!)
      Object.freeze(result.headers)
      memos.set(key, {
        generation: step.generation,
        name: step.name,
        host: ex.host,
        path: ex.path,
        query: ex.query,
        rule: ex.rule!,
        decision: step.decision,
        answer: Object.freeze(result),
        warnings: ex.warnings,
      })
    }
    return result
  }

  /** What `respondTo` tells `respond` for the memo: the endpoint's name, the decision, whether to keep it. */
  interface Step {
    name: string
    decision: Decision | undefined
    generation: number
    memo: boolean
  }

  async function respondTo(
    ex: Exchange,
    url: RequestTarget,
    options: FetchOptions | undefined,
    drawn: FaultPlan | undefined,
    step: Step,
  ): Promise<TmapsAnswer> {
    const { request } = ex
    const origin = options?.facts?.origin !== undefined ? options.facts.origin : request.headers.get('origin')
    if (request.method === 'OPTIONS') return preflight(request, origin)

    const facts = collectFacts(request, url, origin, options)
    const kinds = hostKinds(url.host)
    // One lookup: the endpoint for this method, else (a wrong method) the name of its path.
    let resolved: ResolvedEndpoint | undefined
    for (const kind of kinds) resolved ??= resolveEndpoint(kind, request.method, url.pathname)
    const name =
      resolved?.endpoint.name ??
      kinds.map((k) => endpointName(k, url.pathname)).find((n) => n !== 'unknown') ??
      'unknown'

    const plan = drawn ?? faults.plan(name)
    if (plan) {
      ex.plan = plan
      await ready
      const faulted = await injectFault(ex, plan, name, attribute(decide(facts, lookup), facts), origin)
      if (faulted) return faulted
    }

    await ready
    // The state this decision saw: a memo of it holds until the state changes.
    step.generation = generation()
    const decision = attribute(decide(facts, lookup), facts)
    step.name = name
    step.decision = decision
    if (decision.outcome === 'rejected') {
      step.memo = true
      return record(ex, name, rejection(decision.rule, origin), decision.rule, decision)
    }

    if (!resolved) {
      step.memo = true
      return record(ex, name, rejection('not-found', origin), 'not-found', decision)
    }
    const { endpoint } = resolved
    ex.warnings = ignoredParams(endpoint.method, endpoint.path, new URLSearchParams(url.search))
    try {
      const override = overrides?.take(endpoint.name)
      if (override) {
        ex.overridden = true
        const overridden = await runOverride(override, resolved, request, url, origin)
        return record(ex, endpoint.name, overridden, decision.rule, decision, OVERRIDDEN)
      }
      const computed = cached(request, url) ?? (await runEndpoint(resolved, request, url))
      if (computed.etag === undefined) {
        step.name = endpoint.name
        step.memo = true
        return record(ex, endpoint.name, answer(200, computed.bytes, origin), decision.rule, decision)
      }
      // Pictures are cached by browsers and proxies like any tile server's (errors never are).
      const caching = { 'Cache-Control': IMAGE_CACHE_CONTROL, ETag: computed.etag }
      if (matchesEtag(request.headers.get('if-none-match'), computed.etag)) {
        return record(ex, endpoint.name, answer(304, null, origin, caching), decision.rule, decision)
      }
      const png = answer(200, computed.bytes, origin, caching, CONTENT_TYPES[endpoint.answers])
      return record(ex, endpoint.name, png, decision.rule, decision)
    } catch (error) {
      if (error instanceof ParamError) {
        const refused = rejection({ status: 400, error: error.message }, origin)
        return record(ex, endpoint.name, refused, error.rule, decision, `Authorized, but ${error.message}.`)
      }
      if (error instanceof BodyReadError) {
        return record(ex, endpoint.name, rejection(error.rule, origin), error.rule, decision)
      }
      if (error instanceof RendererBusyError) {
        const retry = { 'Retry-After': String(error.retryAfterSeconds) }
        const busy = rejection('renderer-busy', origin, retry)
        return record(ex, endpoint.name, busy, 'renderer-busy', decision, `Authorized, but ${error.message}.`)
      }
      if (error instanceof NotFoundError) {
        const missing = rejection(
          error.detail === undefined ? 'not-found' : { status: 404, error: `not found (${error.detail})` },
          origin,
        )
        return record(ex, endpoint.name, missing, 'not-found', decision, `Authorized, but ${error.message}.`)
      }
      console.error(
        `tmaps-mock: ${endpoint.name} failed (this is a bug in tmaps-mock, please report it):`,
        error,
      )
      return record(ex, endpoint.name, rejection('internal-error', origin), 'internal-error', decision)
    }
  }

  return handle
}

const textDecoder = new TextDecoder()
const OVERRIDDEN = 'Authorized; answered by an override (mock.use), not by the mock itself.'

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
 * A GET's answer-cache key: its path and its raw query without `api_key` (another spelling of
 * the same request is another entry, which is never wrong). The usual query, with one key, is
 * cut without splitting it.
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
