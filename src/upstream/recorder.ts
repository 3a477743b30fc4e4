import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { maskSecrets } from '../contract/key-format.ts'
import type { UpstreamExchange } from './forward.ts'
import { type HarEntry, holdsRawKey, KEY_PLACEHOLDER, matchKey, scrubKeys, toBase64 } from './har.ts'
import type { Finding } from './spec-check.ts'

/** A recording stops growing past this many bytes (it says so once); what it holds is kept. */
const RECORDING_LIMIT = 64 * 1024 * 1024

/**
 * `serve --record FILE.har`: every exchange with TMaps as a HAR 1.2 entry, every key (the real
 * one, the local one, anything key-shaped, percent-encoded too) replaced by `{{api_key}}`. The
 * file is rewritten whole after every entry (a temporary file renamed over it: never half
 * written), readable by you only (`0600`); an entry that would still hold a key is not written.
 * Each entry keeps the upstream that answered it (`_tmaps.upstream`: a staging recording is not
 * taken for production's). With `check`, an exchange that breaks the spec (a `lat` sent as a
 * string, an HTML page with 200) is still recorded, with its findings in `_tmaps.findings` and
 * the entry's `comment`, and said once in the log.
 *
 * From tests (`setupTmapsNode`'s `record`), it starts from the entries the file holds (`kept`),
 * writes nothing before the first new one (then makes the file's folder if need be), and a
 * request recorded again replaces its earlier answers (`add(exchange, { replace: true })`).
 */
export function createHarRecorder({
  path,
  mockVersion,
  secrets,
  keyName,
  check,
  kept,
  say = (message) => process.stderr.write(`${message}\n`),
}: {
  path: string
  mockVersion: string
  /** The real key and the local keys' values, replaced first (a real key need not look like one). */
  secrets: () => string[]
  keyName: (keyId: string | null) => string | null
  /** The exchange against the spec (`exchangeAgainstSpec`): its findings. */
  check?: (exchange: UpstreamExchange) => Finding[]
  /** The entries of the file recorded to (from tests): kept, and nothing written at start. */
  kept?: readonly HarEntry[]
  say?: (message: string) => void
}) {
  /** Each recorded entry's text as written, and the request it answers (`matchKey`). */
  const entries: Array<{ text: string; request: string }> = (kept ?? []).map((entry) => ({
    text: JSON.stringify(entry, null, 2),
    request: requestOf(entry),
  }))
  let bytes = entries.reduce((sum, { text }) => sum + text.length, 0)
  let full = false
  const head = JSON.stringify({
    version: '1.2',
    creator: { name: 'tmaps-mock', version: mockVersion },
  }).slice(0, -1)
  const write = () =>
    writeAtomically(
      path,
      `{"log":${head},"entries":[\n${entries.map((e) => e.text).join(',\n')}\n]}}\n`,
      kept !== undefined,
    )
  // At start: a folder that cannot be written fails now, not after the first answer.
  if (kept === undefined) write()
  return {
    get size() {
      return entries.length
    },
    /**
     * Records an exchange (`replace`: in place of the request's earlier answers); returns its
     * findings against the spec (none when not checked or not recorded), and the entry as written.
     */
    add(
      exchange: UpstreamExchange,
      {
        replace = false,
        accept,
      }: {
        replace?: boolean
        /** Why an entry is not to be recorded (a 503, an HTML page), or undefined to record it. */
        accept?: (entry: HarEntry) => string | undefined
      } = {},
    ): { findings: Finding[]; entry?: HarEntry } {
      if (full) return { findings: [] }
      const secretList = secrets()
      const entry = toEntry(exchange, mockVersion, keyName(exchange.keyId))
      const findings = check?.(exchange) ?? []
      if (findings.length > 0) {
        entry.comment = `tmaps-mock: not as the spec says: ${findings.map((f) => `${f.path}: ${f.message}`).join(' ')}`
        if (entry._tmaps)
          entry._tmaps.findings = findings.map(({ severity, path, message }) => ({ severity, path, message }))
      }
      const text = scrubKeys(JSON.stringify(entry, null, 2), secretList)
      if (holdsRawKey(text, secretList)) {
        say(
          `tmaps-mock: ${exchange.method} ${new URL(exchange.url).pathname} was not recorded: a key would have remained in it.`,
        )
        return { findings: [] }
      }
      if (bytes + text.length > RECORDING_LIMIT) {
        full = true
        say(
          `tmaps-mock: ${path} reached ${RECORDING_LIMIT / 1024 / 1024} MB; later exchanges are not recorded (the file keeps ${entries.length}).`,
        )
        return { findings: [] }
      }
      const written = JSON.parse(text) as HarEntry
      const refused = accept?.(written)
      if (refused !== undefined) {
        say(
          `tmaps-mock: ${exchange.method} ${new URL(exchange.localUrl).pathname} was not recorded in ${path}: ${refused}.`,
        )
        return { findings }
      }
      const request = requestOf(written)
      const before = entries.slice()
      if (replace) entries.splice(0, entries.length, ...entries.filter((e) => e.request !== request))
      entries.push({ text, request })
      const bytesBefore = bytes
      bytes = entries.reduce((sum, e) => sum + e.text.length, 0)
      try {
        write()
      } catch (error) {
        entries.splice(0, entries.length, ...before)
        bytes = bytesBefore
        say(
          `tmaps-mock: could not write ${path} (${(error as Error).message}); this exchange is not recorded.`,
        )
        return { findings: [] }
      }
      if (findings.length > 0)
        say(
          maskSecrets(
            scrubKeys(
              `tmaps-mock: recorded ${exchange.method} ${new URL(exchange.localUrl).pathname} (${exchange.status}), not as the spec says: ${findings.map((f) => `${f.path}: ${f.message}`).join(' ')}`,
              secretList,
            ),
          ),
        )
      return { findings, entry: written }
    },
  }
}

/** Writes a file whole or not at all (a temporary file renamed over it), `0600`; its folder made if asked. */
function writeAtomically(path: string, text: string, makeFolder: boolean): void {
  if (makeFolder) mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  const fd = openSync(temporary, 'w', 0o600)
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  chmodSync(temporary, 0o600)
  renameSync(temporary, path)
}

/** The request an entry answers, as replay matches it. */
const requestOf = (entry: HarEntry) =>
  matchKey(
    entry.request.method,
    new URL(entry.request.url.replaceAll(KEY_PLACEHOLDER, 'x')),
    entry.request.postData?.text,
  )

const PICTURE = /^image\//

function toEntry(exchange: UpstreamExchange, mockVersion: string, keyName: string | null): HarEntry {
  const url = new URL(exchange.localUrl)
  const headers = Object.entries(exchange.requestHeaders).map(([name, value]) => ({ name, value }))
  const contentType = exchange.headers['content-type'] ?? ''
  const body = exchange.bytes
  const content: HarEntry['response']['content'] = { size: body?.byteLength ?? 0, mimeType: contentType }
  if (body !== null) {
    if (PICTURE.test(contentType) || !/json|text/.test(contentType)) {
      content.text = toBase64(body)
      content.encoding = 'base64'
    } else content.text = new TextDecoder().decode(body)
  }
  const wait = Math.round(exchange.ms * 10) / 10
  return {
    startedDateTime: exchange.startedAt.toISOString(),
    time: wait,
    request: {
      method: exchange.method,
      url: `${url.protocol}//${url.host}${url.pathname}${url.search}`,
      httpVersion: 'HTTP/1.1',
      headers,
      queryString: [...url.searchParams].map(([name, value]) => ({
        name,
        value: name === 'api_key' ? KEY_PLACEHOLDER : value,
      })),
      cookies: [],
      headersSize: -1,
      bodySize: exchange.body === undefined ? 0 : Buffer.byteLength(exchange.body),
      ...(exchange.body !== undefined && {
        postData: {
          mimeType: exchange.requestHeaders['content-type'] ?? 'application/json',
          text: exchange.body,
        },
      }),
    },
    response: {
      status: exchange.status,
      statusText: exchange.statusText,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(exchange.headers).map(([name, value]) => ({ name, value })),
      cookies: [],
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: body?.byteLength ?? 0,
    },
    cache: {},
    timings: { send: 0, wait, receive: 0 },
    _tmaps: {
      recordedAt: exchange.startedAt.toISOString(),
      mockVersion,
      keyName,
      upstream: new URL(exchange.url).origin,
    },
  }
}
