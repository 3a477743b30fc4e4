import type { RequestTarget } from './handle-request.ts'

/** A path the WHATWG URL parser keeps as it is: no dot segments, escapes or backslashes to resolve. */
const PLAIN_PATH = /^\/[\w\-~!$&()*+,;=:@/]*$/
/** A query the parser keeps as it is (it would escape spaces, quotes, `<`, `>` and non-ASCII). */
const PLAIN_QUERY = /^\?[\w\-.~!$&()*+,;=:@/?%[\]|^{}]*$/

/**
 * A request line's target as a server reads it (`/geocoding/forward?q=Sfax`), on a known
 * protocol and host: the memo remembers answers by `path` as it came, so a remembered request
 * is never split; `href`, `pathname` and `search` are split on their first read, without
 * parsing when the path is plain (almost always), else through `new URL`, so that the answer is
 * the same as for a `URL`: `/a/../geocoding/forward` still resolves, odd bytes are escaped.
 * @example new PathTarget('https:', 'api.tmaps.tn', '/geocoding/forward?q=Sfax').search // '?q=Sfax'
 */
export class PathTarget implements RequestTarget {
  readonly protocol: 'https:' | 'http:'
  readonly host: string
  /** The request target as it came: path and query, unparsed. */
  readonly path: string
  #parts: RequestTarget | undefined
  constructor(protocol: 'https:' | 'http:', host: string, path: string) {
    this.protocol = protocol
    this.host = host
    this.path = path
  }
  get href(): string {
    return this.#split().href
  }
  get pathname(): string {
    return this.#split().pathname
  }
  get search(): string {
    return this.#split().search
  }
  #split(): RequestTarget {
    this.#parts ??= split(this.protocol, this.host, this.path)
    return this.#parts
  }
}

function split(protocol: string, host: string, path: string): RequestTarget {
  const href = `${protocol}//${host}${path}`
  const query = path.indexOf('?')
  const pathname = query < 0 ? path : path.slice(0, query)
  const search = query < 0 || query === path.length - 1 ? '' : path.slice(query)
  if (PLAIN_PATH.test(pathname) && (search === '' || PLAIN_QUERY.test(search)) && !path.includes('#'))
    return { href, protocol, host, pathname, search }
  return new URL(href)
}
