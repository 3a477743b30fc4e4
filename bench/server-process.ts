/**
 * One server of the throughput bench, in its own process (so the load generator never shares its event loop):
 * `node bench/server-process.ts tmaps <certDir>` runs `tmaps-mock serve`'s server (`tmaps-lines`: with the
 * terminal's request lines); `node bench/server-process.ts bare <certDir> <answers.json>` runs a bare
 * `node:https` server with the same certificate that answers each path with the bytes recorded from the mock.
 * Prints one JSON line when it listens: `{ "port": ..., "pid": ... }` (tmaps adds its keys).
 */
import { openSync, readFileSync, writeSync } from 'node:fs'
import { createServer } from 'node:https'
import { join } from 'node:path'
import { giveMemoryBackWhenIdle, keepYoungGenerationSmall } from '../src/cli/heap.ts'
import { createRequestPrinter } from '../src/cli/request-lines.ts'
import { inThread } from '../src/offload/renderer.ts'
import { startTmapsHttpsServer } from '../src/runtimes/server/https-server.ts'

const [kind, certDir, answersFile] = process.argv.slice(2)
// A normal exit on SIGTERM, so `--cpu-prof` can write its profile.
process.on('SIGTERM', () => process.exit(0))
if (!certDir) throw new Error('Usage: node bench/server-process.ts tmaps|bare <certDir> [answers.json]')

if (kind === 'tmaps' || kind === 'tmaps-lines' || kind === 'tmaps-inthread') {
  const youngKeptSmall = keepYoungGenerationSmall() // as `tmaps-mock serve` does
  // tmaps-lines: with the terminal's request lines, as `tmaps-mock serve` prints them.
  // Written to /dev/null: what the server spends on them, not what reading a pipe costs this bench.
  const devNull = openSync('/dev/null', 'w')
  const lines = createRequestPrinter((text) => writeSync(devNull, text))
  const server = await startTmapsHttpsServer({
    ...(kind === 'tmaps-lines' && { onRequest: lines.print }),
    // tmaps-inthread: pictures drawn in the answering thread, as before the render pool.
    ...(kind === 'tmaps-inthread' && { renderer: inThread }),
    port: 0,
    state: 'empty',
    seed: 'bench',
    certDir,
    host: '127.0.0.1',
  })
  const backend = await server.mock.console.createKey({ name: 'backend' })
  const web = await server.mock.console.createKey({ name: 'web', domains: ['localhost'] })
  giveMemoryBackWhenIdle(youngKeptSmall) // as `tmaps-mock serve` does
  process.stdout.write(
    `${JSON.stringify({ port: new URL(server.url).port, pid: process.pid, backend: backend.value, web: web.value })}\n`,
  )
} else if (kind === 'bare') {
  const answers = JSON.parse(readFileSync(answersFile!, 'utf8')) as Record<
    string,
    { status: number; headers: Record<string, string>; body: string }
  >
  const bodies = new Map(
    Object.entries(answers).map(([path, a]) => [path, { ...a, bytes: Buffer.from(a.body, 'base64') }]),
  )
  const server = createServer(
    {
      cert: readFileSync(join(certDir, 'localhost.pem'), 'utf8'),
      key: readFileSync(join(certDir, 'localhost-key.pem'), 'utf8'),
    },
    (req, res) => {
      const answer = bodies.get(req.url ?? '')
      if (!answer) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(answer.status, answer.headers)
      res.end(answer.bytes)
    },
  )
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(
      `${JSON.stringify({ port: (server.address() as { port: number }).port, pid: process.pid })}\n`,
    )
  })
} else {
  throw new Error(`Unknown server kind ${kind}: use tmaps or bare.`)
}
