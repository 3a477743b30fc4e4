import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { Hono } from 'hono/tiny'
import { type ConsoleErrorCode, TmapsConsoleError } from '../../console/console-error.ts'
import { maskSecrets } from '../../contract/key-format.ts'
import { toResponse } from '../../core/answers.ts'
import type { FaultInput, RequestLike, TmapsMockCore } from '../../core/create-core.ts'
import { compileOverride } from '../../core/override-specs.ts'
import { PathTarget } from '../../core/request-target.ts'
import { UNATTRIBUTED } from '../../store/schemas.ts'
import { deeperThan, isObject, MAX_JSON_DEPTH } from '../../validate/validate.ts'
import { builtConsoleHtml, type ConsolePageOptions, consolePage, consolePagePolicy } from './console-page.ts'
import { type ControlAccessOptions, controlAccess, isPageNavigation } from './control-access.ts'
import { CONTROL_PREFIX } from './node-request.ts'

const STATUS: Record<ConsoleErrorCode, 400 | 404 | 409 | 503> = {
  'invalid-input': 400,
  'not-found': 404,
  conflict: 409,
  'forbidden-transition': 409,
  'not-ready': 503,
}

const fail = (status: 400 | 404, message: string) => new HTTPException(status, { message })

/**
 * The request body as a JSON object, or a 400 saying what to send (the server read it within its 8 MB limit).
 */
async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  let body: unknown
  try {
    body = text === '' ? {} : JSON.parse(text)
  } catch {
    throw fail(400, 'The request body is not JSON. Send a JSON object with Content-Type: application/json.')
  }
  if (!isObject(body)) throw fail(400, 'The request body must be a JSON object.')
  if (deeperThan(body, MAX_JSON_DEPTH))
    throw fail(
      400,
      `The request body is nested deeper than ${MAX_JSON_DEPTH} levels; no console action needs that.`,
    )
  return body
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name]
  if (typeof value !== 'string') throw fail(400, `"${name}" must be a string.`)
  return value
}

function hostnames(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((d) => typeof d === 'string'))
    throw fail(400, '"domains" must be an array of hostnames.')
  return value
}

/**
 * The provider's console over HTTP, as JSON under `/__console/` (the server of `tmaps-mock serve`
 * mounts it), on Hono: keys, domains, links, usage, the request log (also as a live SSE stream),
 * snapshot, restore, reset, fault rules and overrides (declarative: a named scenario, a status with a
 * body, a delay). `access` (the server always gives one) puts `controlAccess` before every route. A
 * console refusal answers its message with 400, 404, 409 or 503; a created resource 201; a path
 * that exists with another method 405. Key values appear only in the answer that creates them.
 * @example
 * const control = createControlApi(mock); await control(new Request('https://localhost:8443/__console/keys'))
 */
export function createControlApi(
  core: TmapsMockCore,
  access?: ControlAccessOptions,
  page: ConsolePageOptions = {},
): (request: Request) => Promise<Response> {
  const root = new Hono({ strict: false })
  const app = root.basePath(CONTROL_PREFIX)
  // Every error the control API answers is masked here, once: a message may echo what the caller
  // sent (a key id, a fault's endpoint, an override's field), and a key pasted there must not come back.
  app.use(async (c, next) => {
    await next()
    if (c.res.status < 400 || !c.res.headers.get('content-type')?.includes('json')) return
    const text = await c.res.clone().text()
    const masked = maskSecrets(text)
    if (masked !== text) c.res = new Response(masked, { status: c.res.status, headers: c.res.headers })
  })
  // One page token per server: the console page carries it, and the access checks ask it of every
  // browser request of the server's own origin (see controlAccess).
  const pageToken = randomBytes(24).toString('base64url')
  if (access) app.use(...controlAccess({ ...access, pageToken }))
  pageRoute(app, root, { ...page, pageToken })
  const keyOr404 = keyRoutes(app, core)

  app.get('/usage/:key', (c) => {
    const ref = c.req.param('key')
    return c.json(core.usage(ref === UNATTRIBUTED ? UNATTRIBUTED : keyOr404(ref).id))
  })
  const changes = createChanges(core)
  logRoutes(app, core, changes)
  app.get('/snapshot', (c) => c.json(core.snapshot()))
  app.put('/snapshot', async (c) => {
    try {
      await core.restore(await c.req.text())
    } catch (error) {
      if (error instanceof TmapsConsoleError) throw error
      throw fail(400, (error as Error).message)
    }
    return c.body(null, 204)
  })
  app.post('/reset', async (c) => {
    const created = await core.reset()
    changes.emit('log')
    return c.json(created)
  })
  faultRoutes(app, core, changes)
  overrideRoutes(app, core)

  // A path that exists with another method: 405. Registered after every route, so it only answers
  // when no route of that path took the method. The path is echoed masked (it may hold a key) and cut short.
  const echo = (c: Context) => {
    const shown = maskSecrets(
      `${CONTROL_PREFIX}${new URL(c.req.url).pathname.slice(CONTROL_PREFIX.length) || '/'}`,
    )
    return shown.length > 120 ? `${shown.slice(0, 119)}…` : shown
  }
  for (const path of new Set(root.routes.filter((r) => r.method !== 'ALL').map((r) => r.path)))
    root.all(path, (c) => c.json({ error: `${c.req.method} is not allowed on ${echo(c)}.` }, 405))
  app.notFound((c) =>
    c.json(
      {
        error: `No control API route ${echo(c)}. See docs/server.md, "Control API" (in the package: node_modules/tmaps-mock/docs/server.md).`,
      },
      404,
    ),
  )
  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ error: error.message }, error.status)
    if (error instanceof TmapsConsoleError)
      return c.json({ error: error.message, code: error.code }, STATUS[error.code])
    console.error(
      'tmaps-mock: the control API failed (this is a bug in tmaps-mock, please report it):',
      error,
    )
    return c.json({ error: 'internal error' }, 500)
  })
  return async (request) => app.fetch(request)
}

/**
 * The request log: read, cleared, streamed (`/log/stream`: entries; `/events`: entries and
 * changes, what the console page listens to), and a request sent as a caller (`/requests`).
 */
function logRoutes(app: Hono, core: TmapsMockCore, changes: Changes): void {
  const readers = { count: 0 }
  app.get('/log', (c) => c.json(core.log.entries()))
  app.delete('/log', (c) => {
    core.log.clear()
    changes.emit('log')
    return c.body(null, 204)
  })
  app.get('/log/stream', (c) => logStream(core, c, readers))
  app.get('/events', (c) => logStream(core, c, readers, changes))
  app.post('/requests', async (c) => {
    const { request, target } = await simulatedRequest(c)
    const options = { url: target, host: c.req.header('host'), facts: { simulated: true } }
    return toResponse(await core.answer(request, options))
  })
}

/** Fault rules: listed, added, removed; each change told on `/events`. */
function faultRoutes(app: Hono, core: TmapsMockCore, changes: Changes): void {
  app.get('/faults', (c) => c.json(core.faults.list()))
  app.post('/faults', async (c) => {
    const body = await readJson(c)
    let added: ReturnType<typeof core.faults.add>
    try {
      added = core.faults.add(body as FaultInput)
    } catch (error) {
      throw fail(400, (error as Error).message)
    }
    changes.emit('faults')
    return c.json(added, 201)
  })
  app.delete('/faults/:id', (c) => {
    const id = c.req.param('id')
    if (!core.faults.remove(id))
      throw fail(404, `No fault rule ${id}: GET ${CONTROL_PREFIX}/faults lists them.`)
    changes.emit('faults')
    return c.body(null, 204)
  })
  app.delete('/faults', (c) => {
    core.faults.clear()
    changes.emit('faults')
    return c.body(null, 204)
  })
}

/** At most this many overrides at once on the control API (as for fault rules). */
export const MAX_OVERRIDES = 100
/** The largest JSON body an override of the control API answers: 1 MB. */
export const OVERRIDE_BODY_LIMIT = 1024 * 1024

/** An override of the control API, as `GET /__console/overrides` lists it. */
interface OverrideRecord {
  id: string
  endpoint: string
  scenario?: string
  confidence?: number
  status?: number
  body?: unknown
  delayMs?: number
  /** As given; `null`: until removed. */
  times: number | null
  /** Requests it still answers (`null`: until removed). */
  remaining: number | null
  /** Requests it answered so far. */
  hits: number
}

/**
 * `/__console/overrides`: overrides as data (functions cannot cross HTTP), each applied with
 * `mock.use`, so it runs only after the key, domain and HTTPS checks and the log marks its
 * answers overridden. Newest first, as `mock.use` applies them.
 */
/**
 * The console's keys and domains: list, create, enable, disable, revoke, link. Returns the key lookup (404
 * when none).
 */
function keyRoutes(app: Hono, core: TmapsMockCore) {
  const keyOr404 = (ref: string) => {
    const key = core.console.getKey(ref)
    if (!key) throw fail(404, 'No key matches: name it by its id (key_…) or its full value.')
    return key
  }
  app.get('/keys', (c) => c.json(core.console.listKeys()))
  app.post('/keys', async (c) => {
    const body = await readJson(c)
    const domains = body.domains === undefined ? undefined : hostnames(body.domains)
    const created = await core.console.createKey({
      name: stringField(body, 'name'),
      ...(domains !== undefined && { domains }),
      ...(body.value !== undefined && { value: stringField(body, 'value') }),
    })
    return c.json(created, 201)
  })
  app.get('/keys/:key', (c) => c.json(keyOr404(c.req.param('key'))))
  app.post('/keys/:key/:action', async (c) => {
    const key = keyOr404(c.req.param('key')).id
    const action = c.req.param('action')
    if (action !== 'disable' && action !== 'enable' && action !== 'revoke')
      throw fail(404, `No action "${action}": use disable, enable or revoke.`)
    return c.json(await core.console[`${action}Key`](key))
  })
  app.put('/keys/:key/domains', async (c) => {
    const domains = hostnames((await readJson(c)).domains)
    return c.json(await core.console.setKeyDomains(keyOr404(c.req.param('key')).id, domains))
  })
  app.put('/keys/:key/domains/:hostname', async (c) =>
    c.json(await core.console.linkDomain(keyOr404(c.req.param('key')).id, c.req.param('hostname'))),
  )
  app.delete('/keys/:key/domains/:hostname', async (c) =>
    c.json(await core.console.unlinkDomain(keyOr404(c.req.param('key')).id, c.req.param('hostname'))),
  )
  app.get('/domains', (c) => c.json(core.console.listDomains()))
  app.post('/domains', async (c) =>
    c.json(await core.console.addDomain(stringField(await readJson(c), 'hostname')), 201),
  )
  app.delete('/domains/:hostname', async (c) => {
    await core.console.removeDomain(c.req.param('hostname'))
    return c.body(null, 204)
  })
  return keyOr404
}

function overrideRoutes(app: Hono, core: TmapsMockCore): void {
  const overrides = new Map<string, { record: OverrideRecord; dispose: () => void }>()
  let next = 1
  const remove = (id: string) => {
    const entry = overrides.get(id)
    if (!entry) return false
    entry.dispose()
    overrides.delete(id)
    return true
  }
  app.get('/overrides', (c) => c.json([...overrides.values()].map((o) => o.record).reverse()))
  app.post('/overrides', async (c) => {
    const body = await readJson(c)
    if (overrides.size >= MAX_OVERRIDES)
      throw fail(
        400,
        `At most ${MAX_OVERRIDES} overrides: delete some first (DELETE ${CONTROL_PREFIX}/overrides/<id>, or all).`,
      )
    if (body.body !== undefined && JSON.stringify(body.body).length > OVERRIDE_BODY_LIMIT)
      throw fail(
        400,
        `body.body is larger than ${OVERRIDE_BODY_LIMIT / 1024 / 1024} MB: answer a smaller body, or use mock.use with a resolver.`,
      )
    let compiled: ReturnType<typeof compileOverride>
    try {
      compiled = compileOverride(body, 'body')
    } catch (error) {
      throw fail(400, `${(error as Error).message}.`)
    }
    const { endpoint, resolver, times } = compiled
    const id = `ov_${next++}`
    const record: OverrideRecord = { id, endpoint, times: times ?? null, remaining: times ?? null, hits: 0 }
    for (const field of ['scenario', 'confidence', 'status', 'body', 'delayMs'] as const)
      if (body[field] !== undefined) Object.assign(record, { [field]: body[field] })
    const dispose = core.use(
      endpoint,
      (context) => {
        record.hits++
        if (record.remaining !== null && --record.remaining === 0) overrides.delete(id)
        return resolver(context)
      },
      times === undefined ? {} : { times },
    )
    overrides.set(id, { record, dispose })
    return c.json(record, 201)
  })
  app.delete('/overrides/:id', (c) => {
    const id = c.req.param('id')
    if (!remove(id)) throw fail(404, `No override ${id}: GET ${CONTROL_PREFIX}/overrides lists them.`)
    return c.body(null, 204)
  })
  app.delete('/overrides', (c) => {
    for (const id of [...overrides.keys()]) remove(id)
    return c.body(null, 204)
  })
}

/**
 * A reader of the log stream this many bytes behind is disconnected (it stopped reading). In
 * bytes, not entries: an entry of a request with a 14 KB path weighs 30 KB, and 32 stalled
 * readers must not hold hundreds of MB.
 */
export const LOG_STREAM_LAG_BYTES = 1024 * 1024
/** At most this many log streams at once. */
export const LOG_STREAM_READERS = 32

/**
 * The console's own page at `/__console/` for a browser's navigation (the server redirects its
 * root there), carrying the page token; anything else (JSON clients, a script's fetch) gets the routes.
 */
function pageRoute(app: Hono, root: Hono, page: ConsolePageOptions & { pageToken: string }): void {
  let html: string | undefined // read once, when the page is first asked for
  app.get('/', (c) => {
    if (!isPageNavigation(c.req))
      return c.json({
        routes: root.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`),
      })
    const nonce = randomBytes(16).toString('base64')
    html ??= page.html ?? builtConsoleHtml()
    return c.html(consolePage(html, page, nonce), 200, {
      'Content-Security-Policy': consolePagePolicy(nonce),
      // A window a script of this origin opens on the page is cut off from it: it cannot read the token.
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    })
  })
}

/**
 * What changed, as `GET /__console/events` says it: the keys and domains, the fault rules, or the log
 * (cleared).
 */
type Changed = 'console' | 'faults' | 'log'
interface Changes {
  emit(what: Changed): void
  subscribe(listener: (what: Changed) => void): () => void
}

/**
 * The control API's change events: its own writes of faults and the log, and every change of the console
 * state (`core.onChange`, whoever made it).
 */
function createChanges(core: TmapsMockCore): Changes {
  const listeners = new Set<(what: Changed) => void>()
  const emit = (what: Changed) => {
    for (const listener of listeners) listener(what)
  }
  core.onChange(() => emit('console'))
  return {
    emit,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * `POST /__console/requests`: a TMaps request sent through the mock with the `Origin` and
 * `Referer` the body names (none: a server's or curl's), as the console page's composer sends
 * the callers a browser cannot be (another site, a sandboxed frame, a server). Body:
 * `{ "path": "/geocoding/forward?q=Sfax&api_key=…", "method"?: "GET" | "POST", "body"?: string,
 * "origin"?: string, "referer"?: string }`. The answer is TMaps's, as the mock gave it.
 */
async function simulatedRequest(c: Context): Promise<{ request: RequestLike; target: PathTarget }> {
  const body = await readJson(c)
  const path = stringField(body, 'path')
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith(CONTROL_PREFIX))
    throw fail(400, '"path" must be a TMaps path and query, e.g. /geocoding/forward?q=Sfax&api_key=<key>.')
  const method = body.method ?? 'GET'
  if (method !== 'GET' && method !== 'POST') throw fail(400, '"method" must be GET or POST.')
  const headers = new Headers()
  for (const name of ['origin', 'referer'] as const) {
    if (body[name] === undefined || body[name] === null) continue
    headers.set(name, stringField(body, name))
  }
  const text = body.body === undefined ? undefined : stringField(body, 'body')
  if (text !== undefined) headers.set('content-type', 'application/json')
  // On the server's origin, as the HTTPS server's own requests: the mock routes it to its TMaps host.
  const target = new PathTarget('https:', path)
  const request: RequestLike = {
    method,
    headers,
    get url() {
      return target.href
    },
    text: () => Promise.resolve(method === 'POST' ? (text ?? '') : ''),
  }
  return { request, target }
}

/**
 * The request log as Server-Sent Events (Hono's `streamSSE`): one `entry` event per answered
 * request, until the client leaves. A reader that falls `LOG_STREAM_LAG_BYTES` behind (bytes
 * written that it has not read: it stopped reading) gets an `overflow` event and is
 * disconnected, so a stalled client never grows the server's memory.
 */
async function logStream(
  core: TmapsMockCore,
  c: Context,
  readers: { count: number },
  changes?: Changes,
): Promise<Response> {
  if (readers.count >= LOG_STREAM_READERS)
    return c.json(
      {
        error: `Too many log streams (${LOG_STREAM_READERS}): close one, or read GET ${CONTROL_PREFIX}/log.`,
      },
      503,
    )
  readers.count++
  // Loaded by the first log stream only: a console that never streams never pays for it.
  const { streamSSE } = await import('hono/streaming')
  return streamSSE(c, async (stream) => {
    let behind = 0
    let done = false
    let stop = () => {}
    const stopped = new Promise<void>((resolve) => {
      stop = () => {
        done = true
        resolve()
      }
    })
    // Written as the old stream wrote them (event, id, data), byte for byte; each write settles
    // once the reader took it, so `behind` counts the bytes it has not read.
    const send = (text: string) => {
      if (done) return
      const bytes = Buffer.byteLength(text)
      if (behind + bytes > LOG_STREAM_LAG_BYTES) {
        void stream.write(
          `event: overflow\ndata: {"error":"the reader fell ${LOG_STREAM_LAG_BYTES / 1024 / 1024} MB behind: disconnected"}\n\n`,
        )
        stop()
        return
      }
      behind += bytes
      void stream.write(text).then(() => {
        behind -= bytes
      })
    }
    send(': tmaps-mock request log\n\n')
    const off = core.log.subscribe((entry) =>
      send(`event: entry\nid: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`),
    )
    const offChanges = changes?.subscribe((what) => send(`event: change\ndata: {"what":"${what}"}\n\n`))
    const heartbeat = setInterval(() => send(': keep-alive\n\n'), 15_000)
    stream.onAbort(stop) // the server cancels the body when the client leaves
    c.req.raw.signal.addEventListener('abort', stop, { once: true })
    await stopped // then streamSSE closes the stream, after what was written
    readers.count--
    off()
    offChanges?.()
    clearInterval(heartbeat)
  })
}
