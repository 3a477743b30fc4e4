import { chmodSync, closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { maskSecrets } from '../contract/key-format.ts'
import type { UpstreamExchange } from './forward.ts'
import { type HarEntry, holdsRawKey, KEY_PLACEHOLDER, scrubKeys, toBase64 } from './har.ts'
import type { Finding } from './spec-check.ts'

/** A recording stops growing past this many bytes (it says so once); what it holds is kept. */
export const RECORDING_LIMIT = 64 * 1024 * 1024

/**
 * `serve --record FILE.har`: every exchange with TMaps as a HAR 1.2 entry, every key (the real
 * one, the local one, anything key-shaped, percent-encoded too) replaced by `{{api_key}}`. The
 * file is rewritten whole after every entry (a temporary file renamed over it: never half
 * written), readable by you only (`0600`); an entry that would still hold a key is not written.
 * Each entry keeps the upstream that answered it (`_tmaps.upstream`: a staging recording is not
 * taken for production's). With `check`, an exchange that breaks the spec (a `lat` sent as a
 * string, an HTML page with 200) is still recorded, with its findings in `_tmaps.findings` and
 * the entry's `comment`, and said once in the log.
 */
export function createHarRecorder({
  path,
  mockVersion,
  secrets,
  keyName,
  check,
  say = (message) => process.stderr.write(`${message}\n`),
}: {
  path: string
  mockVersion: string
  /** The real key and the local keys' values, replaced first (a real key need not look like one). */
  secrets: () => string[]
  keyName: (keyId: string | null) => string | null
  /** The exchange against the spec (`exchangeAgainstSpec`): its findings. */
  check?: (exchange: UpstreamExchange) => Finding[]
  say?: (message: string) => void
}) {
  const entries: string[] = []
  let bytes = 0
  let full = false
  const head = JSON.stringify({
    version: '1.2',
    creator: { name: 'tmaps-mock', version: mockVersion },
  }).slice(0, -1)
  const write = () => {
    const text = `{"log":${head},"entries":[\n${entries.join(',\n')}\n]}}\n`
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
  write() // at start: a folder that cannot be written fails now, not after the first answer
  return {
    get size() {
      return entries.length
    },
    /** Records an exchange; returns its findings against the spec (none when not checked or not recorded). */
    add(exchange: UpstreamExchange): Finding[] {
      if (full) return []
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
        return []
      }
      if (bytes + text.length > RECORDING_LIMIT) {
        full = true
        say(
          `tmaps-mock: ${path} reached ${RECORDING_LIMIT / 1024 / 1024} MB; later exchanges are not recorded (the file keeps ${entries.length}).`,
        )
        return []
      }
      entries.push(text)
      bytes += text.length
      try {
        write()
      } catch (error) {
        entries.pop()
        bytes -= text.length
        say(
          `tmaps-mock: could not write ${path} (${(error as Error).message}); this exchange is not recorded.`,
        )
        return []
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
      return findings
    },
  }
}

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
