import { existsSync, readFileSync } from 'node:fs'
import type { AnswerSource, SourceAnswer, SourceRequest } from './answer-source.ts'
import { createUpstream, type UpstreamExchange, type UpstreamOptions } from './forward.ts'
import { type HarEntry, matchKey, readHar, replays, unservable } from './har.ts'
import { createHarRecorder } from './recorder.ts'
import { createReplayIndex, maxAgeMs, recordedAt } from './replay.ts'
import type { Finding } from './spec-check.ts'
import { checkUpstream, specCheck, type TmapsUpstream } from './upstream-options.ts'
import { packageVersion } from './version.ts'

/**
 * Recording TMaps from tests, as Polly.js does: `setupTmapsNode({ upstream, record })`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import type { TmapsRecordOptions } from 'tmaps-mock/node'
 *
 * const record: TmapsRecordOptions = {
 *   har: 'test/recordings/geocoding.har', // read if it exists; written after each new answer
 *   mode: 'missing', // the default: replay what it holds, record what it lacks
 *   maxAge: '30d', // older answers recorded again when TMaps answers (default '90d')
 * }
 * assert.equal(record.mode, 'missing')
 * ```
 */
export interface TmapsRecordOptions {
  /** The HAR file: replayed from if it exists, written (`0600`, its folder made) after each new answer. */
  har: string
  /**
   * `'missing'` (default): a request the file answers is replayed, any other is forwarded to
   * TMaps and recorded. `'all'`: every request is forwarded and recorded, in place of the
   * request's earlier answers.
   */
  mode?: 'missing' | 'all'
  /**
   * Recorded answers older than this are recorded again when TMaps answers, and served as they
   * are when it does not (or when there is no key): `'90d'` (default), `'12h'`, ms, or `false`.
   */
  maxAge?: string | number | false
}

/** A source of recorded or forwarded answers, its file chosen per test file. */
interface TestSource extends AnswerSource {
  /** Answers from `har` from now on (a test file's own recording). */
  use(har: string): void
  /** One answer from `har`, whatever file the others use (test files run side by side). */
  answerFrom(har: string, request: SourceRequest): ReturnType<AnswerSource['answer']>
  /** Reads `har` afresh, as a new run of its test file: its recorded order from the start. */
  restart(har: string): void
  /** Back to the first recorded answer of each request of `har` (after one of its tests). */
  resetFile(har: string): void
  /** Ends the connections to TMaps. */
  close(): void
}

/** What `record` becomes once checked: the mode and age limit, the file given per test file or not. */
interface Recording {
  mode: 'missing' | 'all'
  limit: number | undefined
  maxAge: string | number | false
}

/**
 * The answer source of `upstream` and `record` (`setupTmapsNode`, the Playwright fixtures,
 * `tmapsRecorder()`): TMaps itself (`upstream` alone), a recording made as the tests run (`record`), or that
 * recording replayed when there is no key (CI without the secret: a request it lacks gets a 500
 * saying how to record it). `use(har)` switches the file (one per test file). Undefined when
 * neither is given. Throws at once on a bad option or an unreadable recording.
 */
export function createTestSource(
  options: { upstream?: TmapsUpstream; record?: Omit<TmapsRecordOptions, 'har'> & { har?: string } },
  {
    who,
    keyName,
    throughMsw,
    warn = console.warn,
  }: {
    who: string
    keyName: (id: string | null) => string | null
    /** The process's requests go through msw (`setupTmapsNode`): TMaps's must be let through. */
    throughMsw: boolean
    warn?: (message: string) => void
  },
): TestSource | undefined {
  const { upstream, record } = options
  if (upstream === undefined && record === undefined) return undefined
  const { fail, key, ...target } = checkUpstream(upstream ?? { key: undefined }, who)
  if (record === undefined) {
    if (key === undefined)
      fail(
        'key is empty: give the real key (e.g. key: process.env.TMAPS_KEY), or record: { har } to replay a recording without one',
      )
    const forwarder = createUpstream({ ...target, key: key as string, throughMsw })
    const none = () => {}
    return {
      ...forwarder,
      use: none,
      restart: none,
      resetFile: none,
      answerFrom: (_, request) => forwarder.answer(request),
    }
  }
  const mode = record.mode ?? 'missing'
  if (mode !== 'missing' && mode !== 'all')
    throw new TypeError(
      `Failed to ${who}: record.mode must be "missing" or "all", got ${JSON.stringify(mode)}.`,
    )
  const maxAge = record.maxAge ?? '90d'
  const recording: Recording = { mode, limit: maxAgeMs(maxAge, `${who}: record.maxAge`), maxAge }
  // The spec's validator is made once, before the first answer (a recording checks each exchange).
  const checking =
    key === undefined
      ? undefined
      : specCheck().then(
          (made) => (check = made),
          () => undefined,
        )
  let check: ((exchange: UpstreamExchange) => Finding[]) | undefined
  const files = new Map<string, ReturnType<typeof recordingFile>>()
  const fileOf = (har: string, fresh = false) => {
    let file = files.get(har)
    if (file === undefined || fresh) {
      file?.close()
      file = recordingFile(har, recording, {
        upstream: key === undefined ? undefined : { ...target, key, throughMsw },
        keyName,
        check: (exchange) => check?.(exchange) ?? [],
        warn,
      })
      files.set(har, file)
    }
    return file
  }
  const answerIn = (file: ReturnType<typeof recordingFile>, request: SourceRequest) =>
    checking === undefined ? file.answer(request) : checking.then(() => file.answer(request))
  let currentHar = record.har
  let current = currentHar === undefined ? undefined : fileOf(currentHar)
  return {
    use(har) {
      // Another test file: its recording read afresh (another worker may have written it since).
      current = fileOf(har, har !== currentHar)
      currentHar = har
    },
    answerFrom: (har, request) => answerIn(fileOf(har), request),
    answer(request) {
      if (current === undefined)
        throw new TypeError('Failed to answer from a recording: no HAR chosen (record.har).')
      return answerIn(current, request)
    },
    restart: (har) => void fileOf(har, true),
    resetFile: (har) => files.get(har)?.reset(),
    reset: () => {
      for (const file of files.values()) file.reset()
    },
    close: () => {
      for (const file of files.values()) file.close()
    },
  }
}

/** One HAR file of a recording: its answers replayed, its missing or old ones forwarded and recorded. */
function recordingFile(
  har: string,
  { mode, limit, maxAge }: Recording,
  {
    upstream,
    keyName,
    check,
    warn,
  }: {
    upstream: Omit<UpstreamOptions, 'onExchange'> | undefined
    keyName: (id: string | null) => string | null
    check: (exchange: UpstreamExchange) => Finding[]
    warn: (message: string) => void
  },
) {
  const kept = existsSync(har) ? readHar(readFileSync(har, 'utf8'), har).log.entries : []
  const index = createReplayIndex(har)
  for (const entry of kept) index.add(entry)
  if (upstream === undefined) {
    // Ages are the real clock's, as the recorder dates entries (a test's own `now` may be frozen).
    const oldest = index.oldest()
    if (limit !== undefined && oldest !== undefined && Date.now() - oldest > limit)
      warn(
        `tmaps-mock: the recording ${har} holds answers older than ${typeof maxAge === 'number' ? `${maxAge} ms` : maxAge} (the oldest from ${new Date(oldest).toISOString().slice(0, 10)}), and there is no key to record them again: give upstream.key (e.g. from TMAPS_KEY) to refresh them.`,
      )
    const hint = '; give upstream.key (the real key, e.g. from TMAPS_KEY) to record it'
    return {
      answer: (request: SourceRequest) =>
        index.play(request) ?? index.miss(request, { why: 'no key to record it', hint }),
      reset: index.reset,
      close: () => {},
    }
  }
  const recorder = createHarRecorder({
    path: har,
    mockVersion: packageVersion(),
    secrets: () => [upstream.key],
    keyName,
    check,
    kept,
  })
  /** Requests recorded since the file was opened: a later answer is added after them, not in their place. */
  const recorded = new Map<string, number>()
  /** Why a request's last answer from TMaps was not recorded (the log's reason when the old one is kept). */
  const refusals = new Map<string, string>()
  /** Requests asked of TMaps since the file was opened, and those in flight (asked once at a time). */
  const tried = new Set<string>()
  const inFlight = new Map<string, Promise<SourceAnswer>>()
  const forwarder = createUpstream({
    ...upstream,
    onExchange(exchange) {
      const request = matchKey(exchange.method, new URL(exchange.localUrl), exchange.body)
      const first = !recorded.has(request)
      const { findings, entry, refused } = recorder.add(exchange, {
        replace: first,
        accept: (written: HarEntry) =>
          replays(written.response.status)
            ? unservable(written)
            : `TMaps answered ${written.response.status}, which is never replayed`,
      })
      if (entry !== undefined) {
        index.add(entry, { replace: first })
        recorded.set(request, (recorded.get(request) ?? 0) + 1)
      } else if (refused !== undefined) refusals.set(request, refused)
      return findings
    },
  })
  /** Older than `maxAge` by the real clock: its oldest dated answer, or no date at all. */
  const stale = (list: HarEntry[]) => {
    if (limit === undefined) return false
    const dated = list.map(recordedAt).filter(Number.isFinite)
    return dated.length === 0 || Date.now() - Math.min(...dated) > limit
  }
  const forward = (request: SourceRequest, key: string, list: HarEntry[] | undefined) => {
    const before = recorded.get(key) ?? 0
    tried.add(key)
    refusals.delete(key)
    return forwarder.answer(request).then((answer) => {
      if (list === undefined || (recorded.get(key) ?? 0) > before) return answer
      // TMaps did not answer, or answered what is not recorded (a 503): the recorded answer stays.
      const why = answer.unanswered
        ? 'TMaps could not be reached'
        : (refusals.get(key) ?? `TMaps answered ${answer.status}`)
      return index.play(request, `; ${why}, so it is kept`) as SourceAnswer | Promise<SourceAnswer>
    })
  }
  return {
    answer(request: SourceRequest): SourceAnswer | Promise<SourceAnswer> {
      const list = index.answers(request)
      const key = matchKey(request.method, request.url, request.body)
      if (mode === 'all') return forward(request, key, list)
      // 'missing': what the file answers (or was asked of TMaps in this run already), replayed.
      if (list !== undefined && (tried.has(key) || !stale(list)))
        return index.play(request) as SourceAnswer | Promise<SourceAnswer>
      let asked = inFlight.get(key)
      if (asked === undefined) {
        asked = forward(request, key, list).finally(() => inFlight.delete(key))
        inFlight.set(key, asked)
      }
      return asked
    },
    reset: index.reset,
    close: () => forwarder.close(),
  }
}
