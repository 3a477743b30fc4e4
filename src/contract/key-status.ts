/** A key's status, as the console's Status column shows it (`Active`, `Disabled`, `Revoked`). */
export type KeyStatus = 'active' | 'disabled' | 'revoked'

/** A console action on a key's status. */
export type KeyAction = 'disable' | 'enable' | 'revoke'

export const KEY_STATUSES: readonly KeyStatus[] = ['active', 'disabled', 'revoked']

/**
 * The documented transitions and nothing else: active -> disabled -> active, disabled -> revoked.
 * Revoked is final. Each refusal says why and what to do instead.
 */
const TRANSITIONS = {
  active: {
    disable: { to: 'disabled' },
    enable: { refused: 'it is already active' },
    revoke: { refused: 'an active key must be disabled before it can be revoked. Disable it first' },
  },
  disabled: {
    disable: { refused: 'it is already disabled' },
    enable: { to: 'active' },
    revoke: { to: 'revoked' },
  },
  revoked: {
    disable: { refused: 'it is revoked, and revocation is final. Create a new key instead' },
    enable: { refused: 'it is revoked, and revocation is final. Create a new key instead' },
    revoke: { refused: 'it is already revoked' },
  },
} as const satisfies Record<KeyStatus, Record<KeyAction, { to: KeyStatus } | { refused: string }>>

/**
 * The status a key moves to under an action, or the reason the console refuses it.
 * @example nextKeyStatus('disabled', 'enable') // { ok: true, status: 'active' }
 */
export function nextKeyStatus(
  status: KeyStatus,
  action: KeyAction,
): { ok: true; status: KeyStatus } | { ok: false; reason: string } {
  const rule: { to: KeyStatus } | { refused: string } = TRANSITIONS[status][action]
  return 'to' in rule ? { ok: true, status: rule.to } : { ok: false, reason: rule.refused }
}

/**
 * The actions the console offers for a key in this status (what a UI should show).
 * @example allowedKeyActions('disabled') // ['enable', 'revoke']
 */
export function allowedKeyActions(status: KeyStatus): KeyAction[] {
  return (Object.keys(TRANSITIONS[status]) as KeyAction[]).filter((a) => nextKeyStatus(status, a).ok)
}
