import { expect, it } from 'vitest'
import { idleCollector, keepYoungGenerationSmall } from './heap.ts'

it('leaves the young generation alone when the user sized it (flags or NODE_OPTIONS)', () => {
  expect(keepYoungGenerationSmall(['--max-semi-space-size=8'], '')).toBe(false)
  expect(keepYoungGenerationSmall([], '--max-old-space-size=512 --min-semi-space-size=2')).toBe(false)
  expect(keepYoungGenerationSmall(['--semi-space-growth-factor=2'], '')).toBe(false)
})

it('keeps it at its first size otherwise', () => {
  expect(keepYoungGenerationSmall(['--enable-source-maps'], '--max-old-space-size=512')).toBe(true)
})

it('gives memory back once when the server goes idle after work, never while it works', () => {
  const next = idleCollector()
  expect(next(0.5)).toBe(false) // idle from the start: nothing to give back
  expect(next(0)).toBe(false)
  expect(next(250)).toBe(false) // answering requests
  expect(next(40)).toBe(false)
  expect(next(2)).toBe(false) // one quiet second: a pause between bursts, not idle
  expect(next(300)).toBe(false) // the next burst
  expect(next(2)).toBe(false)
  expect(next(1)).toBe(true) // two quiet seconds in a row after work: collect
  expect(next(1)).toBe(false) // and only once
  expect(next(0)).toBe(false)
  expect(next(0)).toBe(false)
  expect(next(11)).toBe(false) // a little work again
  expect(next(3)).toBe(false)
  expect(next(3)).toBe(true)
})
