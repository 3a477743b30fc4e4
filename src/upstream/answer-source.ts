/**
 * What a request the contract accepted is answered from, instead of the endpoint's own code:
 * a recording (`replay`) or the real TMaps (`serve --upstream`). The contract always decides
 * first: a source never sees a refused request.
 */
export interface AnswerSource {
  /** The answer, or a miss: the mock's own answer then (logged `replay-miss`). */
  answer(request: SourceRequest): SourceAnswer | SourceMiss | Promise<SourceAnswer | SourceMiss>
  /** Back to the first recorded answer of each request (on `mock.reset()`). */
  reset?(): void
}

/** An accepted request, as a source reads it. */
export interface SourceRequest {
  method: string
  /** The URL on the TMaps host the request was decided on (`https://api.tmaps.tn/...`). */
  url: { readonly href: string; readonly host: string; readonly pathname: string; readonly search: string }
  /** The endpoint's name (`geocoding/forward`, `r-tile`). */
  endpoint: string
  /** A POST's body as sent. */
  body: string | undefined
  headers: Pick<Headers, 'get'>
  /** The local key that was accepted (its id), for a recording's `keyName`. */
  keyId: string | null
}

/** A source's answer: written with the contract's CORS headers, logged with `source`. */
export interface SourceAnswer {
  status: number
  body: Uint8Array<ArrayBuffer> | null
  contentType: string
  /** Headers kept from the answer (`Cache-Control`, `ETag`, `Retry-After`). */
  headers: Record<string, string>
  source: 'upstream' | 'replay' | 'replay-miss'
  /** The log's reason. */
  reason: string
  /** The same request will get the same bytes (a recording's last answer): the memo may keep it. */
  repeatable: boolean
  /** TMaps gave no answer (unreachable, too slow): the 502 or 504 is the mock's own. */
  unanswered?: true
}

/** No recorded answer: the mock answers (`onMissing: 'mock'`). */
export interface SourceMiss {
  miss: true
  reason: string
}
