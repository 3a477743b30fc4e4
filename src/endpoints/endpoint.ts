/** What an endpoint receives once the contract has accepted the request. */
export interface EndpointContext {
  url: URL
  /** The parsed JSON body of a POST (validated by the endpoint). */
  body?: unknown
  /** The data seed: same seed, same request, same answer. */
  seed: string | number
}

/** One documented TMaps operation. */
export interface Endpoint {
  /** Its name in usage reports and the log, e.g. `geocoding/forward`. */
  name: string
  host: 'api' | 'tiles'
  method: 'GET' | 'POST'
  path: string
  /** Answers 200 with this JSON, or throws a `ParamError` for a 400. */
  handle(ctx: EndpointContext): unknown
}
