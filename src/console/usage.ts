import { UNATTRIBUTED, type UsageDay } from '../store/schemas.ts'

/**
 * What the console's Usage tab shows for one key, from `mock.usage(key)`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type UsageReport } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * await mock.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=not-a-key'))
 * const report: UsageReport = mock.usage('unattributed') // requests with no known key
 * assert.equal(report.total, 1)
 * assert.deepEqual(report.byStatus, { 401: 1 })
 * ```
 */
export interface UsageReport {
  /** The key id, or `"unattributed"` for requests whose key is missing, malformed or unknown. */
  key: string
  total: number
  byStatus: Record<string, number>
  byEndpoint: Record<string, number>
  /** One entry per day with traffic, oldest first, at most `days` of them. */
  days: UsageDay[]
}

/** Status codes as the counters' keys, made once. */
const STATUS_NAMES: readonly string[] = Array.from({ length: 600 }, (_, i) => String(i))

/**
 * Per-key request counters by day, status and endpoint. Memory is bounded: at most `maxDays`
 * days per key (the oldest day is dropped), endpoints come from a fixed list, and only keys
 * that exist (plus one "unattributed" bucket) get counters.
 * @example
 * const usage = createUsage({ maxDays: 90 }); usage.record('key_1', 'geocoding/forward', 200, Date.now())
 */
export function createUsage({ maxDays = 90 }: { maxDays?: number | undefined } = {}) {
  const buckets = new Map<string, UsageDay[]>()

  const bump = (counts: Record<string, number>, name: string) => {
    counts[name] = (counts[name] ?? 0) + 1
  }
  // The day's date text, made once a day rather than once a request.
  let lastDay = Number.NaN
  let lastDate = ''
  const dateOf = (atMs: number) => {
    const day = Math.floor(atMs / 86_400_000)
    if (day !== lastDay) {
      lastDay = day
      lastDate = new Date(atMs).toISOString().slice(0, 10)
    }
    return lastDate
  }

  /** The counters of `bucket` on `date`, made (in date order, at most `maxDays`) if missing. */
  const dayOf = (bucket: string, date: string): UsageDay => {
    let days = buckets.get(bucket)
    if (!days) {
      days = []
      buckets.set(bucket, days)
    }
    let day = days[days.length - 1]
    if (!day || day.date !== date) {
      // Requests arrive in time order; a clock set back lands in its own (sorted) day.
      day = days.find((d) => d.date === date)
      if (!day) {
        day = { date, total: 0, byStatus: {}, byEndpoint: {} }
        days.push(day)
        days.sort((a, b) => a.date.localeCompare(b.date))
        if (days.length > maxDays) days.splice(0, days.length - maxDays)
      }
    }
    return day
  }

  return {
    /** Counts one request of `bucket` at `atMs` (milliseconds since the epoch, as `Date.now()`). */
    record(bucket: string, endpoint: string, status: number, atMs: number): void {
      const day = dayOf(bucket, dateOf(atMs))
      day.total++
      bump(day.byStatus, STATUS_NAMES[status] ?? String(status))
      bump(day.byEndpoint, endpoint)
    },

    /** Adds other counters to these (another tab's, counted apart), day by day. */
    add(data: Record<string, UsageDay[]>): void {
      for (const [bucket, days] of Object.entries(data)) {
        for (const { date, total, byStatus, byEndpoint } of days) {
          const day = dayOf(bucket, date)
          day.total += total
          for (const [name, n] of Object.entries(byStatus)) day.byStatus[name] = (day.byStatus[name] ?? 0) + n
          for (const [name, n] of Object.entries(byEndpoint))
            day.byEndpoint[name] = (day.byEndpoint[name] ?? 0) + n
        }
      }
    },

    report(bucket: string): UsageReport {
      const days = (buckets.get(bucket) ?? []).map((d) => structuredClone(d))
      const sum = (pick: (d: UsageDay) => Record<string, number>) => {
        const out: Record<string, number> = {}
        for (const d of days) for (const [k, v] of Object.entries(pick(d))) out[k] = (out[k] ?? 0) + v
        return out
      }
      return {
        key: bucket,
        total: days.reduce((n, d) => n + d.total, 0),
        byStatus: sum((d) => d.byStatus),
        byEndpoint: sum((d) => d.byEndpoint),
        days,
      }
    },

    /** Drops the counters of keys that no longer exist (after a restore). */
    retain(keep: (bucket: string) => boolean): void {
      for (const bucket of buckets.keys())
        if (bucket !== UNATTRIBUTED && !keep(bucket)) buckets.delete(bucket)
    },

    toJSON(): Record<string, UsageDay[]> {
      return Object.fromEntries([...buckets].map(([k, v]) => [k, structuredClone(v)]))
    },

    load(data: Record<string, UsageDay[]>): void {
      buckets.clear()
      for (const [k, v] of Object.entries(data)) buckets.set(k, structuredClone(v).slice(-maxDays))
    },

    clear(): void {
      buckets.clear()
    },
  }
}

/** The counters of one mock (`createUsage`). */
export type Usage = ReturnType<typeof createUsage>
