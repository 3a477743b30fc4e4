import { type ConsoleErrorCode, TmapsConsoleError } from '../../console/console-error.ts'
import { UNATTRIBUTED } from '../../console/usage.ts'
import { maskSecrets } from '../../contract/key-format.ts'
import { STATUS_TEXT } from '../../core/answers.ts'
import type { FaultInput, TmapsMockCore } from '../../core/create-core.ts'
import { compileOverride } from '../../core/scenarios.ts'

/** Where the control API lives on the server. */
export const CONTROL_PREFIX = '/__console'

const STATUS: Record<ConsoleErrorCode, number> = {
  'invalid-input': 400,
  'not-found': 404,
  conflict: 409,
  'forbidden-transition': 409,
  'not-ready': 503,
}

class HttpError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

type Params = Record<string, string>
type Route = {
  method: string
  pattern: string
  handle: (ctx: { params: Params; request: Request; url: URL }) => Promise<Response> | Response
}

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    statusText: STATUS_TEXT[status] ?? '',
    headers: status === 204 ? {} : { 'Content-Type': 'application/json' },
  })

/** The largest request body the control API reads: 8 MB (a snapshot of about 40,000 keys). */
export const CONTROL_BODY_LIMIT = 8 * 1024 * 1024

async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > CONTROL_BODY_LIMIT) throw tooLarge()
  try {
    const text = await request.text()
    if (text.length > CONTROL_BODY_LIMIT) throw tooLarge()
    return text
  } catch (error) {
    if (error instanceof HttpError) throw error
    if ((error as { status?: unknown }).status === 413) throw tooLarge()
    throw new HttpError(499, 'The client left before its request body arrived.')
  }
}
const tooLarge = () =>
  new HttpError(413, `The request body is larger than ${CONTROL_BODY_LIMIT / 1024 / 1024} MB.`)

async function readJson(request: Request): Promise<Record<string, unknown>> {
  const text = await readText(request)
  let body: unknown
  try {
    body = text === '' ? {} : JSON.parse(text)
  } catch {
    throw new HttpError(
      400,
      'The request body is not JSON. Send a JSON object with Content-Type: application/json.',
    )
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.')
  }
  return body as Record<string, unknown>
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name]
  if (typeof value !== 'string') throw new HttpError(400, `"${name}" must be a string.`)
  return value
}

/**
 * The provider's console over HTTP, as JSON under `/__console/` (the server of `tmaps-mock serve`
 * mounts it): keys, domains, links, usage, the request log (also as a live SSE stream),
 * snapshot, restore, reset, fault rules and overrides (declarative: a named scenario, a status with a
 * body, a delay). A console refusal answers its message with 400, 404, 409 or
 * 503; a created resource 201. Key values appear only in the answer that creates them.
 * @example const control = createControlApi(mock); await control(new Request('https://localhost:8443/__console/keys'))
 */
export function createControlApi(core: TmapsMockCore): (request: Request) => Promise<Response> {
  const readers = { count: 0 }
  const routes: Route[] = [
    { method: 'GET', pattern: '/keys', handle: () => json(200, core.console.listKeys()) },
    {
      method: 'POST',
      pattern: '/keys',
      handle: async ({ request }) => {
        const body = await readJson(request)
        const domains = body.domains
        if (
          domains !== undefined &&
          (!Array.isArray(domains) || !domains.every((d) => typeof d === 'string'))
        ) {
          throw new HttpError(400, '"domains" must be an array of hostnames.')
        }
        const created = await core.console.createKey({
          name: stringField(body, 'name'),
          ...(domains !== undefined && { domains: domains as string[] }),
          ...(body.value !== undefined && { value: stringField(body, 'value') }),
        })
        return json(201, created)
      },
    },
    { method: 'GET', pattern: '/keys/:key', handle: ({ params }) => json(200, keyOr404(params.key!)) },
    {
      method: 'POST',
      pattern: '/keys/:key/:action',
      handle: async ({ params }) => {
        const key = keyOr404(params.key!).id
        switch (params.action) {
          case 'disable':
            return json(200, await core.console.disableKey(key))
          case 'enable':
            return json(200, await core.console.enableKey(key))
          case 'revoke':
            return json(200, await core.console.revokeKey(key))
          default:
            throw new HttpError(404, `No action "${params.action}": use disable, enable or revoke.`)
        }
      },
    },
    {
      method: 'PUT',
      pattern: '/keys/:key/domains',
      handle: async ({ params, request }) => {
        const domains = (await readJson(request)).domains
        if (!Array.isArray(domains) || !domains.every((d) => typeof d === 'string')) {
          throw new HttpError(400, '"domains" must be an array of hostnames.')
        }
        return json(200, await core.console.setKeyDomains(keyOr404(params.key!).id, domains as string[]))
      },
    },
    {
      method: 'PUT',
      pattern: '/keys/:key/domains/:hostname',
      handle: async ({ params }) =>
        json(200, await core.console.linkDomain(keyOr404(params.key!).id, params.hostname!)),
    },
    {
      method: 'DELETE',
      pattern: '/keys/:key/domains/:hostname',
      handle: async ({ params }) =>
        json(200, await core.console.unlinkDomain(keyOr404(params.key!).id, params.hostname!)),
    },
    { method: 'GET', pattern: '/domains', handle: () => json(200, core.console.listDomains()) },
    {
      method: 'POST',
      pattern: '/domains',
      handle: async ({ request }) =>
        json(201, await core.console.addDomain(stringField(await readJson(request), 'hostname'))),
    },
    {
      method: 'DELETE',
      pattern: '/domains/:hostname',
      handle: async ({ params }) => {
        await core.console.removeDomain(params.hostname!)
        return json(204, null)
      },
    },
    {
      method: 'GET',
      pattern: '/usage/:key',
      handle: ({ params }) =>
        json(200, core.usage(params.key === UNATTRIBUTED ? UNATTRIBUTED : keyOr404(params.key!).id)),
    },
    { method: 'GET', pattern: '/log', handle: () => json(200, core.log.entries()) },
    { method: 'GET', pattern: '/log/stream', handle: ({ request }) => logStream(core, request, readers) },
    { method: 'GET', pattern: '/snapshot', handle: () => json(200, core.snapshot()) },
    {
      method: 'PUT',
      pattern: '/snapshot',
      handle: async ({ request }) => {
        const text = await readText(request)
        try {
          await core.restore(text)
        } catch (error) {
          if (error instanceof TmapsConsoleError) throw error
          throw new HttpError(400, (error as Error).message)
        }
        return json(204, null)
      },
    },
    { method: 'POST', pattern: '/reset', handle: async () => json(200, await core.reset()) },
    { method: 'GET', pattern: '/faults', handle: () => json(200, core.faults.list()) },
    {
      method: 'POST',
      pattern: '/faults',
      handle: async ({ request }) => {
        const body = await readJson(request)
        try {
          return json(201, core.faults.add(body as FaultInput))
        } catch (error) {
          throw new HttpError(400, (error as Error).message)
        }
      },
    },
    {
      method: 'DELETE',
      pattern: '/faults/:id',
      handle: ({ params }) => {
        if (!core.faults.remove(params.id!))
          throw new HttpError(404, `No fault rule ${params.id}: GET ${CONTROL_PREFIX}/faults lists them.`)
        return json(204, null)
      },
    },
    {
      method: 'DELETE',
      pattern: '/faults',
      handle: () => {
        core.faults.clear()
        return json(204, null)
      },
    },
  ]

  routes.push(...overrideRoutes(core))

  const keyOr404 = (ref: string) => {
    const key = core.console.getKey(ref)
    if (!key) throw new HttpError(404, 'No key matches: name it by its id (key_…) or its full value.')
    return key
  }

  return async function control(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname.slice(CONTROL_PREFIX.length) || '/'
    let pathMatched = false
    for (const route of routes) {
      const params = match(route.pattern, path)
      if (!params) continue
      pathMatched = true
      if (route.method !== request.method) continue
      try {
        return await route.handle({ params, request, url })
      } catch (error) {
        if (error instanceof HttpError) return json(error.status, { error: error.message })
        if (error instanceof TmapsConsoleError)
          return json(STATUS[error.code], { error: error.message, code: error.code })
        console.error(
          'tmaps-mock: the control API failed (this is a bug in tmaps-mock, please report it):',
          error,
        )
        return json(500, { error: 'internal error' })
      }
    }
    // The path is echoed masked (it may hold a key) and cut short.
    const shown = maskSecrets(`${CONTROL_PREFIX}${path}`)
    const echoed = shown.length > 120 ? `${shown.slice(0, 119)}…` : shown
    return pathMatched
      ? json(405, { error: `${request.method} is not allowed on ${echoed}.` })
      : json(404, { error: `No control API route ${echoed}. See the README, "Control API".` })
  }
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
function overrideRoutes(core: TmapsMockCore): Route[] {
  const overrides = new Map<string, { record: OverrideRecord; dispose: () => void }>()
  let next = 1
  const remove = (id: string) => {
    const entry = overrides.get(id)
    if (!entry) return false
    entry.dispose()
    overrides.delete(id)
    return true
  }
  return [
    {
      method: 'GET',
      pattern: '/overrides',
      handle: () => json(200, [...overrides.values()].map((o) => o.record).reverse()),
    },
    {
      method: 'POST',
      pattern: '/overrides',
      handle: async ({ request }) => {
        const body = await readJson(request)
        if (overrides.size >= MAX_OVERRIDES)
          throw new HttpError(
            400,
            `At most ${MAX_OVERRIDES} overrides: delete some first (DELETE ${CONTROL_PREFIX}/overrides/<id>, or all).`,
          )
        if (body.body !== undefined && JSON.stringify(body.body).length > OVERRIDE_BODY_LIMIT)
          throw new HttpError(
            400,
            `body.body is larger than ${OVERRIDE_BODY_LIMIT / 1024 / 1024} MB: answer a smaller body, or use mock.use with a resolver.`,
          )
        let compiled: ReturnType<typeof compileOverride>
        try {
          compiled = compileOverride(body, 'body')
        } catch (error) {
          throw new HttpError(400, `${(error as Error).message}.`)
        }
        const { endpoint, resolver, times } = compiled
        const id = `ov_${next++}`
        const fields = ['scenario', 'confidence', 'status', 'body', 'delayMs'] as const
        const record: OverrideRecord = {
          id,
          endpoint,
          times: times ?? null,
          remaining: times ?? null,
          hits: 0,
        }
        for (const field of fields)
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
        return json(201, record)
      },
    },
    {
      method: 'DELETE',
      pattern: '/overrides/:id',
      handle: ({ params }) => {
        if (!remove(params.id!))
          throw new HttpError(404, `No override ${params.id}: GET ${CONTROL_PREFIX}/overrides lists them.`)
        return json(204, null)
      },
    },
    {
      method: 'DELETE',
      pattern: '/overrides',
      handle: () => {
        for (const id of [...overrides.keys()]) remove(id)
        return json(204, null)
      },
    },
  ]
}

function match(pattern: string, path: string): Params | null {
  const want = pattern.split('/')
  const got = path.replace(/\/$/, '').split('/')
  if (want.length !== got.length) return null
  const params: Params = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const g = got[i]!
    if (w.startsWith(':')) {
      if (g === '') return null
      try {
        params[w.slice(1)] = decodeURIComponent(g)
      } catch {
        return null
      }
    } else if (w !== g) return null
  }
  return params
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
 * The request log as Server-Sent Events: one `entry` event per answered request, until the
 * client leaves. A reader that falls `LOG_STREAM_LAG_BYTES` behind (it stopped reading)
 * gets an `overflow` event and is disconnected, so a stalled client never grows the server's memory.
 */
function logStream(core: TmapsMockCore, request: Request, readers: { count: number }): Response {
  if (readers.count >= LOG_STREAM_READERS) {
    return json(503, {
      error: `Too many log streams (${LOG_STREAM_READERS}): close one, or read GET ${CONTROL_PREFIX}/log.`,
    })
  }
  readers.count++
  const encoder = new TextEncoder()
  let stopped = false
  let off = () => {}
  let heartbeat: ReturnType<typeof setInterval> | undefined
  const stop = () => {
    if (stopped) return
    stopped = true
    readers.count--
    off()
    clearInterval(heartbeat)
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const send = (text: string) => {
          if (stopped) return
          if ((controller.desiredSize ?? 0) <= 0) {
            controller.enqueue(
              encoder.encode(
                `event: overflow\ndata: {"error":"the reader fell ${LOG_STREAM_LAG_BYTES / 1024 / 1024} MB behind: disconnected"}\n\n`,
              ),
            )
            stop()
            controller.close()
            return
          }
          controller.enqueue(encoder.encode(text))
        }
        send(': tmaps-mock request log\n\n')
        off = core.log.subscribe((entry) =>
          send(`event: entry\nid: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`),
        )
        heartbeat = setInterval(() => send(': keep-alive\n\n'), 15_000)
        request.signal.addEventListener('abort', () => {
          stop()
          try {
            controller.close()
          } catch {
            // already closed
          }
        })
      },
      cancel: stop,
    },
    { highWaterMark: LOG_STREAM_LAG_BYTES, size: (chunk) => chunk.byteLength },
  )
  return new Response(stream, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' },
  })
}
