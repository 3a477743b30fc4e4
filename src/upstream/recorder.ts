import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { maskSecrets } from '../contract/key-format.ts'
import type { UpstreamExchange } from './forward.ts'
import { type HarEntry, holdsRawKey, KEY_PLACEHOLDER, matchKey, readHar, scrubKeys, toBase64 } from './har.ts'
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
 * writes nothing before the first new one (then makes the file's folder if need be), writes each
 * into the file as it is then, under a lock (Playwright's workers may share a file), and a request
 * recorded again replaces its earlier answers (`add(exchange, { replace: true })`).
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
    ): { findings: Finding[]; entry?: HarEntry; refused?: string } {
      if (full) return { findings: [], refused: `${path} is full (${RECORDING_LIMIT / 1024 / 1024} MB)` }
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
        return { findings: [], refused: 'a key would have remained in it' }
      }
      if (bytes + text.length > RECORDING_LIMIT) {
        full = true
        say(
          `tmaps-mock: ${path} reached ${RECORDING_LIMIT / 1024 / 1024} MB; later exchanges are not recorded (the file keeps ${entries.length}).`,
        )
        return { findings: [], refused: `${path} is full (${RECORDING_LIMIT / 1024 / 1024} MB)` }
      }
      const written = JSON.parse(text) as HarEntry
      const refused = accept?.(written)
      if (refused !== undefined) {
        say(
          `tmaps-mock: ${exchange.method} ${new URL(exchange.localUrl).pathname} was not recorded in ${path}: ${refused}.`,
        )
        return { findings, refused }
      }
      const request = requestOf(written)
      const before = entries.slice()
      const bytesBefore = bytes
      try {
        // From tests, other processes may write the same file (Playwright's workers): each entry
        // goes into the file as it is now, under a lock, not into the copy read at start.
        const change = () => {
          if (kept !== undefined) entries.splice(0, entries.length, ...entriesOf(path, before))
          if (replace) entries.splice(0, entries.length, ...entries.filter((e) => e.request !== request))
          entries.push({ text, request })
          bytes = entries.reduce((sum, e) => sum + e.text.length, 0)
          write()
        }
        if (kept === undefined) change()
        else withLock(`${path}.lock`, change)
      } catch (error) {
        entries.splice(0, entries.length, ...before)
        bytes = bytesBefore
        say(
          `tmaps-mock: could not write ${path} (${(error as Error).message}); this exchange is not recorded.`,
        )
        return { findings: [], refused: `${path} could not be written` }
      }
      if (findings.length > 0) say(notAsSpecified(exchange, findings, secretList))
      return { findings, entry: written }
    },
  }
}

/** The terminal's line for an exchange recorded with findings against the spec, keys masked. */
function notAsSpecified(exchange: UpstreamExchange, findings: Finding[], secrets: string[]): string {
  const what = `${exchange.method} ${new URL(exchange.localUrl).pathname} (${exchange.status})`
  const said = findings.map((f) => `${f.path}: ${f.message}`).join(' ')
  return maskSecrets(scrubKeys(`tmaps-mock: recorded ${what}, not as the spec says: ${said}`, secrets))
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

/**
 * The entries of the HAR at `path` now (as written, with the requests they answer); `fallback`
 * when it cannot be read.
 */
function entriesOf(path: string, fallback: Array<{ text: string; request: string }>) {
  let entries: HarEntry[]
  try {
    entries = readHar(readFileSync(path, 'utf8'), path).log.entries
  } catch {
    return fallback // not there yet, or broken: what this process holds is written
  }
  return entries.map((entry) => ({ text: JSON.stringify(entry, null, 2), request: requestOf(entry) }))
}

/** How long a lock may be held before it is taken for a crashed writer's. */
const STALE_LOCK_MS = 10_000

/**
 * Runs `work` holding a lock file (created exclusively; waited for in 10 ms steps, at most 5 s; one
 * older than 10 s is a crashed writer's and is taken over). Synchronous: the recorder writes so.
 */
function withLock(lock: string, work: () => void): void {
  mkdirSync(dirname(lock), { recursive: true })
  const waiter = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + 5_000
  let fd: number | undefined
  while (fd === undefined) {
    try {
      fd = openSync(lock, 'wx', 0o600)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > STALE_LOCK_MS || Date.now() > deadline) rmSync(lock, { force: true })
      else Atomics.wait(waiter, 0, 0, 10)
    }
  }
  try {
    work()
  } finally {
    closeSync(fd)
    rmSync(lock, { force: true })
  }
}

/** The request an entry answers, as replay matches it. */
const requestOf = (entry: HarEntry) =>
  matchKey(
    entry.request.method,
    new URL(entry.request.url.replaceAll(KEY_PLACEHOLDER, 'x')),
    entry.request.postData?.text,
  )

const PICTURE = /^image\//

/** Answer headers a recording never keeps: cookies are a session's, not TMaps's answer. */
const UNRECORDED_HEADERS = new Set(['set-cookie', 'set-cookie2'])

/**
 * A `Referer` as recorded: the page's origin and path, not its query or fragment (a page's
 * tokens; TMaps reads only the host). A value that is not a URL is kept as sent.
 */
function pageOf(referer: string): string {
  if (!URL.canParse(referer)) return referer
  const url = new URL(referer)
  return `${url.origin}${url.pathname}`
}

function toEntry(exchange: UpstreamExchange, mockVersion: string, keyName: string | null): HarEntry {
  const url = new URL(exchange.localUrl)
  const headers = Object.entries(exchange.requestHeaders).map(([name, value]) => ({
    name,
    value: name === 'referer' ? pageOf(value) : value,
  }))
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
      headers: Object.entries(exchange.headers)
        .filter(([name]) => !UNRECORDED_HEADERS.has(name))
        .map(([name, value]) => ({ name, value })),
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
