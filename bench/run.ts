/**
 * `npm run bench`: the speed targets of tmaps-mock, measured side by side in one run.
 * Prints ratios (A/B) against baselines measured in the same run; absolute numbers are
 * informational only, since the machines are shared and noisy.
 *
 * `BENCH_ONLY=startup,cold-start npm run bench` runs the named sections alone (names below).
 * A section that throws (a server that never came up, a browser that crashed) is reported
 * with its error and the others still run; the process then exits 1.
 */
import { browserRows, playgroundDevRows, playgroundRows } from './browser.ts'
import { coldStartRows } from './cold-start.ts'
import { coreRows } from './core.ts'
import { type Comparison, meetsTarget, report } from './harness.ts'
import { mapRows } from './maps.ts'
import { memoryRows } from './memory.ts'
import { pictureRows } from './pictures.ts'
import { playgroundCliRows } from './playground-cli.ts'
import { serverRows } from './server.ts'
import { startupRows } from './startup.ts'
import { upstreamRows } from './upstream.ts'
import { viteRows } from './vite.ts'

type Section = () => Promise<{ rows: Comparison[]; notes: string[] }>
const rowsOnly =
  (run: () => Promise<Comparison[]>): Section =>
  async () => ({ rows: await run(), notes: [] })

const sections: Record<string, Section> = {
  // 1-5. In process: the contract against bare msw handlers, key lookup, worlds, each endpoint.
  core: coreRows,
  // 6. Maps: raster tiles at three zooms, the cache, a static map, a Leaflet view, memory.
  maps: mapRows,
  // 7. In real Chromium: page load to the first mocked response, against a bare msw worker page.
  browser: rowsOnly(browserRows),
  playground: rowsOnly(playgroundRows),
  'playground-dev': playgroundDevRows,
  // 7a. `npx tmaps-mock playground` from the package, against `npm start`: command to first tile.
  'playground-cli': playgroundCliRows,
  // 7b. The Vite plugin in vite dev: a fresh app with tmapsMock() against the same app without it.
  vite: viteRows,
  // 8. The HTTPS server on real sockets: paired throughput, and a load run with keys toggled.
  server: serverRows,
  // 8b. Pictures drawn off the answering thread: a geocode's p99 with costly maps in flight, tiles per
  // second.
  pictures: pictureRows,
  // 8c. Memory of `tmaps-mock serve` after 5 minutes of mixed load and 30 s idle.
  memory: memoryRows,
  // 9. Start and idle memory of the CLI's server, against a bare node:https process.
  startup: startupRows,
  // 9b. Cold start in a Node test file: a fresh process to its first answer, against bare msw.
  'cold-start': coldStartRows,
  // 10. Meeting the real TMaps: replay against the mock's own answer, verify against a stand-in.
  upstream: upstreamRows,
}

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim())
const unknown = only?.filter((name) => !(name in sections)) ?? []
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY names no section: ${unknown.join(', ')}. Sections: ${Object.keys(sections).join(', ')}.`,
  )
  process.exit(2)
}

const rows: Comparison[] = []
const notes: string[] = []
const failures: string[] = []
for (const [name, run] of Object.entries(sections)) {
  if (only && !only.includes(name)) continue
  const started = performance.now()
  try {
    const result = await run()
    rows.push(...result.rows)
    notes.push(...result.notes)
  } catch (error) {
    failures.push(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  }
  console.error(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}

console.log(`tmaps-mock benchmark (Node ${process.version})\n`)
report(rows)
console.log(`\n${notes.join('\n')}`)
const over = rows.filter((r) => meetsTarget(r) === false)
if (over.length > 0) {
  console.log(
    `\nRows over their target (a regression, or a budget this host cannot meet):\n${over.map((r) => `- ${r.label}`).join('\n')}`,
  )
  process.exitCode = 1
}
if (failures.length > 0) {
  console.log(`\nSections that failed (their rows are missing above):\n${failures.join('\n')}`)
  process.exitCode = 1
}
