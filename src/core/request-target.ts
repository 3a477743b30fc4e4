/**
 * The parts of a request's URL the core reads: a `URL` has them, and the HTTPS server splits its
 * own request line into them without a `URL` on the hot path (`PathTarget`).
 */
export interface RequestTarget {
  readonly href: string
  /** `https:` */
  readonly protocol: string
  readonly host: string
  readonly pathname: string
  /** `?...`, or `''` */
  readonly search: string
}

/** A path the WHATWG URL parser keeps as it is: no dot segments, escapes or backslashes to resolve. */
const PLAIN_PATH = /^\/[\w\-~!$&()*+,;=:@/]*$/
/** A query the parser keeps as it is (it would escape spaces, quotes, `<`, `>` and non-ASCII). */
const PLAIN_QUERY = /^\?[\w\-.~!$&()*+,;=:@/?%[\]|^{}]*$/

/**
 * A request line's target on an origin that serves both TMaps hosts, as the HTTPS server reads
 * it (`/geocoding/forward?q=Sfax`). Its TMaps host is the one its path routes to: the core names
 * it when it routes the request (`routedTo`), once, so the runtime never routes the path itself.
 * The memo remembers answers by `path` as it came, so a remembered request is never split;
 * `href`, `pathname` and `search` are split on their first read, without parsing when the path
 * is plain (almost always), else through `new URL`, so that the answer is the same as for a
 * `URL`: `/a/../geocoding/forward` still resolves, odd bytes are escaped.
 * @example new PathTarget('https:', '/geocoding/forward?q=Sfax').search // '?q=Sfax'
 */
export class PathTarget implements RequestTarget {
  readonly protocol: 'https:' | 'http:'
  /** The request target as it came: path and query, unparsed. */
  readonly path: string
  #host = ''
  #parts: RequestTarget | undefined
  constructor(protocol: 'https:' | 'http:', path: string) {
    this.protocol = protocol
    this.path = path
  }
  /** The TMaps host its path routes to; `''` until the core has routed it. */
  get host(): string {
    return this.#host
  }
  /** Names the TMaps host the path routes to (the core's router does, before anything reads the URL). */
  routedTo(host: string): void {
    if (host === this.#host) return
    this.#host = host
    this.#parts = undefined
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
    // Before routing, the path is split on a placeholder host: `https:///a/..` would parse `a` as one.
    this.#parts ??= split(this.protocol, this.#host || UNROUTED, this.path)
    return this.#parts
  }
}

/** The host a target is split on before the core routes it (never seen: it routes first). */
const UNROUTED = 'unrouted.invalid'

function split(protocol: string, host: string, path: string): RequestTarget {
  const href = `${protocol}//${host}${path}`
  const query = path.indexOf('?')
  const pathname = query < 0 ? path : path.slice(0, query)
  const search = query < 0 || query === path.length - 1 ? '' : path.slice(query)
  if (PLAIN_PATH.test(pathname) && (search === '' || PLAIN_QUERY.test(search)) && !path.includes('#'))
    return { href, protocol, host, pathname, search }
  return new URL(href)
}
