const utf8 = new TextEncoder()

/** A value as UTF-8 JSON bytes: every JSON answer's body. */
export function utf8Json(value: unknown): Uint8Array<ArrayBuffer> {
  return utf8.encode(JSON.stringify(value))
}
