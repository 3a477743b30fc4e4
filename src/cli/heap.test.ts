import { expect, it } from 'vitest'
import { keepYoungGenerationSmall } from './heap.ts'

it('leaves the young generation alone when the user sized it (flags or NODE_OPTIONS)', () => {
  expect(keepYoungGenerationSmall(['--max-semi-space-size=8'], '')).toBe(false)
  expect(keepYoungGenerationSmall([], '--max-old-space-size=512 --min-semi-space-size=2')).toBe(false)
  expect(keepYoungGenerationSmall(['--semi-space-growth-factor=2'], '')).toBe(false)
})

it('keeps it at its first size otherwise', () => {
  expect(keepYoungGenerationSmall(['--enable-source-maps'], '--max-old-space-size=512')).toBe(true)
})
