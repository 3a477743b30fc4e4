import { expect, it } from 'vitest'
import { escapeControlCharacters, hasControlCharacters } from './control-characters.ts'

it.each([
  ['ESC (clears the screen, sets a title)', 'Web\u001b[2J'],
  ['a newline (forges a line)', 'Web\nKeys: none'],
  ['a C1 control', 'Web\u009b2J'],
  ['a bidirectional override', 'Web \u202Egnirts'],
  ['NUL', 'Web\u0000'],
])('finds %s', (_what, text) => {
  expect(hasControlCharacters(text)).toBe(true)
})

it('accepts names in French and Arabic, with accents and spaces', () => {
  expect(hasControlCharacters('Frontend de production — تونس')).toBe(false)
})

it('writes control characters as visible escapes', () => {
  expect(escapeControlCharacters('a\u001b]0;pwned\u0007b\nc')).toBe('a\\u001b]0;pwned\\u0007b\\u000ac')
})
