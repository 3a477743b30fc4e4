import type { KeyInfo } from '../src/console/create-console.ts'

/** What the decision of a request read of its key: the key's status and its linked domains. */
export type KeyState = Pick<KeyInfo, 'id' | 'name' | 'status' | 'domains'>

/** A key's state, copied (the console may hand out objects it changes later). */
export function keyState(key: KeyInfo | undefined): KeyState | null {
  return key ? { id: key.id, name: key.name, status: key.status, domains: [...key.domains] } : null
}

/** `a`, `a and b`, `a, b and c` (an empty list as nothing). */
const list = (items: readonly string[]) => {
  const last = items.at(-1) ?? ''
  return items.length <= 1 ? last : `${items.slice(0, -1).join(', ')} and ${last}`
}

/**
 * What changed in the console since an answer was given, as the end of "Sent before …": the
 * key's status and its linked domains then and now (`now` undefined: the key is gone). Empty
 * when nothing the decision read has changed. Pure.
 * @example
 * consoleChanges(
 *   { id: 'k', name: 'Web', status: 'enabled', domains: ['localhost'] },
 *   { id: 'k', name: 'Web', status: 'enabled', domains: [] },
 * ) // ['you unlinked localhost from “Web”']
 */
export function consoleChanges(then: KeyState, now: KeyState | null | undefined): string[] {
  if (!now) return [`“${then.name}” left this console (a reset or an import)`]
  const changes: string[] = []
  if (now.status !== then.status)
    changes.push(
      `you ${now.status === 'enabled' ? 'enabled' : now.status === 'disabled' ? 'disabled' : 'revoked'} “${then.name}”`,
    )
  const unlinked = then.domains.filter((d) => !now.domains.includes(d))
  const linked = now.domains.filter((d) => !then.domains.includes(d))
  if (unlinked.length > 0) changes.push(`you unlinked ${list(unlinked)} from “${then.name}”`)
  if (linked.length > 0) changes.push(`you linked ${list(linked)} to “${then.name}”`)
  return changes
}
