import { execFileSync } from 'node:child_process'
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

/**
 * A process as `tmaps-mock serve` runs: its young generation grown while it started, then kept
 * at that size, then the idle collection (the last-resort kind, which shrinks it to 1 MB); then
 * a load whose objects live a little (as requests' do). `grow`: as serve does after it (`growBack`).
 */
const YOUNG_GENERATION = `
const { keepYoungGenerationSmall, growBack, youngGenerationSize } = await import(${JSON.stringify(new URL('./heap.ts', import.meta.url).href)})
const { setFlagsFromString } = await import('node:v8')
const { runInNewContext } = await import('node:vm')
const { setTimeout: sleep } = await import('node:timers/promises')
const kept = new Array(30000)
let at = 0
const load = async (rounds) => {
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < 20000; i++) kept[at++ % kept.length] = { i, s: 'x' + i, a: [i, i] }
    await sleep(0) // the collections' observers run between turns, as between requests
  }
}
await load(60)
const started = youngGenerationSize()
keepYoungGenerationSmall([], '')
setFlagsFromString('--expose-gc')
runInNewContext('gc')({ type: 'major', execution: 'sync', flavor: 'last-resort' })
const collected = youngGenerationSize()
if (process.argv[1] === 'grow') growBack(started)
await load(100)
const loaded = youngGenerationSize()
await load(50)
console.log(JSON.stringify({ started, collected, loaded, later: youngGenerationSize() }))
`
const youngGeneration = (mode: 'grow' | 'stay') =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--max-semi-space-size=8', '--input-type=module', '-e', YOUNG_GENERATION, mode],
      {
        encoding: 'utf8',
      },
    ),
  ) as { started: number; collected: number; loaded: number; later: number }

it('lets the young generation grow back to its size after the idle collection shrank it, and no further', () => {
  const grown = youngGeneration('grow')
  expect(grown.started).toBe(16 * 2 ** 20) // 8 MB semi-spaces, grown while starting
  expect(grown.collected).toBeLessThanOrEqual(2 ** 20) // the last-resort collection shrinks it
  expect(grown.loaded).toBe(grown.started) // back under load (7-8 times fewer scavenges than at 1 MB)
  expect(grown.later).toBe(grown.started) // and kept there
  // Without it, it stays smaller than it was (1-7 MB measured, V8 growing it a little on its
  // own: 7-8 times the scavenges at 1 MB, ~15-25% more CPU a request: docs/server.md).
  const stayed = youngGeneration('stay')
  expect(stayed.collected).toBeLessThanOrEqual(2 ** 20)
  expect(stayed.later).toBeLessThan(stayed.started)
}, 60_000)
