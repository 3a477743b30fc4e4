import { describe, expect, it } from 'vitest'
import { consoleChanges, type KeyState, keyState } from '../playground/stale-answer.ts'
import type { KeyInfo } from '../src/console/create-console.ts'

const WEB: KeyState = { id: 'key_1', name: 'Web', status: 'enabled', domains: ['localhost', 'app.tn'] }

describe('consoleChanges', () => {
  it('finds nothing when the key’s status and domains are the same (in any order)', () => {
    expect(consoleChanges(WEB, { ...WEB, domains: ['app.tn', 'localhost'] })).toEqual([])
  })

  it.each([
    [{ domains: ['app.tn'] }, ['you unlinked localhost from “Web”']],
    [{ domains: ['localhost', 'app.tn', '127.0.0.1'] }, ['you linked 127.0.0.1 to “Web”']],
    [{ domains: [] }, ['you unlinked localhost and app.tn from “Web”']],
    [{ status: 'disabled' as const }, ['you disabled “Web”']],
    [
      { status: 'revoked' as const, domains: ['x.tn'] },
      ['you revoked “Web”', 'you unlinked localhost and app.tn from “Web”', 'you linked x.tn to “Web”'],
    ],
  ])('says what changed: %j', (change, words) => {
    expect(consoleChanges(WEB, { ...WEB, ...change })).toEqual(words)
  })

  it('says so when the key is gone', () => {
    expect(consoleChanges(WEB, undefined)).toEqual(['“Web” left this console (a reset or an import)'])
  })

  it('copies a key’s state, so a later change of the console does not change it', () => {
    const info: KeyInfo = {
      ...WEB,
      domains: [...WEB.domains],
      prefix: 'ak_1a2b',
      createdAt: '',
      updatedAt: '',
      actions: [],
    }
    const copy = keyState(info)!
    info.domains.push('later.tn')
    expect(copy.domains).toEqual(['localhost', 'app.tn'])
    expect(keyState(undefined)).toBeNull()
  })
})
