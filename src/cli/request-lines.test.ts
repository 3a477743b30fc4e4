import { expect, it, vi } from 'vitest'
import { createRequestPrinter } from './request-lines.ts'

const line = (seconds: number, path = '/geocoding/forward?q=Sfax&api_key=ak_1a2b…') => ({
  time: new Date(Date.UTC(2026, 10, 23, 10, 0, seconds)),
  method: 'GET',
  path,
  status: 200,
  rule: 'ok',
  ms: 1.25,
})

it('writes the lines of a burst in one write, after the burst, with their own clock', async () => {
  vi.useFakeTimers()
  try {
    const writes: string[] = []
    const printer = createRequestPrinter((text) => writes.push(text))
    for (let i = 0; i < 3; i++) printer.print(line(i % 2))
    expect(writes).toEqual([])
    vi.advanceTimersByTime(50)
    expect(writes).toHaveLength(1)
    expect(writes[0]!.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:00 GET \/geocoding\/forward\?q=Sfax&api_key=ak_1a2b… 200 ok 1\.3 ms$/,
      ),
      expect.stringMatching(/^\d\d:\d\d:01 GET /),
      expect.stringMatching(/^\d\d:\d\d:00 GET /),
    ])
  } finally {
    vi.useRealTimers()
  }
})

it('writes at once every 512 lines, and what is left on flush', () => {
  const writes: string[] = []
  const printer = createRequestPrinter((text) => writes.push(text))
  for (let i = 0; i < 600; i++) printer.print(line(0))
  expect(writes.map((w) => w.split('\n').length - 1)).toEqual([512])
  printer.flush()
  expect(writes.map((w) => w.split('\n').length - 1)).toEqual([512, 88])
  printer.flush()
  expect(writes).toHaveLength(2)
})
