import type { LogEntry, LogListener } from '../src/console/request-log.ts'
import type { UsageReport } from '../src/console/usage.ts'
import { createTmapsCore } from '../src/core/create-core.ts'
import type { FaultInput, FaultRule } from '../src/core/faults.ts'
import type { TmapsWorker } from '../src/runtimes/browser/index.ts'
import type { TmapsSnapshot } from '../src/store/snapshot.ts'

/**
 * What the playground's panels use of a mock: the page's own (`TmapsWorker`), or a server's
 * (`connectToServer`).
 */
export interface PlaygroundMock
  extends Pick<TmapsWorker, 'console' | 'snapshot' | 'restore' | 'reset' | 'usage' | 'onChange' | 'options'> {
  log: Pick<TmapsWorker['log'], 'entries' | 'subscribe'> & { clear(): void | Promise<void> }
  faults: {
    add(input: FaultInput): FaultRule | Promise<FaultRule>
    list(): FaultRule[]
    remove(id: string): boolean | Promise<boolean>
    clear(): void | Promise<void>
  }
  onOtherTabsRequest(listener: (entry: LogEntry, page: string) => void): () => void
  /** Set when the page drives `tmaps-mock serve` (its mock runs there). */
  server?: ServerLink
}

/**
 * The server the page drives: a request as a caller the browser cannot be, and what changed besides the
 * state.
 */
export interface ServerLink {
  /** Sends a TMaps request through the server with these `Origin` and `Referer` (none: a server's). */
  send(request: SimulatedRequest): Promise<Response>
  /** Calls `listener` when something the state does not cover changed (usage counts, the stream's health). */
  onRefresh(listener: () => void): () => void
  /**
   * Whether the page hears the server now: `live`, `reconnecting` (the server stopped, or the
   * stream ended), or `restarted` (a new server refuses this page's token: reload the page).
   */
  link(): 'live' | 'reconnecting' | 'restarted'
  /** The server's local CA, for curl lines. */
  caPath?: string
}

export interface SimulatedRequest {
  path: string
  method: 'GET' | 'POST'
  body?: string
  origin?: string | null
  referer?: string | null
}

const CONTROL = '/__console'
/** The log's size in the page, as the server keeps it (`logSize`'s default). */
const LOG_MOST = 500
const EMPTY_USAGE = (key: string): UsageReport => ({ key, total: 0, byStatus: {}, byEndpoint: {}, days: [] })

/**
 * The console of `tmaps-mock serve` for the playground's panels: the page's token (its
 * `<meta>`) on every call of the server's control API; the keys and domains read from a copy of
 * the server's state (a mock of the page's own, restored from `GET /__console/snapshot` at once
 * and after every change), so the panels read them as they read the page's own mock; every
 * console action, fault and reset sent to the server; the log and the changes heard live on
 * `GET /__console/events` (a change made with curl, a test or another tab shows within the
 * second), which is opened again after 1 s when it ends.
 */
export async function connectToServer(caPath?: string): Promise<PlaygroundMock> {
  const token = document.querySelector<HTMLMetaElement>('meta[name="tmaps-console-page"]')?.content ?? ''
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = { 'X-TMaps-Console-Page': token }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const response = await fetch(`${CONTROL}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    if (!response.ok) {
      const error = (await response.json().catch(() => null)) as { error?: string } | null
      throw new Error(
        error?.error ?? `The server answered ${response.status} to ${method} ${CONTROL}${path}.`,
      )
    }
    return response
  }
  const json = async <T>(method: string, path: string, body?: unknown) =>
    (await (await call(method, path, body)).json()) as T

  const mirror = createTmapsCore({ state: 'empty' })
  await mirror.ready
  let entries: LogEntry[] = []
  let faults: FaultRule[] = []
  const usage = new Map<string, UsageReport>()
  const logListeners = new Set<LogListener>()
  const changeListeners = new Set<() => void>()
  const refreshListeners = new Set<() => void>()
  const tell = (listeners: Set<() => void>) => {
    for (const listener of listeners) listener()
  }
  let link: 'live' | 'reconnecting' | 'restarted' = 'reconnecting'
  const setLink = (next: typeof link) => {
    if (next === link) return
    link = next
    tell(refreshListeners)
  }

  // One reload of each part at a time; one asked while it runs runs again after it.
  const serial = (load: () => Promise<void>) => {
    let running: Promise<void> | null = null
    let again = false
    const run = async (): Promise<void> => {
      if (running) {
        again = true
        return running
      }
      running = load().finally(() => {
        running = null
      })
      await running
      if (again) {
        again = false
        await run()
      }
    }
    return run
  }
  const loadState = serial(async () => {
    await mirror.restore(await json<TmapsSnapshot>('GET', '/snapshot'))
    tell(changeListeners)
  })
  const loadFaults = serial(async () => {
    faults = await json<FaultRule[]>('GET', '/faults')
    tell(changeListeners)
  })
  const loadLog = serial(async () => {
    const known = new Set(entries.map((e) => e.seq))
    entries = (await json<LogEntry[]>('GET', '/log')).slice(0, LOG_MOST)
    // What the page did not hear (answered before it listened): told as if heard, oldest first.
    const missed = entries.filter((e) => !known.has(e.seq)).reverse()
    for (const entry of missed) for (const listener of logListeners) listener(entry)
    tell(refreshListeners)
  })
  let usageDue = false
  /** The usage reports asked for, again from the server, at most every 300 ms. */
  const loadUsage = () => {
    if (usageDue) return
    usageDue = true
    setTimeout(async () => {
      usageDue = false
      for (const ref of usage.keys())
        usage.set(
          ref,
          await json<UsageReport>('GET', `/usage/${encodeURIComponent(ref)}`).catch(() => EMPTY_USAGE(ref)),
        )
      tell(refreshListeners)
    }, 300)
  }
  const heard = (entry: LogEntry) => {
    if (entries.some((e) => e.seq === entry.seq)) return
    entries = [entry, ...entries].slice(0, LOG_MOST)
    for (const listener of logListeners) listener(entry)
    if (usage.size > 0) loadUsage()
    // A fault rule limited in times is used up by requests.
    if (entry.fault) void loadFaults().catch(() => undefined)
  }
  const onEvent = (event: string, data: string) => {
    if (event === 'entry') heard(JSON.parse(data) as LogEntry)
    if (event !== 'change') return
    const { what } = JSON.parse(data) as { what: string }
    const load = what === 'console' ? loadState : what === 'faults' ? loadFaults : loadLog
    void load().catch(() => undefined)
  }
  const listen = async () => {
    for (;;) {
      try {
        const response = await call('GET', '/events')
        setLink('live')
        // What changed while the page did not listen (and before it first did).
        await Promise.all([loadState(), loadFaults(), loadLog()])
        await readEvents(response, onEvent)
        setLink('reconnecting')
      } catch (error) {
        // The server stopped (tried again below), or another one runs there now.
        setLink(/is not this server's/.test((error as Error).message) ? 'restarted' : 'reconnecting')
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
  await Promise.all([loadState(), loadFaults(), loadLog()])
  void listen()

  // A console write is the server's; the copy follows it before the action resolves.
  const write =
    <A extends unknown[], R>(request: (...args: A) => [string, string, unknown?]) =>
    async (...args: A): Promise<R> => {
      const [method, path, body] = request(...args)
      const answer = await call(method, path, body)
      await loadState()
      return (answer.status === 204 ? undefined : await answer.json()) as R
    }
  const key = (ref: string) => `/keys/${encodeURIComponent(ref)}`
  const domain = (host: string) => `/domains/${encodeURIComponent(host)}`

  return {
    console: {
      getKey: (ref) => mirror.console.getKey(ref),
      listKeys: () => mirror.console.listKeys(),
      listDomains: () => mirror.console.listDomains(),
      createKey: write((input) => ['POST', '/keys', input]),
      disableKey: write((ref: string) => ['POST', `${key(ref)}/disable`]),
      enableKey: write((ref: string) => ['POST', `${key(ref)}/enable`]),
      revokeKey: write((ref: string) => ['POST', `${key(ref)}/revoke`]),
      addDomain: write((hostname: string) => ['POST', '/domains', { hostname }]),
      removeDomain: write((hostname: string) => ['DELETE', domain(hostname)]),
      linkDomain: write((ref: string, hostname: string) => ['PUT', `${key(ref)}${domain(hostname)}`]),
      unlinkDomain: write((ref: string, hostname: string) => ['DELETE', `${key(ref)}${domain(hostname)}`]),
      setKeyDomains: write((ref: string, domains: readonly string[]) => [
        'PUT',
        `${key(ref)}/domains`,
        { domains },
      ]),
    },
    snapshot: () => mirror.snapshot(),
    restore: async (snapshot) => {
      const text = typeof snapshot === 'string' ? snapshot : JSON.stringify(snapshot)
      await call('PUT', '/snapshot', JSON.parse(text))
      await loadState()
    },
    reset: async () => {
      const created = await json<Awaited<ReturnType<TmapsWorker['reset']>>>('POST', '/reset')
      await Promise.all([loadState(), loadLog()])
      return created
    },
    usage: (ref) => {
      const name = String(ref)
      let report = usage.get(name)
      if (!report) {
        report = EMPTY_USAGE(name)
        usage.set(name, report)
        loadUsage()
      }
      return report
    },
    onChange: (listener) => {
      changeListeners.add(listener)
      return () => changeListeners.delete(listener)
    },
    options: {
      ...mirror.options,
      baseUrl: location.origin,
      tilesUrl: location.origin,
    },
    log: {
      entries: () => entries,
      subscribe: (listener) => {
        logListeners.add(listener)
        return () => logListeners.delete(listener)
      },
      clear: async () => {
        await call('DELETE', '/log')
        entries = []
      },
    },
    faults: {
      list: () => faults,
      add: async (input) => {
        const rule = await json<FaultRule>('POST', '/faults', input)
        await loadFaults()
        return rule
      },
      remove: async (id) => {
        await call('DELETE', `/faults/${encodeURIComponent(id)}`)
        await loadFaults()
        return true
      },
      clear: async () => {
        await call('DELETE', '/faults')
        await loadFaults()
      },
    },
    // Every client's requests are in the server's one log already.
    onOtherTabsRequest: () => () => {},
    server: {
      // The TMaps answer as it is (a 401 is an answer here, not a failure of the call).
      send: (request) =>
        fetch(`${CONTROL}/requests`, {
          method: 'POST',
          headers: { 'X-TMaps-Console-Page': token, 'Content-Type': 'application/json' },
          body: JSON.stringify(request),
        }),
      onRefresh: (listener) => {
        refreshListeners.add(listener)
        return () => refreshListeners.delete(listener)
      },
      link: () => link,
      ...(caPath !== undefined && { caPath }),
    },
  }
}

/** Reads a Server-Sent Events stream to its end, calling `onEvent` with each event's name and data. */
async function readEvents(response: Response, onEvent: (event: string, data: string) => void): Promise<void> {
  if (!response.body) return
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += value
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf('\n\n')
      let event = 'message'
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7)
        else if (line.startsWith('data: ')) data.push(line.slice(6))
      }
      if (data.length > 0) onEvent(event, data.join('\n'))
    }
  }
}
