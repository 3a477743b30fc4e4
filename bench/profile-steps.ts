/**
 * What each step of a request costs in `tmaps-mock serve`, from a CPU profile taken under the
 * paired load (`THROUGHPUT_PROFILE=<dir> THROUGHPUT_ONLY=403 BENCH_ONLY=server npm run bench`):
 *
 *   node bench/profile-steps.ts <file.cpuprofile> [server CPU µs a request, from the bench's note]
 *
 * Each sample is given to the nearest function on its stack that is one of the steps below (so
 * a step's figure includes what it calls but what another step names: `writeAnswer` without the
 * TLS write and `writeHead` in it); the
 * rest is Node's own work (TLS, the HTTP parser, the event loop) and the collector. With the
 * bench's CPU per request, each share becomes microseconds a request.
 */
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

/** Steps in the order a request meets them: [label, function name, file the function is in]. */
const STEPS: Array<[string, string, RegExp]> = [
  ['the request target (`PathTarget`; split only on a memo miss)', '', /request-target/],
  ['request view (`nodeRequestView`, headers read from `rawHeaders`)', 'nodeRequestView', /node-request/],
  ['memo key and memo lookup (`recall`)', 'recall', /memo/],
  ['key lookup and decision (`decide`; on a memo miss only)', 'decide', /decide/],
  ['the clock (`opts.now()`, a `Date` a request)', 'now', /options/],
  ["the core's exit (`record`: the clock, then usage and log)", 'record', /create-core/],
  ['usage count (`usage.record`)', 'record', /usage/],
  ['log entry (`log.push`)', 'push', /request-log/],
  ['TLS encryption and the socket write (native `writev`)', 'writev', /^$/],
  ["the header object to bytes (Node's `writeHead`)", 'writeHead', /_http_server/],
  ['the rest of the write-back (`writeAnswer`, `res.end`)', 'writeAnswer', /request-listener/],
  ['the rest of the listener (`tmapsRequestListener`)', '', /request-listener/],
]

const file = process.argv[2]
if (!file) throw new Error('Usage: node bench/profile-steps.ts <file.cpuprofile> [cpu µs a request]')
const cpuPerRequest = Number(process.argv[3] ?? Number.NaN)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const byId = new Map(profile.nodes.map((n) => [n.id, n]))

const stepOf = new Map<number, string>()
const classify = (id: number): string => {
  const known = stepOf.get(id)
  if (known !== undefined) return known
  const { functionName, url } = byId.get(id)!.callFrame
  let step: string
  if (functionName === '(idle)') step = 'idle'
  else if (functionName === '(garbage collector)') step = 'the collector'
  else {
    const found = STEPS.find(([, name, where]) => (name === '' || name === functionName) && where.test(url))
    const up = parent.get(id)
    step = found ? found[0] : up === undefined ? "Node's own (TLS, HTTP parser, event loop)" : classify(up)
  }
  stepOf.set(id, step)
  return step
}

const micros = new Map<string, number>()
profile.samples.forEach((id, i) => {
  const step = classify(id)
  micros.set(step, (micros.get(step) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
micros.delete('idle')
const busy = [...micros.values()].reduce((a, b) => a + b, 0)
console.log(`| step | share of the server's CPU | µs a request |`)
console.log('| --- | ---: | ---: |')
for (const [step, us] of [...micros].sort((a, b) => b[1] - a[1])) {
  const share = us / busy
  const each = Number.isNaN(cpuPerRequest) ? '-' : (share * cpuPerRequest).toFixed(2)
  console.log(`| ${step} | ${(share * 100).toFixed(1)}% | ${each} |`)
}
