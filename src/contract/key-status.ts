/**
 * A key's status, by the contract's names: `enabled` (a new key), `disabled` or `revoked`.
 *
 * The console's Status column shows them as Enabled (the docs also say Active), Disabled,
 * Revoked.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type KeyStatus } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Web' })
 * const status: KeyStatus = (await mock.console.disableKey(key)).status
 * assert.equal(status, 'disabled')
 * ```
 */
export type KeyStatus = 'enabled' | 'disabled' | 'revoked'

/**
 * A console action on a key's status.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { allowedKeyActions, type KeyAction } from 'tmaps-mock'
 *
 * const actions: KeyAction[] = allowedKeyActions('enabled')
 * assert.deepEqual(actions, ['disable']) // revoking needs a disabled key
 * ```
 */
export type KeyAction = 'disable' | 'enable' | 'revoke'

export const KEY_STATUSES = ['enabled', 'disabled', 'revoked'] as const satisfies readonly KeyStatus[]

/**
 * The documented transitions and nothing else: enabled -> disabled -> enabled, disabled -> revoked.
 * Revoked is final. Each refusal says why and what to do instead.
 */
const TRANSITIONS = {
  enabled: {
    disable: { to: 'disabled' },
    enable: { refused: 'it is already enabled' },
    revoke: { refused: 'an enabled key must be disabled before it can be revoked. Disable it first' },
  },
  disabled: {
    disable: { refused: 'it is already disabled' },
    enable: { to: 'enabled' },
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
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { nextKeyStatus } from 'tmaps-mock'
 *
 * assert.deepEqual(nextKeyStatus('disabled', 'enable'), { ok: true, status: 'enabled' })
 * const refused = nextKeyStatus('revoked', 'enable')
 * assert.ok(!refused.ok && refused.reason.includes('revocation is final'))
 * ```
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
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { allowedKeyActions } from 'tmaps-mock'
 *
 * assert.deepEqual(allowedKeyActions('disabled'), ['enable', 'revoke'])
 * assert.deepEqual(allowedKeyActions('revoked'), []) // revocation is final
 * ```
 */
export function allowedKeyActions(status: KeyStatus): KeyAction[] {
  return (Object.keys(TRANSITIONS[status]) as KeyAction[]).filter((a) => nextKeyStatus(status, a).ok)
}

/**
 * Where a key works, in words (the CLI banner and the playground say it the same way): a
 * disabled or revoked key works nowhere; an enabled key works server-side, and from browsers on
 * its linked domains only.
 * @example keyReach('enabled', []) // 'server-side only (no Origin, no Referer): no domain linked'
 */
export function keyReach(status: KeyStatus, domains: readonly string[]): string {
  if (status === 'revoked') return 'nowhere: revoked, and revocation is final'
  if (status === 'disabled') return 'nowhere until enabled again (every request: 401)'
  if (domains.length === 0) return 'server-side only (no Origin, no Referer): no domain linked'
  return `browsers on ${domains.join(', ')}, and server-side`
}
