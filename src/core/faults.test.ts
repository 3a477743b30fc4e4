import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTmapsCore } from './create-core.ts'

const core = createTmapsCore({ state: 'empty', seed: 'faults' })
let key = ''
beforeAll(async () => {
  await core.ready
  key = (await core.console.createKey({ name: 'Faults', domains: ['localhost'] })).value
})
afterEach(() => {
  core.faults.clear()
  vi.useRealTimers()
})
const forward = (extra = '') => `https://api.tmaps.tn/geocoding/forward?q=Sfax&limit=1&api_key=${key}${extra}`
const send = (url = forward(), init?: RequestInit) => core.fetch(new Request(url, init))

/**
 * The docs' retry strategy (errors page): 429 with exponential backoff at 1 s, 2 s, 4 s, at most
 * 3 retries; a 5xx retried after a few seconds (2 s here, 3 attempts); never a 401 or 403.
 */
async function withRetry(url: string): Promise<{ response: Response; attempts: number; waited: number }> {
  let waited = 0
  for (let attempt = 1; ; attempt++) {
    const response = await send(url)
    const retryable = response.status === 429 ? attempt <= 3 : response.status >= 500 ? attempt < 3 : false
    if (!retryable) return { response, attempts: attempt, waited }
    const wait = response.status === 429 ? 1000 * 2 ** (attempt - 1) : 2000
    await new Promise((resolve) => setTimeout(resolve, wait))
    waited += wait
  }
}

describe('mock.faults', () => {
  it('answers the next requests 429 with the documented body and Retry-After, then normally', async () => {
    const rule = core.faults.add({ endpoint: '/geocoding/forward', status: 429, times: 2 })
    expect(rule).toMatchObject({
      id: expect.stringMatching(/^fault_\d+$/),
      endpoint: 'geocoding/forward',
      remaining: 2,
    })
    for (let i = 0; i < 2; i++) {
      const response = await send()
      expect(response.status).toBe(429)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(response.headers.get('retry-after')).toBe('1')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toEqual({ error: 'rate limited' })
    }
    expect(core.faults.list()).toEqual([])
    expect((await send()).status).toBe(200)
  })

  it('lets a client with the docs retry strategy recover from two 429s after 1 s and 2 s (fake timers)', async () => {
    vi.useFakeTimers()
    core.faults.add({ status: 429, times: 2 })
    const before = core.usage(key).byStatus
    const run = withRetry(forward())
    await vi.advanceTimersByTimeAsync(999)
    expect(core.log.entries()[0]?.status).toBe(429)
    await vi.advanceTimersByTimeAsync(3000)
    const { response, attempts, waited } = await run
    expect(response.status).toBe(200)
    expect([attempts, waited]).toEqual([3, 3000])
    const after = core.usage(key).byStatus
    expect((after['429'] ?? 0) - (before['429'] ?? 0)).toBe(2)
  })

  it('makes that client give up after 3 retries while the rate limit lasts (1 s + 2 s + 4 s)', async () => {
    vi.useFakeTimers()
    core.faults.add({ status: 429 })
    const run = withRetry(forward())
    await vi.advanceTimersByTimeAsync(7000)
    const { response, attempts, waited } = await run
    expect(response.status).toBe(429)
    expect([attempts, waited]).toEqual([4, 7000])
  })

  it.each([500, 502, 503, 504] as const)(
    'answers %i with its JSON body, and the client retries it',
    async (status) => {
      vi.useFakeTimers()
      core.faults.add({ status, times: 1 })
      const run = withRetry(forward('&lang=en'))
      await vi.advanceTimersByTimeAsync(2000)
      const { response, attempts } = await run
      expect([response.status, attempts]).toEqual([200, 2])
      const faulted = core.log.entries()[1]!
      expect(faulted).toMatchObject({ status, rule: 'fault-injected', outcome: 'rejected' })
      expect(faulted.fault).toEqual({ rules: [expect.any(String)], delayMs: 0, status })
    },
  )

  it('acts before the auth check: a bad key gets the fault, as an edge rate limiter would answer', async () => {
    core.faults.add({ status: 503, times: 1 })
    const response = await send('https://api.tmaps.tn/geocoding/forward?q=Sfax')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: 'service unavailable' })
    expect((await send('https://api.tmaps.tn/geocoding/forward?q=Sfax')).status).toBe(401)
  })

  it('holds answers back by delayMs, a range drawing per request, and marks them in the log', async () => {
    vi.useFakeTimers()
    core.faults.add({ delayMs: [200, 800] })
    const settled: number[] = []
    const pending = ['fr', 'en', 'ar'].map((l) =>
      send(forward(`&lang=${l}`)).then((r) => settled.push(r.status)),
    )
    await vi.advanceTimersByTimeAsync(199)
    expect(settled).toEqual([])
    await vi.advanceTimersByTimeAsync(601)
    await Promise.all(pending)
    expect(settled).toEqual([200, 200, 200])
    const delays = core.log
      .entries()
      .slice(0, 3)
      .map((e) => e.fault?.delayMs)
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(200)
    for (const d of delays) expect(d).toBeLessThanOrEqual(800)
    expect(new Set(delays).size).toBeGreaterThan(1)
  })

  it('resets the connection: fetch rejects, and the log and usage count it with status 0', async () => {
    core.faults.add({ endpoint: '/r-tile', network: 'reset', times: 1 })
    const tile = `https://tiles.tmaps.tn/r-tile/1/1/0?api_key=${key}`
    const response = await send(tile)
    expect(response.type).toBe('error')
    expect(core.log.entries()[0]).toMatchObject({
      status: 0,
      endpoint: 'r-tile',
      fault: { network: 'reset' },
    })
    expect(core.usage(key).byStatus['0']).toBeGreaterThanOrEqual(1)
    expect((await send(tile)).status).toBe(200)
  })

  it('limits a rule to its endpoint and applies a probability from the seed, the same every run', async () => {
    const draws = async () => {
      const mock = createTmapsCore({ state: 'empty', seed: 'odds' })
      const { value } = await mock.console.createKey({ name: 'k' })
      mock.faults.add({ endpoint: '/geocoding/reverse', status: 500, probability: 0.3 })
      const statuses: number[] = []
      for (let i = 0; i < 40; i++) {
        const r = await mock.fetch(
          new Request(`https://api.tmaps.tn/geocoding/reverse?lat=36.8&lng=10.18&api_key=${value}`),
        )
        statuses.push(r.status)
      }
      const other = await mock.fetch(
        new Request(`https://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=${value}`),
      )
      return { statuses, other: other.status }
    }
    const [a, b] = [await draws(), await draws()]
    expect(a).toEqual(b)
    expect(a.other).toBe(200)
    const failed = a.statuses.filter((s) => s === 500).length
    expect(failed).toBeGreaterThan(4)
    expect(failed).toBeLessThan(24)
  })

  it('lists, removes and clears rules', () => {
    const a = core.faults.add({ status: 500 })
    const b = core.faults.add({ delayMs: 100 })
    expect(core.faults.list().map((r) => r.id)).toEqual([a.id, b.id])
    expect(core.faults.remove(a.id)).toBe(true)
    expect(core.faults.remove(a.id)).toBe(false)
    core.faults.clear()
    expect(core.faults.list()).toEqual([])
  })

  it.each([
    [{}, /give at least one of status, delayMs or network/],
    [{ status: 418 }, /status must be one of the numbers 429, 500, 502, 503, 504 \(got 418\)/],
    [{ status: 'toString' }, /status must be one of the numbers .* \(got "toString"\)/],
    [{ status: 'constructor' }, /status must be one of the numbers .* \(got "constructor"\)/],
    [{ status: '429' }, /status must be one of the numbers .* \(got "429"\)/],
    [{ status: 429, network: 'reset' }, /status or network, not both/],
    [{ endpoint: '/geocoding/fwd', status: 429 }, /is not a TMaps path. Use one of .*\/geocoding\/forward/],
    [{ delayMs: -1 }, /delayMs must be whole milliseconds/],
    [{ delayMs: [800, 200] }, /delayMs must be whole milliseconds/],
    [{ status: 500, times: 0 }, /times must be a whole number/],
    [{ status: 500, probability: 1.5 }, /probability must be/],
    [{ status: 500, when: 'now' }, /unknown option when/],
  ])('refuses the rule %j and says what to fix', (input, message) => {
    expect(() => core.faults.add(input as never)).toThrow(message)
    expect(() => core.faults.add(input as never)).toThrow(/^Failed to add the fault: /)
  })
})
