import { describe, expect, it } from 'vitest'
import { allowedKeyActions, nextKeyStatus } from './key-status.ts'

describe('key status transitions', () => {
  it.each([
    ['active', 'disable', 'disabled'],
    ['disabled', 'enable', 'active'],
    ['disabled', 'revoke', 'revoked'],
  ] as const)('%s --%s--> %s', (from, action, to) => {
    expect(nextKeyStatus(from, action)).toEqual({ ok: true, status: to })
  })

  it.each([
    ['active', 'enable', /already active/],
    ['active', 'revoke', /Disable it first/],
    ['disabled', 'disable', /already disabled/],
    ['revoked', 'enable', /final.*Create a new key/],
    ['revoked', 'disable', /final/],
    ['revoked', 'revoke', /already revoked/],
  ] as const)('refuses %s --%s--> with a reason', (from, action, reason) => {
    const result = nextKeyStatus(from, action)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toMatch(reason)
  })

  it('offers only the documented actions', () => {
    expect(allowedKeyActions('active')).toEqual(['disable'])
    expect(allowedKeyActions('disabled')).toEqual(['enable', 'revoke'])
    expect(allowedKeyActions('revoked')).toEqual([])
  })
})
