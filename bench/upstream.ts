/**
 * Meeting the real TMaps (docs/upstream.md): a replayed answer against the mock's own for the same
 * request, both through `setupTmapsNode`; and `tmaps-mock verify` against the tests' stand-in
 * TMaps at its default rate, against the floor that rate sets.
 */

import { setupServer } from 'msw/node'
import { probeSet } from '../src/cli/verify/probes.ts'
import { runVerify } from '../src/cli/verify/verify.ts'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import type { TmapsHar } from '../src/upstream/har.ts'
import { APP_ORIGIN, REAL_KEY, startStandIn } from '../test/support/stand-in-tmaps.ts'
import { type Comparison, compare } from './harness.ts'

export async function upstreamRows(): Promise<{ rows: Comparison[]; notes: string[] }> {
  const rows: Comparison[] = []
  const KEY = `ak_${'be7c'.repeat(8)}`
  const QUERY = '/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3'
  const ORIGIN = { Origin: 'http://localhost:5173' }

  // The mock's own answer, recorded as TMaps's for a second mock on its own host (one msw server
  // holds both: two would intercept each other).
  const own = createTmapsMock({ state: 'empty', keys: [{ value: KEY, domains: ['localhost'] }] })
  const text = await (await own.fetch(new Request(`https://api.tmaps.tn${QUERY}&api_key=${KEY}`))).text()
  const har: TmapsHar = {
    log: {
      version: '1.2',
      creator: { name: 'tmaps-mock', version: 'bench' },
      entries: [
        {
          startedDateTime: new Date().toISOString(),
          time: 1,
          request: {
            method: 'GET',
            url: `https://replay.tmaps.tn${QUERY}&api_key={{api_key}}`,
            httpVersion: 'HTTP/1.1',
            headers: [],
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            headers: [],
            cookies: [],
            content: { size: text.length, mimeType: 'application/json; charset=utf-8', text },
            redirectURL: '',
            headersSize: -1,
            bodySize: text.length,
          },
          cache: {},
          timings: { send: 0, wait: 1, receive: 0 },
        },
      ],
    },
  }
  const replayed = createTmapsMock({
    state: 'empty',
    keys: [{ value: KEY, domains: ['localhost'] }],
    baseUrl: 'https://replay.tmaps.tn',
    replay: har,
  })
  const server = setupServer(...own.handlers, ...replayed.handlers)
  server.listen({ onUnhandledFrame: 'error' })
  rows.push(
    await compare(
      'replay: a recorded answer via setupTmapsNode + fetch',
      {
        name: 'replay',
        run: async () =>
          (await fetch(`https://replay.tmaps.tn${QUERY}&api_key=${KEY}`, { headers: ORIGIN })).arrayBuffer(),
      },
      {
        name: "the mock's own answer",
        run: async () =>
          (await fetch(`https://api.tmaps.tn${QUERY}&api_key=${KEY}`, { headers: ORIGIN })).arrayBuffer(),
      },
      { target: 1.1, batch: 50, rounds: 21, interleave: true },
    ),
  )
  server.close()
  if (replayed.log.entries()[0]?.source !== 'replay')
    throw new Error('the replay row answered without the recording')

  // verify at its default rate (2 per second) against the stand-in: its floor is the pacing.
  const standIn = await startStandIn()
  try {
    const started = performance.now()
    const report = await runVerify({
      key: REAL_KEY,
      origin: APP_ORIGIN,
      api: standIn.url,
      tiles: standIn.url,
      ca: standIn.ca,
    })
    const ms = performance.now() - started
    const floorMs = ((probeSet(true).length - 1) * 1000) / 2
    if (report.summary.errors > 0) throw new Error('verify found differences with the faithful stand-in')
    rows.push({
      label: `verify: ${report.summary.probes} probes against a stand-in at 2/s`,
      a: 'tmaps-mock verify',
      b: 'the rate floor',
      aMicros: ms * 1000,
      bMicros: floorMs * 1000,
      ratio: ms / floorMs,
      target: 1.25,
      budgetMs: 30_000,
    })
  } finally {
    await standIn.close()
  }
  return {
    rows,
    notes: ['verify: its target is at most 1.25x the time its rate alone takes, and 30 s at most.'],
  }
}
