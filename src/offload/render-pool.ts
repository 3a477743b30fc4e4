import { type ChildProcess, fork } from 'node:child_process'
import nodeModule from 'node:module'
import { availableParallelism, tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fromJobFailure, type JobFailure } from '../endpoints/json-job.ts'
import {
  type JsonJob,
  RendererBusyError,
  RendererFailedError,
  type RenderJob,
  type RenderReply,
  type TmapsRenderer,
} from '../jobs/protocol.ts'
import { pictureCost } from '../map/spec.ts'

/**
 * The options of `createRenderPool`.
 * @example
 * ```ts
 * import { createRenderPool, type RenderPoolOptions } from 'tmaps-mock/node'
 *
 * const options: RenderPoolOptions = { size: 1, maxQueuedPixels: 10_000_000, idleMs: 5000 }
 * await createRenderPool(options).close()
 * ```
 */
export interface RenderPoolOptions {
  /** Render processes at most. Default: the machine's cores less one (the answering thread's), at least 1. */
  size?: number
  /**
   * How much work may wait for a render process, in the pixel units of `MAX_PICTURE_COST` (a tile is
   * 65,536, a static map its `pictureCost`); a picture beyond it is refused (503). Default 96 M
   * per process: about 10 s of drawing on a laptop core, ~1,460 tiles (a map of any size asking
   * for its view at once is never refused), 58 plain 1280 x 1280 maps or eight of the costliest.
   */
  maxQueuedPixels?: number
  /**
   * A render process idle this long ends, and everything it built goes back to the system; the
   * next job starts one and builds its world again (a first tile: ~1.7 s of CPU). Default 15 s.
   */
  idleMs?: number
  /**
   * A render process that has not answered a job this long after it was handed the job is ended
   * and replaced; the job's request is answered 503 with `Retry-After: 1`. Default 60 s: the
   * costliest static map draws in ~12 s on a laptop core, ~40 s on a busy one.
   */
  jobTimeoutMs?: number
}

/**
 * A renderer drawing in child processes; `close()` ends them, `stats()` says what it is doing.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createRenderPool, type RenderPool } from 'tmaps-mock/node'
 *
 * const pool: RenderPool = createRenderPool()
 * assert.equal(pool.stats().processes, 0) // none before the first picture
 * await pool.close()
 * ```
 */
export interface RenderPool extends TmapsRenderer {
  /** Computes a heavy JSON answer in a render process (a pool always can). */
  json(seed: string | number, job: JsonJob): Promise<Uint8Array<ArrayBuffer>>
  close(): Promise<void>
  stats(): { processes: number; busy: number; queued: number; refused: number }
}

/** What a render process is sent: a picture, or a JSON answer to compute. */
export type RenderProcessJob = RenderJob | { id: number; kind: 'json'; seed: string | number; job: JsonJob }
/** What a render process sends back: the bytes, an endpoint's error (400, 404), or a bug's message. */
export type RenderProcessReply = RenderReply | { id: number; failure: JobFailure }
type Job = RenderProcessJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never
interface Pending {
  job: Job
  cost: number
  resolve: (bytes: Uint8Array<ArrayBuffer>) => void
  reject: (error: Error) => void
}
interface Child {
  process: ChildProcess
  current: (Pending & { id: number }) | undefined
  idle: NodeJS.Timeout | undefined
  /** Ends the process if `current` is not answered in time. */
  deadline: NodeJS.Timeout | undefined
}

/** A tile's cost in pixel units (256 x 256), as a static map's is its `pictureCost`. */
const TILE_COST = 256 * 256
/** A JSON job's cost in the same units: about the time of four tiles (a heavy route is 5-50 ms). */
const JSON_COST = 4 * TILE_COST
const QUEUED_PIXELS_PER_THREAD = 96_000_000
/** A render process idle this long ends: its memory goes back to the system. */
const IDLE_MS = 15_000
/** A job not answered this long after its process was handed it: the process is replaced. */
const JOB_TIMEOUT_MS = 60_000

/** The render process's module beside this one: `.ts` when run from source, `.js` from the package. */
const PROCESS_FILE = fileURLToPath(
  new URL(`./render-process${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
)

/** Options that take the next argument as their value, among those a render process must not inherit. */
const SCRIPT_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '--input-type'])
/** Options a render process must not inherit either: a second inspector on the same port fails. */
const INSPECT_OPTION = /^--inspect(-brk|-wait|-port)?(=|$)|^--debug-port(=|$)/

/**
 * The process's Node options less those about its main script (`-e`/`--eval`, `-p`/`--print`,
 * `--input-type`), which a render process would otherwise inherit and run instead of its own
 * module (a script run with `node --input-type=module -e` then got 500 on every picture), and
 * less `--inspect` (the port is taken). V8's options (`--max-old-space-size`) are kept.
 */
export function renderExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = []
  const args = execArgv.values()
  for (const arg of args) {
    const name = arg.split('=', 1)[0] ?? arg
    if (INSPECT_OPTION.test(arg)) continue
    if (!SCRIPT_OPTIONS.has(name)) kept.push(arg)
    else if (!arg.includes('=')) args.next() // its value is the next argument
  }
  return kept
}

/**
 * A render process: a child Node process, so that everything it built goes back to the system
 * when it ends. (A worker thread's heap does not: a thread that had built 230 MB of objects left
 * 190 MB of its process's RSS after `terminate()`.) Its messages are structured clones (`advanced`
 * serialization): a picture's bytes cost a copy through the pipe. It loads its modules through
 * Node's compile cache (this process's, `NODE_COMPILE_CACHE`, or Node's default folder), so that
 * every process after the first starts sooner; `NODE_DISABLE_COMPILE_CACHE=1` turns that off.
 */
function startChild(): ChildProcess {
  const compileCache =
    nodeModule.getCompileCacheDir?.() ??
    process.env.NODE_COMPILE_CACHE ??
    join(tmpdir(), 'node-compile-cache')
  return fork(PROCESS_FILE, [], {
    env: { ...process.env, NODE_COMPILE_CACHE: compileCache },
    execArgv: renderExecArgv(process.execArgv),
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
}

/**
 * Draws tiles and static maps, and computes heavy JSON answers, in a pool of child processes.
 *
 * The answering thread only decides, queues and sends: a costly picture or route never holds up a geocode.
 * Heavy JSON means every routing answer (directions, tours, isochrones, matrices) and forward geocodes of
 * more than 48 characters; other geocodes stay in the answering thread. Render processes start on the first
 * job (an API-only user who geocodes pays nothing), one job each at a time; jobs wait in a queue bounded by
 * their cost, and one more is refused with `RendererBusyError` (answered 503 with `Retry-After: 1`) rather
 * than drawn ever later. The same pixels as drawing in the answering thread (deflated by `node:zlib`). A
 * render process keeps its parent running only while it has a job; it ends with its parent, and after
 * `idleMs` without a job (its memory goes back). `setupTmapsNode` and the HTTPS server share one pool per
 * process by default; make your own to size it. Options: `size` (the cores less one, at least 1),
 * `maxQueuedPixels` (96 M per process), `idleMs` (15 s), `jobTimeoutMs` (60 s: a process that misses it is
 * replaced, its request answered 503).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createRenderPool, setupTmapsNode } from 'tmaps-mock/node'
 *
 * const renderer = createRenderPool({ size: 2 }) // two render processes at most
 * const { server, mock } = setupTmapsNode({ state: 'empty', renderer })
 * server.listen({ onUnhandledFrame: 'bypass' })
 * const key = await mock.console.createKey({ name: 'Tiles' })
 * const tile = await fetch(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${key.value}`)
 * assert.equal(tile.headers.get('content-type'), 'image/png')
 * assert.deepEqual(renderer.stats(), { processes: 1, busy: 0, queued: 0, refused: 0 })
 * server.close()
 * await renderer.close()
 * ```
 */
export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const { size, maxQueued, idleMs, jobTimeoutMs } = poolOptions(options)
  const children: Child[] = []
  const queue: Pending[] = []
  let next = 0
  let refused = 0
  let queuedCost = 0
  let closed = false

  const start = (): Child => {
    const child = startRenderProcess({
      done(reply) {
        const answered = child.current
        if (!answered || answered.id !== reply.id) return
        clearTimeout(child.deadline)
        child.current = undefined
        settle(answered, reply)
        dispatch(child)
      },
      failed: (why) => replace(child, `the render process ${why}`),
    })
    children.push(child)
    return child
  }

  /**
   * Ends a render process that failed (it exited, broke its channel or missed a job's deadline):
   * its job is answered with `RendererFailedError` (503), and the queue goes on, in a new process
   * if one is needed. A process ended on purpose (idle, closed) is no longer among `children`.
   */
  const replace = (child: Child, why: string) => {
    const at = children.indexOf(child)
    if (at === -1) return
    children.splice(at, 1)
    stopTimers(child)
    child.process.kill('SIGKILL')
    child.current?.reject(new RendererFailedError(`${why}; a new render process takes the next job`))
    child.current = undefined
    pump()
  }

  /** Gives a render process the next job, or ends it after `idleMs` without one. */
  const dispatch = (child: Child) => {
    const pending = queue.shift()
    if (!pending) {
      holdOpen(child.process, false)
      child.idle = setTimeout(() => {
        children.splice(children.indexOf(child), 1)
        child.process.kill()
      }, idleMs).unref()
      return
    }
    queuedCost -= pending.cost
    clearTimeout(child.idle)
    const id = next++
    const current = { ...pending, id }
    child.current = current
    holdOpen(child.process, true)
    child.deadline = setTimeout(
      () => replace(child, `the render process did not answer within ${jobTimeoutMs / 1000} s`),
      jobTimeoutMs,
    )
    const refused = send(child.process, { ...pending.job, id }, (error) => {
      if (child.current === current) replace(child, `the render process was not sent the job: ${error}`)
    })
    if (refused === undefined) return
    // The job itself could not be serialized: it fails alone; the process takes the next.
    clearTimeout(child.deadline)
    child.current = undefined
    pending.reject(new RendererFailedError(`the job could not be sent to a render process: ${refused}`))
    dispatch(child)
  }

  const pump = () => {
    while (queue.length > 0) {
      const free = children.find((t) => t.current === undefined)
      if (free) dispatch(free)
      else if (children.length < size) dispatch(start())
      else return
    }
  }

  const submit = (job: Job, cost: number) =>
    new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
      if (closed) return reject(new Error('the render pool is closed'))
      const free = children.some((t) => t.current === undefined) || children.length < size
      if (!free && queuedCost + cost > maxQueued) {
        refused++
        return reject(busy(queue.length, queuedCost, maxQueued))
      }
      queue.push({ job, cost, resolve, reject })
      queuedCost += cost
      pump()
    })

  return {
    tile: (seed, z, x, y) => submit({ kind: 'tile', seed, z, x, y }, TILE_COST),
    staticMap: (seed, spec) => submit({ kind: 'static', seed, spec }, pictureCost(spec)),
    json: (seed, job) => submit({ kind: 'json', seed, job }, JSON_COST),
    async close() {
      closed = true
      const closing = new Error('the render pool is closed')
      for (const pending of queue.splice(0)) pending.reject(closing)
      queuedCost = 0
      await Promise.all(
        children.splice(0).map((child) => {
          stopTimers(child)
          child.current?.reject(closing)
          return ended(child.process)
        }),
      )
    },
    stats: () => ({
      processes: children.length,
      busy: children.filter((t) => t.current !== undefined).length,
      queued: queue.length,
      refused,
    }),
  }
}

/** Settles a job with its render process's reply: the bytes, an endpoint's error, or a bug's message. */
function settle(job: Pending, reply: RenderProcessReply): void {
  if ('bytes' in reply) job.resolve(reply.bytes)
  else if ('failure' in reply) job.reject(fromJobFailure(reply.failure))
  else job.reject(new Error(`the render process failed: ${reply.error}`))
}

function stopTimers(child: Child): void {
  clearTimeout(child.idle)
  clearTimeout(child.deadline)
}

/** A job refused: too much is waiting already. */
const busy = (waiting: number, cost: number, most: number) =>
  new RendererBusyError(
    `${waiting} jobs (${(cost / 1e6).toFixed(1)} M pixel units) are waiting for a render process; the most is ${(most / 1e6).toFixed(1)} M`,
  )

/** The pool's options with their defaults, or a `TypeError` that says which is wrong. */
function poolOptions(options: RenderPoolOptions) {
  const size = options.size ?? Math.max(1, availableParallelism() - 1)
  const maxQueued = options.maxQueuedPixels ?? QUEUED_PIXELS_PER_THREAD * size
  const idleMs = options.idleMs ?? IDLE_MS
  const jobTimeoutMs = options.jobTimeoutMs ?? JOB_TIMEOUT_MS
  if (!(Number.isInteger(size) && size >= 1))
    throw new TypeError('Failed to create the render pool: size must be a whole number >= 1.')
  if (!(Number.isInteger(maxQueued) && maxQueued >= 0))
    throw new TypeError('Failed to create the render pool: maxQueuedPixels must be a whole number >= 0.')
  if (!(Number.isInteger(jobTimeoutMs) && jobTimeoutMs >= 1 && jobTimeoutMs <= 2 ** 31 - 1))
    throw new TypeError(
      'Failed to create the render pool: jobTimeoutMs must be a whole number of milliseconds from 1 to 2147483647.',
    )
  return { size, maxQueued, idleMs, jobTimeoutMs }
}

/**
 * Sends a job to a render process. Returns why when the job itself cannot be serialized (a value
 * structured clone refuses, or nesting too deep for the stack: `send` throws, the channel is
 * untouched); a channel that fails under it (closed) is told to `lost` later.
 */
function send(child: ChildProcess, job: RenderProcessJob, lost: (why: string) => void): string | undefined {
  try {
    child.send(job, (error) => error && lost(error.message))
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** A new render process, telling `done` each reply and `failed` why, when it fails or exits. */
function startRenderProcess(events: {
  done(reply: RenderProcessReply): void
  failed(why: string): void
}): Child {
  const child = startChild()
  child.on('message', (reply: RenderProcessReply) => events.done(reply))
  child.on('error', (error) => events.failed(`failed: ${error.message}`))
  child.on('exit', (code, signal) => events.failed(`exited with ${signal ?? `code ${code}`}`))
  return { process: child, current: undefined, idle: undefined, deadline: undefined }
}

/**
 * A render process keeps its parent running while it has a job (its answer is awaited), never
 * while it waits for one: a script that drew a tile ends when its own work does.
 */
function holdOpen(child: ChildProcess, busy: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | null | undefined
  if (busy) {
    child.ref()
    channel?.ref()
  } else {
    child.unref()
    channel?.unref()
  }
}

/** Ends a render process and resolves once it has. */
function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.ref() // awaited: the process waits for it to end
    child.kill()
  })
}

let shared: RenderPool | undefined

/**
 * The process's render pool, made on first use and shared by every mock of the process (the
 * HTTPS server, `setupTmapsNode`): drawing is a pure function of the data seed and the picture's
 * parameters, so nothing of one mock's state is in it, and N mocks in one test run do not start
 * N sets of render processes.
 * @example const renderer = sharedRenderPool()
 */
export function sharedRenderPool(): RenderPool {
  shared ??= createRenderPool()
  return shared
}
