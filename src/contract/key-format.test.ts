import { describe, expect, it } from 'vitest'
import { isKeyValue, keyPrefix, maskKey, maskSecrets } from './key-format.ts'

const valid = `ak_${'0123456789abcdef'.repeat(2)}`

describe('isKeyValue', () => {
  it.each([
    [valid, true],
    [valid.toUpperCase(), false],
    [`AK_${valid.slice(3)}`, false],
    [`ak_${'0123456789ABCDEF'.repeat(2)}`, false],
    [valid.slice(0, -1), false],
    [`${valid}0`, false],
    [`ak_${'g'.repeat(32)}`, false],
    ['ak_a1b2c3d4e5f607xxxXXXxXXxxXX', false],
    [` ${valid}`, false],
    [`${valid}\n`, false],
    ['', false],
  ])('%j -> %s', (value, expected) => {
    expect(isKeyValue(value)).toBe(expected)
  })
})

describe('masking', () => {
  it('shows the 7-character prefix of a key', () => {
    expect(keyPrefix(valid)).toBe('ak_0123')
    expect(maskKey(valid)).toBe('ak_0123…')
  })

  it('never shows more than half of a short value', () => {
    expect(maskKey('secret')).toBe('sec…')
    expect(maskKey('ab')).toBe('a…')
    expect(maskKey('')).toBe('')
  })
})

describe('maskSecrets', () => {
  const key = `ak_1a2b${'c'.repeat(28)}`
  it.each([
    [`https://shop.tn/map?api_key=${key}&x=1`, 'https://shop.tn/map?api_key=ak_1a2b…&x=1'],
    [` ${key}`, ' ak_1a2b…'],
    [key.toUpperCase(), 'AK_1A2B…'],
    [`${key}${key}`, 'ak_1a2b…'],
    ['no key here: ak_ alone, ak_12', 'no key here: ak_ alone, ak_12'],
  ])('masks %j as %j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked)
  })
})
