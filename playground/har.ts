import type { LogEntry } from '../src/console/request-log.ts'
import type { TmapsHar as Har, HarPair } from '../src/upstream/har.ts'

/** The HAR 1.2 types, the ones `serve --record` writes and `replay` reads. */
export type { HarEntry, HarPair, TmapsHar as Har } from '../src/upstream/har.ts'

/** The request's URL as the log keeps it: its query with every key masked (`api_key=ak_1a2b…`). */
export const entryUrl = (entry: LogEntry) => `https://${entry.host}${entry.path}${entry.query}`

/** The masked query as name/value pairs, as sent (not decoded). */
export function queryPairs(entry: LogEntry): HarPair[] {
  if (entry.query.length <= 1) return []
  return entry.query
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=')
      return eq < 0 ? { name: part, value: '' } : { name: part.slice(0, eq), value: part.slice(eq + 1) }
    })
}

/** The answer's type: a picture for the map endpoints' answers, JSON for everything else. */
export function answerType(entry: LogEntry): string {
  const picture = entry.endpoint === 'r-tile' || entry.endpoint === 'maps/static'
  return picture && entry.status >= 200 && entry.status < 400 ? 'image/png' : 'application/json'
}

/** The browser header the domain check used (`Origin` or `Referer`), or `null` when none was sent. */
export function usedHeader(entry: LogEntry): HarPair | null {
  const { via, header } = entry.facts
  if (via === 'none' || header === null) return null
  return { name: via === 'origin' ? 'Origin' : 'Referer', value: header }
}

/** How the mock knows the header: seen on the request, rebuilt from the page, or simulated. */
export function headerProvenance(entry: LogEntry): 'observed' | 'reconstructed' | 'simulated' {
  return entry.facts.simulated ? 'simulated' : entry.facts.reconstructed ? 'reconstructed' : 'observed'
}

/**
 * The log entries as a HAR 1.2 file (newest first, as given). Pure. The log holds only masked
 * keys (in the query, the facts and the headers), so the HAR does too; it holds no answer's body,
 * only its size and type.
 * @example toHar([]).log.version // '1.2'
 */
export function toHar(entries: readonly LogEntry[]): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'tmaps-mock', version: '0.1' },
      entries: entries.map((entry) => {
        const header = usedHeader(entry)
        return {
          startedDateTime: new Date(entry.time).toISOString(),
          time: entry.durationMs,
          request: {
            method: entry.method,
            url: entryUrl(entry),
            httpVersion: 'HTTP/1.1',
            headers: header === null ? [] : [header],
            queryString: queryPairs(entry),
            cookies: [],
            headersSize: -1,
            bodySize: -1,
          },
          response: {
            status: entry.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            headers: [],
            cookies: [],
            content: { size: entry.size, mimeType: answerType(entry), text: '' },
            redirectURL: '',
            headersSize: -1,
            bodySize: entry.size,
          },
          cache: {},
          timings: { send: 0, wait: entry.durationMs, receive: 0 },
          comment: entry.reason,
        }
      }),
    },
  }
}
