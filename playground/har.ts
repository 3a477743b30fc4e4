import type { LogEntry } from '../src/console/request-log.ts'

/** A HAR 1.2 name/value pair (headers, query string, cookies). */
export interface HarPair {
  name: string
  value: string
}

/** One request of a HAR 1.2 log, as the playground exports it. */
export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    headers: HarPair[]
    queryString: HarPair[]
    cookies: HarPair[]
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    headers: HarPair[]
    cookies: HarPair[]
    content: { size: number; mimeType: string; text: string }
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  comment: string
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[] }
}

/** The request's URL without its query: the log never keeps it, as it carries the key. */
export const entryUrl = (entry: LogEntry) => `https://${entry.host}${entry.path}`

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
 * The log entries as a HAR 1.2 file (newest first, as given). Pure. The log holds no query string
 * and only masked keys, so neither does the HAR: its `queryString` is empty.
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
          time: 0,
          request: {
            method: entry.method,
            url: entryUrl(entry),
            httpVersion: 'HTTP/1.1',
            headers: header === null ? [] : [header],
            queryString: [],
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
            content: { size: -1, mimeType: 'application/json', text: '' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
          cache: {},
          timings: { send: 0, wait: 0, receive: 0 },
          comment: entry.reason,
        }
      }),
    },
  }
}
