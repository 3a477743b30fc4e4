import type { Plugin, UserConfig } from 'vite'
import { createTestSource, type TmapsRecordOptions } from '../../upstream/test-recording.ts'
import type { TmapsUpstream } from '../../upstream/upstream-options.ts'
import { fromWireRequest, toWireAnswer } from '../../upstream/wire.ts'

/**
 * The options of `tmapsRecorder()`: the real TMaps and the recording, as `setupTmapsNode`'s.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { basename } from 'node:path'
 * import type { TmapsRecorderOptions } from 'tmaps-mock/vite'
 *
 * const options: TmapsRecorderOptions = {
 *   upstream: { key: process.env.TMAPS_KEY }, // no key (CI): the recordings are replayed
 *   record: { har: (testFile) => `test/recordings/${basename(testFile)}.har` }, // one per test file
 * }
 * assert.equal(typeof options.record?.har, 'function')
 * ```
 */
export interface TmapsRecorderOptions {
  /** The real TMaps, with the real key (`key` undefined: nothing forwarded, the recording replayed). */
  upstream?: TmapsUpstream
  /** The HAR to replay from and record to: a path, or a path for each test file (its absolute path given). */
  record?: Omit<TmapsRecordOptions, 'har'> & { har: string | ((testFile: string) => string) }
}

/**
 * Records TMaps from Vitest's browser mode: a plugin for the Vitest config.
 *
 * It answers the accepted requests of `tmapsFixtures({ recorder: commands })` (from
 * `tmaps-mock/vitest`) in the Vitest process, which holds the real key and writes the HAR files
 * (the page never sees the key). Each request reaches it through a browser command
 * (`tmapsRecorded`) once the page's mock has accepted it. The options are checked at once; a bad
 * one throws and says how to fix it.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { tmapsMock, tmapsRecorder } from 'tmaps-mock/vite'
 *
 * // vitest.config.ts: plugins: [tmapsMock(), tmapsRecorder({ upstream, record })]
 * const recorder = tmapsRecorder({ upstream: { key: undefined }, record: { har: 'test/tmaps.har' } })
 * assert.equal(recorder.name, 'tmaps-mock:recorder')
 * ```
 */
export function tmapsRecorder(options: TmapsRecorderOptions): Plugin {
  const { upstream, record } = options ?? {}
  const harOf = typeof record?.har === 'function' ? record.har : undefined
  if (record !== undefined && harOf === undefined && typeof record.har !== 'string')
    throw new TypeError(
      'Failed to set up tmapsRecorder(): record.har must be a path, or a function of the test file that gives one.',
    )
  /** The local keys' names, as the pages' consoles gave them (a recording's `keyName`). */
  const names = new Map<string, string>()
  const source = createTestSource(
    {
      ...(upstream && { upstream }),
      ...(record && { record: { ...record, har: harOf ? undefined : (record.har as string) } }),
    },
    {
      who: 'set up tmapsRecorder()',
      throughMsw: false,
      keyName: (id) => (id === null ? null : (names.get(id) ?? null)),
    },
  )
  if (source === undefined)
    throw new TypeError(
      'Failed to set up tmapsRecorder(): give upstream (the real TMaps and its key), record (a HAR), or both.',
    )
  const harFor = (testPath: string | undefined) => {
    if (harOf === undefined) return typeof record?.har === 'string' ? record.har : undefined
    if (typeof testPath !== 'string')
      throw new TypeError('Failed to record a TMaps request from the page: Vitest gave no test file.')
    return harOf(testPath)
  }
  const commands = {
    async tmapsRecorded({ testPath }: { testPath?: string }, wire: unknown) {
      const request = fromWireRequest(wire)
      if (request.keyId !== null && request.keyName !== null) names.set(request.keyId, request.keyName)
      const har = harFor(testPath)
      return toWireAnswer(
        await (har === undefined ? source.answer(request) : source.answerFrom(har, request)),
      )
    },
    /** After a test (`fresh`: when a test file starts, its recording read afresh). */
    tmapsRecordedReset({ testPath }: { testPath?: string }, options?: { fresh?: boolean }) {
      const har = harFor(testPath)
      if (har === undefined) return
      if (options?.fresh === true) source.restart(har)
      else source.resetFile(har)
    },
  }
  return {
    name: 'tmaps-mock:recorder',
    config: () => ({ test: { browser: { commands } } }) as UserConfig,
    buildEnd: () => source.close(),
  }
}
