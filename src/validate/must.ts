/**
 * The value an invariant of tmaps-mock's own code says is there (an entry of a map it built, an
 * item of a list it made non-empty), or a thrown `Error` naming the invariant that broke: a bug in
 * tmaps-mock, never in what its user wrote (that is a `TypeError` in the rule's words: `failure`).
 * Off the per-request paths: its `what` is often a template string, made on every call.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null)
    throw new Error(`tmaps-mock: ${what} (this is a bug in tmaps-mock, please report it)`)
  return value
}
