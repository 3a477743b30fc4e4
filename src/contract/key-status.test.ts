import { describe, expect, it } from 'vitest'
import { allowedKeyActions, keyReach, nextKeyStatus } from './key-status.ts'

describe('key status transitions', () => {
  it.each([
    ['enabled', 'disable', 'disabled'],
    ['disabled', 'enable', 'enabled'],
    ['disabled', 'revoke', 'revoked'],
  ] as const)('%s --%s--> %s', (from, action, to) => {
    expect(nextKeyStatus(from, action)).toEqual({ ok: true, status: to })
  })

  it.each([
    ['enabled', 'enable', /already enabled/],
    ['enabled', 'revoke', /Disable it first/],
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
    expect(allowedKeyActions('enabled')).toEqual(['disable'])
    expect(allowedKeyActions('disabled')).toEqual(['enable', 'revoke'])
    expect(allowedKeyActions('revoked')).toEqual([])
  })
})

describe('keyReach', () => {
  it.each([
    ['revoked', ['localhost'], 'nowhere: revoked, and revocation is final'],
    ['disabled', [], 'nowhere until enabled again (every request: 401)'],
    ['enabled', [], 'server-side only (no Origin, no Referer): no domain linked'],
    ['enabled', ['localhost', 'app.tn'], 'browsers on localhost, app.tn, and server-side'],
  ] as const)('says a %s key with domains %j works %j', (status, domains, words) => {
    expect(keyReach(status, domains)).toBe(words)
  })
})
