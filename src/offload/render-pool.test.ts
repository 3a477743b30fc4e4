import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { PNG } from 'pngjs'
import { afterEach, expect, it, vi } from 'vitest'
import { answerJsonJob } from '../endpoints/json-job.ts'
import { parseStaticMap } from '../endpoints/maps/static-map.ts'
import { ParamError } from '../endpoints/params.ts'
import { RendererBusyError, RendererFailedError } from '../jobs/protocol.ts'
import { createRenderPool, type RenderPool, renderExecArgv } from './render-pool.ts'
import { inThread } from './renderer.ts'

const pools: RenderPool[] = []
const pool = (options?: Parameters<typeof createRenderPool>[0]) => {
  const made = createRenderPool(options)
  pools.push(made)
  return made
}
afterEach(async () => {
  vi.useRealTimers() // a test that failed with the deadline's clock faked
  await Promise.all(pools.splice(0).map((p) => p.close()))
})
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const spec = (query: string) => parseStaticMap(new URLSearchParams(query))

it("starts its processes through Node's compile cache: NODE_COMPILE_CACHE's folder, else Node's own", async () => {
  const folder = mkdtempSync(join(tmpdir(), 'tmaps-compile-'))
  vi.stubEnv('NODE_COMPILE_CACHE', folder)
  try {
    await pool({ size: 1 }).tile('tmaps', 9, 273, 201)
    // The render process's modules, compiled once, written after its first job, for the next process.
    await expect.poll(() => readdirSync(folder, { recursive: true }).length).toBeGreaterThan(20)
  } finally {
    vi.unstubAllEnvs()
    rmSync(folder, { recursive: true, force: true })
  }
})

it('draws the same pixels as the answering thread (deflated by node:zlib): a tile and a static map with overlays', async () => {
  const renderer = pool({ size: 2 })
  const map = spec(
    'center=36.8,10.18&zoom=12&size=300x200&marker=36.8,10.18|blue|A&path=36.8,10.1|36.85,10.3',
  )
  const [tile, staticMap] = await Promise.all([
    renderer.tile('tmaps', 9, 273, 201),
    renderer.staticMap('tmaps', map),
  ])
  const pixels = (png: Uint8Array) => sha(PNG.sync.read(Buffer.from(png)).data)
  const [tileHere, mapHere] = [
    await inThread.tile('tmaps', 9, 273, 201),
    await inThread.staticMap('tmaps', map),
  ]
  expect(pixels(tile)).toBe(pixels(tileHere))
  expect(pixels(staticMap)).toBe(pixels(mapHere))
  expect(sha(tile)).not.toBe(sha(tileHere)) // node:zlib's stream, not fflate's
})

it('starts no thread before the first picture, and at most `size`', async () => {
  const renderer = pool({ size: 2 })
  expect(renderer.stats()).toEqual({ processes: 0, busy: 0, queued: 0, refused: 0 })
  await Promise.all([6, 7, 8, 9].map((z) => renderer.tile('tmaps', z, 2 ** (z - 1), 2 ** (z - 1) - 1)))
  expect(renderer.stats().processes).toBe(2)
})

it('refuses a picture once its queue is full (RendererBusyError), and draws again when it empties', async () => {
  const renderer = pool({ size: 1, maxQueuedPixels: 256 * 256 }) // room for one tile
  const drawing = renderer.tile('tmaps', 8, 136, 101) // on the thread
  const waiting = renderer.tile('tmaps', 8, 137, 101) // in the queue
  await expect(renderer.tile('tmaps', 8, 138, 101)).rejects.toBeInstanceOf(RendererBusyError)
  expect(renderer.stats()).toMatchObject({ busy: 1, queued: 1, refused: 1 })
  await Promise.all([drawing, waiting])
  expect((await renderer.tile('tmaps', 8, 138, 101)).length).toBeGreaterThan(100)
})

it('rejects a picture the thread could not draw, and goes on drawing the next', async () => {
  const renderer = pool({ size: 1 })
  const broken = { ...spec('center=36.8,10.18&zoom=12&size=100x100'), style: 'no-such-style' } as never
  await expect(renderer.staticMap('tmaps', broken)).rejects.toThrow(/^the render process failed: /)
  expect((await renderer.tile('tmaps', 6, 33, 25)).length).toBeGreaterThan(100)
})

it('rejects what is queued when it is closed, and refuses new pictures', async () => {
  const renderer = pool({ size: 1 })
  const drawing = expect(renderer.tile('tmaps', 8, 136, 101)).rejects.toThrow('the render pool is closed')
  const queued = expect(renderer.tile('tmaps', 8, 137, 101)).rejects.toThrow('the render pool is closed')
  await renderer.close()
  await Promise.all([drawing, queued])
  await expect(renderer.tile('tmaps', 6, 33, 25)).rejects.toThrow('the render pool is closed')
})

it("computes heavy JSON answers in its threads: the same bytes as the answering thread, and the endpoint's own errors", async () => {
  const renderer = pool({ size: 1 })
  const waypoints = [
    { lat: 36.8065, lng: 10.1815 },
    { lat: 36.8625, lng: 10.1956 },
    { lat: 36.7236, lng: 10.3417 },
  ]
  const route = {
    endpoint: 'routing/direction',
    method: 'POST',
    href: 'https://api.tmaps.tn/routing/direction',
    params: {},
    body: { waypoints, steps: true },
  } as const
  const here = await answerJsonJob('tmaps', route)
  expect(sha(await renderer.json('tmaps', route))).toBe(sha(here))
  expect(JSON.parse(new TextDecoder().decode(here)).legs).toHaveLength(2)
  const badBody = { ...route, body: { waypoints: [waypoints[0]] } }
  const refused = await renderer.json('tmaps', badBody).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(ParamError)
  expect(refused).toMatchObject({
    rule: 'invalid-param',
    param: 'waypoints',
    message: 'invalid param: waypoints',
  })
  const unknown = { ...route, endpoint: 'routing/nowhere' }
  await expect(renderer.json('tmaps', unknown)).rejects.toThrow(
    /^the render process failed: .*no JSON endpoint/,
  )
  expect(renderer.stats()).toMatchObject({ processes: 1, busy: 0, queued: 0 })
})

/**
 * The render processes this test's pools started: children running render-process (its title, once it ran).
 */
function renderProcesses(): number[] {
  let out = ''
  try {
    out = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
  } catch {
    return [] // pgrep exits 1 when it finds none
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        return /render-process|tmaps-mock renderer/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
      } catch {
        return false // it ended meanwhile
      }
    })
}

const route = (body: unknown) =>
  ({
    endpoint: 'routing/direction',
    method: 'POST',
    href: 'https://api.tmaps.tn/routing/direction',
    params: {},
    body,
  }) as const
const TWO_TOWNS = {
  waypoints: [
    { lat: 36.8065, lng: 10.1815 },
    { lat: 36.8625, lng: 10.1956 },
  ],
}
let nested: unknown = []
for (let i = 0; i < 5000; i++) nested = [nested]

it('fails alone a job it cannot send (nested 5,000 deep, or holding a function), and the same process takes the next', async () => {
  const renderer = pool({ size: 1 })
  await renderer.tile('tmaps', 6, 33, 25) // a render process, warm
  const [pid] = renderProcesses()
  for (const body of [
    { ...TWO_TOWNS, x: nested },
    { ...TWO_TOWNS, f: () => 1 },
  ]) {
    const refused = await renderer.json('tmaps', route(body)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RendererFailedError)
    expect((refused as Error).message).toMatch(/^the job could not be sent to a render process: /)
    expect(renderer.stats()).toMatchObject({ processes: 1, busy: 0, queued: 0 })
  }
  expect(
    JSON.parse(new TextDecoder().decode(await renderer.json('tmaps', route(TWO_TOWNS)))).legs,
  ).toHaveLength(1)
  expect(renderProcesses()).toEqual([pid]) // the same process: it never got the job
})

it('answers a job whose process is killed mid-job with RendererFailedError, and replaces the process', async () => {
  const renderer = pool({ size: 1 })
  const drawing = renderer.staticMap('tmaps', spec('center=36.8,10.18&zoom=12&size=1280x1280'))
  const queued = renderer.tile('tmaps', 6, 33, 25)
  await expect.poll(() => renderProcesses()).toHaveLength(1)
  const [pid] = renderProcesses()
  process.kill(pid!, 'SIGKILL')
  const failed = await drawing.catch((error: unknown) => error)
  expect(failed).toBeInstanceOf(RendererFailedError)
  expect((failed as Error).message).toBe(
    'the render process exited with SIGKILL; a new render process takes the next job',
  )
  expect((await queued).length).toBeGreaterThan(100) // drawn by the new process
  expect(renderProcesses()).not.toContain(pid)
  expect(renderer.stats()).toMatchObject({ processes: 1, busy: 0, queued: 0 })
})

it('ends a process that does not answer within jobTimeoutMs, answers its job with RendererFailedError, and goes on', async () => {
  // Generous: each process's first job builds its map world (~2 s of CPU, more on a busy machine).
  const renderer = pool({ size: 2, jobTimeoutMs: 20_000 })
  await Promise.all([renderer.tile('tmaps', 6, 33, 25), renderer.tile('tmaps', 6, 34, 25)]) // two, warm
  const pids = renderProcesses()
  expect(pids).toHaveLength(2)
  for (const pid of pids) process.kill(pid, 'SIGSTOP') // both hang: neither can answer
  // The deadline's clock, from here on: the 20 s pass at once (the test waited them out before).
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const hung = renderer.tile('tmaps', 7, 68, 50).catch((error: unknown) => error)
  await vi.advanceTimersByTimeAsync(19_999)
  expect(renderProcesses()).toEqual(pids) // not a moment early
  await vi.advanceTimersByTimeAsync(1)
  vi.useRealTimers()
  const failed = await hung
  expect(failed).toBeInstanceOf(RendererFailedError)
  expect((failed as Error).message).toBe(
    'the render process did not answer within 20 s; a new render process takes the next job',
  )
  const [survivor] = renderProcesses().filter((pid) => pids.includes(pid))
  expect(survivor).toBeDefined() // only the one that missed its deadline was ended
  process.kill(survivor!, 'SIGCONT')
  expect((await renderer.tile('tmaps', 7, 68, 50)).length).toBeGreaterThan(100)
  expect(renderer.stats()).toMatchObject({ busy: 0, queued: 0 })
}, 90_000)

it('says what is wrong with its options', () => {
  expect(() => createRenderPool({ size: 0 })).toThrow(
    'Failed to create the render pool: size must be a whole number >= 1.',
  )
  expect(() => createRenderPool({ maxQueuedPixels: -1 })).toThrow(
    /maxQueuedPixels must be a whole number >= 0/,
  )
  expect(() => createRenderPool({ jobTimeoutMs: 0 })).toThrow(
    'Failed to create the render pool: jobTimeoutMs must be a whole number of milliseconds from 1 to 2147483647.',
  )
})

// A script run with `node --input-type=module -e` (threads do not inherit the script options), with
// V8 options beside (which a thread refuses when given explicitly), and V8 options alone (inherited).
it.each([
  [['--input-type=module', '-e']],
  [['--max-old-space-size=512', '--input-type=module', '--max-semi-space-size=4', '-e']],
  [['--max-old-space-size=512', '--import', 'data:text/javascript,']],
])(
  'draws in a process started with %j',
  async (options) => {
    const url = new URL('./render-pool.ts', import.meta.url)
    const code = `
    const { createRenderPool } = await import(${JSON.stringify(url.href)})
    const pool = createRenderPool({ size: 1 })
    const png = await pool.tile('tmaps', 6, 33, 25)
    console.log(Buffer.from(png.subarray(1, 4)).toString())
    await pool.close()`
    const file = join(mkdtempSync(join(tmpdir(), 'tmaps-pool-')), 'draw.mjs')
    writeFileSync(file, code)
    const args = options.at(-1) === '-e' ? [...options, code] : [...options, file]
    const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 60_000 })
    expect(stdout.trim()).toBe('PNG')
  },
  90_000,
)

it('keeps the Node options a render process needs and drops those about the main script and the inspector', () => {
  expect(
    renderExecArgv([
      '--input-type=module',
      '-e',
      'code',
      '--max-semi-space-size=4',
      '--eval=x',
      '--conditions',
      'dev',
      '-p',
      'y',
      '--input-type',
      'commonjs',
      '--import=./setup.js',
      '--inspect=9229',
      '--inspect-brk',
    ]),
  ).toEqual(['--max-semi-space-size=4', '--conditions', 'dev', '--import=./setup.js'])
  expect(renderExecArgv(['--max-old-space-size=512', '--conditions=dev'])).toEqual([
    '--max-old-space-size=512',
    '--conditions=dev',
  ])
})
