import { utf8Json } from '../text/utf8-json.ts'
import { must } from '../validate/must.ts'
import type { AnswerSource, SourceAnswer, SourceMiss, SourceRequest } from './answer-source.ts'
import {
  type HarEntry,
  harBody,
  KEPT_HEADERS,
  KEY_PLACEHOLDER,
  matchKey,
  readHar,
  replays,
  scrubKeys,
  type TmapsHar,
} from './har.ts'

/**
 * The `replay` option: TMaps's own recorded answers, served again behind the mock's contract.
 *
 * Record them with `tmaps-mock serve --upstream https://api.tmaps.tn --record tmaps.har`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsReplayOptions } from 'tmaps-mock'
 *
 * const har = {
 *   log: { version: '1.2', creator: { name: 'tmaps-mock', version: '0.2.0' }, entries: [] },
 * }
 * const replay: TmapsReplayOptions = { har, onMissing: 'error', maxAge: '30d' }
 * const mock = createTmapsMock({ state: 'empty', replay })
 * const key = await mock.console.createKey({ name: 'Backend' })
 * const url = `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`
 * const missing = await mock.fetch(new Request(url)) // not in the recording
 * assert.equal(missing.status, 500)
 * assert.equal(mock.log.entries()[0]?.source, 'replay-miss')
 * ```
 */
export interface TmapsReplayOptions {
  /**
   * The recording: a HAR file's path (Node), its text, or the parsed object (a browser, where
   * `import har from './tmaps.har.json'` gives it).
   */
  har: string | TmapsHar
  /**
   * A request the recording lacks: `'mock'` (default) gets the mock's own answer, `'error'` a 500
   * whose `error` names the method and path; both are logged `replay-miss`.
   */
  onMissing?: 'mock' | 'error'
  /**
   * Older recorded answers give one warning naming the file and its oldest date: `'90d'`
   * (default), `'12h'`, milliseconds, or `false` for none.
   */
  maxAge?: string | number | false
  /**
   * `'recorded'`: each recorded answer comes after the time TMaps took (the entry's `time`, at
   * most 30 s), so a spinner or a timeout meets the real pace. Default none: at once.
   */
  latency?: 'recorded'
}

/** The longest recorded time `latency: 'recorded'` waits. */
const RECORDED_LATENCY_CAP_MS = 30_000

const DAY_MS = 86_400_000

/** A replay source over a recording: recorded answers by request, in recorded order. */
export function createReplay(
  input: string | TmapsHar | TmapsReplayOptions,
  {
    now = () => new Date(),
    warn = console.warn,
    name: shownName,
  }: { now?: () => Date; warn?: (message: string) => void; name?: string } = {},
): AnswerSource & { readonly name: string; readonly size: number } {
  const options: TmapsReplayOptions =
    typeof input === 'object' && input !== null && 'har' in input
      ? input
      : { har: input as string | TmapsHar }
  const { onMissing = 'mock', maxAge = '90d', latency } = options
  if (onMissing !== 'mock' && onMissing !== 'error')
    throw new TypeError(
      `Failed to set up replay: onMissing must be "mock" or "error", got ${JSON.stringify(onMissing)}.`,
    )
  if (latency !== undefined && latency !== 'recorded')
    throw new TypeError(
      `Failed to set up replay: latency must be "recorded" (each answer after the time TMaps took) or left out, got ${JSON.stringify(latency)}.`,
    )
  const loaded = loadHar(options.har, shownName)
  const name = shownName ?? loaded.name
  const index = createReplayIndex(name, latency)
  for (const entry of loaded.har.log.entries) index.add(entry)
  const limit = maxAgeMs(maxAge)
  const oldest = index.oldest()
  if (limit !== undefined && oldest !== undefined && now().getTime() - oldest > limit) {
    warn(
      `tmaps-mock: the recording ${name} holds answers older than ${typeof maxAge === 'number' ? `${maxAge} ms` : maxAge} (the oldest from ${new Date(oldest).toISOString().slice(0, 10)}): TMaps may have changed since. Record it again (tmaps-mock serve --upstream https://api.tmaps.tn --record ${name}), or set replay.maxAge.`,
    )
  }
  return {
    name,
    get size() {
      return index.size
    },
    answer(request: SourceRequest): SourceAnswer | SourceMiss | Promise<SourceAnswer> {
      const played = index.play(request)
      if (played !== undefined) return played
      return index.miss(request, onMissing === 'mock' ? 'mock' : { why: `onMissing: 'error'` })
    },
    reset: index.reset,
  }
}

/** When a recorded answer was recorded (ms), or NaN for an entry that does not say. */
export const recordedAt = (entry: HarEntry): number =>
  Date.parse(entry._tmaps?.recordedAt ?? entry.startedDateTime)

/**
 * Recorded answers by request (`matchKey`), each request's answers served in recorded order, the
 * last one again and again; what `replay` and a recording made from tests answer with. Entries
 * `replay` never serves (a 5xx, a 401) are left out.
 */
export function createReplayIndex(name: string, latency?: 'recorded') {
  const byRequest = new Map<string, HarEntry[]>()
  /** The match keys recorded for each `METHOD host/path`: where a miss looks for its closest. */
  const byPath = new Map<string, Set<string>>()
  const turns = new Map<string, number>()
  const decoded = new WeakMap<HarEntry, Uint8Array<ArrayBuffer> | null>()
  // A key-shaped value in a recorded text is served as the recorder writes it, `{{api_key}}`: a
  // recording made by hand or by another tool may hold one.
  const bodyOf = (entry: HarEntry) => {
    const { content } = entry.response
    let body = decoded.get(entry)
    if (body === undefined) {
      body = harBody(
        content.encoding === 'base64' || !content.text
          ? content
          : { ...content, text: scrubKeys(content.text, []) },
      )
      decoded.set(entry, body)
    }
    return body
  }
  const keyOf = (request: Pick<SourceRequest, 'method' | 'url' | 'body'>) =>
    matchKey(request.method, request.url, request.body)
  return {
    get size() {
      return byRequest.size
    },
    /** The request's recorded answers (undefined: none). */
    answers: (request: Pick<SourceRequest, 'method' | 'url' | 'body'>) => byRequest.get(keyOf(request)),
    /** Adds a recorded answer after the request's others; `replace`: in place of them. */
    add(entry: HarEntry, { replace = false } = {}): void {
      if (!replays(entry.response.status)) return
      const url = new URL(entry.request.url.replaceAll(KEY_PLACEHOLDER, 'x'))
      const key = matchKey(entry.request.method, url, entry.request.postData?.text)
      const list = replace ? [] : (byRequest.get(key) ?? [])
      list.push(entry)
      byRequest.set(key, list)
      if (replace) turns.delete(key)
      const path = `${entry.request.method} ${url.host}${url.pathname}`
      byPath.set(path, (byPath.get(path) ?? new Set()).add(key))
    },
    /** When the oldest recorded answer was recorded (ms), if any says. */
    oldest(): number | undefined {
      let oldest: number | undefined
      for (const list of byRequest.values())
        for (const entry of list) {
          const at = recordedAt(entry)
          if (Number.isFinite(at)) oldest = Math.min(oldest ?? at, at)
        }
      return oldest
    },
    /** The request's next recorded answer, or undefined when none is recorded. */
    play(
      request: Pick<SourceRequest, 'method' | 'url' | 'body'>,
      note = '',
    ): SourceAnswer | Promise<SourceAnswer> | undefined {
      const key = keyOf(request)
      const list = byRequest.get(key)
      if (list === undefined) return undefined
      const turn = turns.get(key) ?? 0
      const at = Math.min(turn, list.length - 1)
      turns.set(key, turn + 1)
      const entry = must(list[at], 'a recorded request without its answers')
      const headers: Record<string, string> = {}
      for (const { name: header, value } of entry.response.headers ?? [])
        if (KEPT_HEADERS.includes(header.toLowerCase())) headers[header] = scrubKeys(value, [])
      const replayed: SourceAnswer = {
        status: entry.response.status,
        body: bodyOf(entry),
        contentType: entry.response.content.mimeType || 'application/json',
        headers,
        source: 'replay',
        reason: `Authorized; answered from ${name} (recorded ${entry._tmaps?.recordedAt ?? entry.startedDateTime}${list.length > 1 ? `, answer ${at + 1} of ${list.length}` : ''})${note}.`,
        repeatable: at === list.length - 1 && latency === undefined && note === '',
      }
      const waitMs = Math.min(Math.max(Number(entry.time) || 0, 0), RECORDED_LATENCY_CAP_MS)
      if (latency !== 'recorded' || waitMs === 0) return replayed
      replayed.reason = `${replayed.reason.slice(0, -1)}, after the recorded ${Math.round(waitMs)} ms.`
      return new Promise((resolve) => setTimeout(() => resolve(replayed), waitMs))
    },
    /**
     * A request with no recorded answer: a miss (`'mock'`: the mock answers), or a 500 whose `error`
     * names it and its closest recorded request, `why` said in the log.
     */
    miss(
      request: SourceRequest,
      onMissing: 'mock' | { why: string; hint?: string },
    ): SourceAnswer | SourceMiss {
      const what = `${request.method} ${request.url.pathname}${request.url.search.replace(/([?&]api_key=)[^&]*/g, '$1…')}`
      const near = closest(
        request,
        [...(byPath.get(`${request.method} ${request.url.host}${request.url.pathname}`) ?? [])].map((key) =>
          must(byRequest.get(key)?.[0], 'a recorded request without its answers'),
        ),
      )
      const nearly = near === undefined ? '' : `; the closest recorded: ${near}`
      if (onMissing === 'mock')
        return {
          miss: true,
          reason: `Authorized; ${what} is not in ${name}: the mock's own answer${nearly}.`,
        }
      return {
        status: 500,
        body: utf8Json({
          error: `not recorded: ${request.method} ${request.url.pathname} (in ${name})${nearly}${onMissing.hint ?? ''}`,
        }),
        contentType: 'application/json',
        headers: {},
        source: 'replay-miss',
        reason: `Authorized; ${what} is not in ${name} (${onMissing.why})${nearly}.`,
        repeatable: true,
      }
    },
    reset: () => turns.clear(),
  }
}

/**
 * The recorded request nearest a missed one, said with how they differ: the fewest query
 * parameters apart (then the body), among the recorded requests of its method, host and path.
 * Undefined when there are none.
 * @example
 * closest(GET /geocoding/forward?q=Sousse)
 * // 'GET /geocoding/forward?q=Sfax (q: "Sousse" here, "Sfax" recorded)'
 */
function closest(request: SourceRequest, samePath: HarEntry[]): string | undefined {
  const asked = new URLSearchParams(request.url.search)
  asked.delete('api_key')
  let best: { entry: HarEntry; differences: string[] } | undefined
  for (const entry of samePath) {
    const url = new URL(entry.request.url.replaceAll(KEY_PLACEHOLDER, 'x'))
    const there = new URLSearchParams(url.search)
    there.delete('api_key')
    const differences: string[] = []
    for (const name of new Set([...asked.keys(), ...there.keys()])) {
      const [here, then] = [asked.getAll(name).join(','), there.getAll(name).join(',')]
      if (!there.has(name)) differences.push(`${name} not recorded`)
      else if (!asked.has(name)) differences.push(`${name} not sent here`)
      else if (here !== then)
        differences.push(`${name}: ${JSON.stringify(here)} here, ${JSON.stringify(then)} recorded`)
    }
    if (
      matchKey('POST', { host: '', pathname: '', search: '' }, request.body) !==
      matchKey('POST', { host: '', pathname: '', search: '' }, entry.request.postData?.text)
    )
      differences.push('the body differs')
    if (best === undefined || differences.length < best.differences.length) best = { entry, differences }
  }
  if (best === undefined) return undefined
  const url = new URL(best.entry.request.url.replaceAll(KEY_PLACEHOLDER, 'x'))
  url.searchParams.delete('api_key')
  const why = best.differences.length === 0 ? '' : ` (${best.differences.join('; ')})`
  return `${best.entry.request.method} ${url.pathname}${url.search}${why}`
}

/** The HAR and the name messages give it: a path is read with Node's fs (in Node only). */
function loadHar(har: string | TmapsHar, given = 'the recording'): { har: TmapsHar; name: string } {
  if (typeof har !== 'string' || har.trimStart().startsWith('{'))
    return { har: readHar(har, given), name: given }
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => typeof import('node:fs') | undefined } }
  ).process?.getBuiltinModule?.('node:fs')
  if (fs === undefined)
    throw new TypeError(
      `Failed to read the recording ${har}: there is no file system here. In a browser, pass the HAR itself: replay: { har } with har imported as JSON.`,
    )
  let text: string
  try {
    text = fs.readFileSync(har, 'utf8')
  } catch (error) {
    throw new TypeError(
      `Failed to read the recording ${har}: ${(error as Error).message}. Record one with tmaps-mock serve --upstream ... --record ${har}.`,
    )
  }
  return { har: readHar(text, har), name: har }
}

export function maxAgeMs(
  maxAge: string | number | false,
  what = 'set up replay: maxAge',
): number | undefined {
  if (maxAge === false) return undefined
  if (typeof maxAge === 'number' && Number.isFinite(maxAge) && maxAge >= 0) return maxAge
  const match = typeof maxAge === 'string' ? /^(\d+(?:\.\d+)?)\s*(d|h|m|s)$/.exec(maxAge.trim()) : null
  if (!match)
    throw new TypeError(
      `Failed to ${what} ${JSON.stringify(maxAge)} is not a duration. Write "90d", "12h", "30m", milliseconds, or false.`,
    )
  const unit = { d: DAY_MS, h: 3_600_000, m: 60_000, s: 1000 }[match[2] as 'd']
  return Number(match[1]) * unit
}
