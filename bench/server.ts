/**
 * Server part of `npm run bench`: the HTTPS server of `tmaps-mock serve` on real sockets.
 * 1. Throughput against a bare `node:https` server answering the same bytes with the same
 *    certificate, each in its own process, autocannon in this one (bench/throughput.ts; target
 *    >= 0.8x on the cached geocode, p99 <= 2x).
 * 2. Load: 200 concurrent connections for LOAD_SECONDS (default 30) while a key is disabled and
 *    enabled again every 100 ms: no answer outside the contract (200, or 401 while disabled), no
 *    socket error, usage counts equal to the requests sent, memory flat (heap at the end within
 *    1.3x of the heap after 5 s).
 * 3. The same with faults on for FAULT_LOAD_SECONDS (default 15): 30% of answers delayed, 5% 500s;
 *    only 200 and 500, usage exact (500s included), memory flat.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Agent, request } from 'undici'
import { startTmapsHttpsServer } from '../src/runtimes/server/https-server.ts'
import { benchAgent, type Comparison } from './harness.ts'
import { throughputRows } from './throughput.ts'

const PATH = '/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3'

async function hammer(
  url: string,
  agent: Agent,
  connections: number,
  ms: number,
  onStatus?: (status: number) => void,
) {
  let count = 0
  let errors = 0
  const end = performance.now() + ms
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        try {
          const response = await request(url, { dispatcher: agent })
          await response.body.arrayBuffer()
          onStatus?.(response.statusCode)
          count++
        } catch {
          errors++
        }
      }
    }),
  )
  return { count, errors }
}

export async function serverRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  // 1. Throughput, honestly: each server in its own process, autocannon in this one.
  const throughput = await throughputRows()
  const certDir = mkdtempSync(join(tmpdir(), 'tmaps-bench-certs-'))
  const tmaps = await startTmapsHttpsServer({ port: 0, state: 'empty', seed: 'bench', certDir })
  const agent = benchAgent(tmaps.ca!, { connections: 200, pipelining: 1 })

  // 2. Load with keys toggled meanwhile.
  const seconds = Number(process.env.LOAD_SECONDS ?? 30)
  const toggled = await tmaps.mock.console.createKey({ name: 'toggled' })
  const toggledUrl = `${tmaps.url}${PATH}&api_key=${toggled.value}`
  let disabled = false
  const toggler = setInterval(() => {
    disabled = !disabled
    void (disabled ? tmaps.mock.console.disableKey(toggled.id) : tmaps.mock.console.enableKey(toggled.id))
  }, 100)
  const statuses = new Map<number, number>()
  const heap: number[] = []
  const sampler = setInterval(() => heap.push(heapAfterGc()), 1000)
  const load = await hammer(toggledUrl, agent, 200, seconds * 1000, (status) =>
    statuses.set(status, (statuses.get(status) ?? 0) + 1),
  )
  clearInterval(toggler)
  clearInterval(sampler)
  const outside = [...statuses.keys()].filter((s) => s !== 200 && s !== 401)
  const counted = tmaps.mock.usage(toggled.id).total
  // From the heap after 5 s (warmed up) to the end.
  const warm = heap[Math.min(4, heap.length - 1)] ?? 1
  const heapGrowth = heap.length >= 2 ? heap.at(-1)! / warm : 1

  // 3. Load with faults on: 30% of answers held back 5-50 ms, 5% answered 500 (seeded draws).
  const faultSeconds = Number(process.env.FAULT_LOAD_SECONDS ?? 15)
  const faulty = await tmaps.mock.console.createKey({ name: 'faulty' })
  tmaps.mock.faults.add({ delayMs: [5, 50], probability: 0.3 })
  tmaps.mock.faults.add({ status: 500, probability: 0.05 })
  const faultStatuses = new Map<number, number>()
  const faultHeap: number[] = []
  const faultSampler = setInterval(() => faultHeap.push(heapAfterGc()), 1000)
  const faultLoad = await hammer(
    `${tmaps.url}${PATH}&api_key=${faulty.value}`,
    agent,
    200,
    faultSeconds * 1000,
    (status) => faultStatuses.set(status, (faultStatuses.get(status) ?? 0) + 1),
  )
  clearInterval(faultSampler)
  tmaps.mock.faults.clear()
  const faultUsage = tmaps.mock.usage(faulty.id)
  const faultWarm = faultHeap[Math.min(4, faultHeap.length - 1)] ?? 1
  const faultGrowth = faultHeap.length >= 2 ? faultHeap.at(-1)! / faultWarm : 1
  const share500 = (faultStatuses.get(500) ?? 0) / Math.max(1, faultLoad.count)
  const faultOk =
    faultLoad.errors === 0 &&
    faultUsage.total === faultLoad.count &&
    (faultUsage.byStatus['500'] ?? 0) === (faultStatuses.get(500) ?? 0) &&
    [...faultStatuses.keys()].every((s) => s === 200 || s === 500) &&
    faultGrowth <= 1.3

  await agent.close()
  await tmaps.close()
  rmSync(certDir, { recursive: true, force: true })

  const ok = outside.length === 0 && load.errors === 0 && counted === load.count && heapGrowth <= 1.3
  return {
    rows: throughput.rows,
    notes: [
      ...throughput.notes,
      `Load, 200 connections for ${seconds} s, key toggled every 100 ms: ${load.count} requests, ` +
        `${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}, ${load.errors} socket errors; ` +
        `usage counted ${counted} (${counted === load.count ? 'exact' : 'MISMATCH'}); ` +
        `heap ${(warm / 1e6).toFixed(0)} MB -> ${((heap.at(-1) ?? warm) / 1e6).toFixed(0)} MB (${heapGrowth.toFixed(2)}x). ` +
        (ok ? 'ok' : 'OVER TARGET'),
      `Load with faults (30% delayed 5-50 ms, 5% answered 500), 200 connections for ${faultSeconds} s: ` +
        `${faultLoad.count} requests, ${[...faultStatuses].map(([s, n]) => `${n} x ${s}`).join(', ')} ` +
        `(${(share500 * 100).toFixed(1)}% 500), ${faultLoad.errors} socket errors; usage counted ${faultUsage.total} ` +
        `(${faultUsage.total === faultLoad.count ? 'exact' : 'MISMATCH'}); heap ${(faultWarm / 1e6).toFixed(0)} MB -> ` +
        `${((faultHeap.at(-1) ?? faultWarm) / 1e6).toFixed(0)} MB (${faultGrowth.toFixed(2)}x). ${faultOk ? 'ok' : 'OVER TARGET'}`,
    ],
  }
}

/** The live heap: after a full collection when the bench runs with --expose-gc (npm run bench does). */
function heapAfterGc(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed
}
