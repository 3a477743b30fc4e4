import { availableParallelism } from 'node:os'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { fromJobFailure, type JobFailure, type JsonAnswerer, type JsonJob } from '../../endpoints/json-job.ts'
import {
  RendererBusyError,
  type RenderJob,
  type RenderReply,
  type TmapsRenderer,
} from '../../map/renderer.ts'
import { pictureCost } from '../../map/spec.ts'

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
  /** Worker threads at most. Default: the machine's cores less one (the answering thread's), at least 1. */
  size?: number
  /**
   * How much drawing may wait for a thread, in the pixel units of `MAX_PICTURE_COST` (a tile is
   * 65,536, a static map its `pictureCost`); a picture beyond it is refused (503). Default 96 M
   * per thread: about 10 s of drawing on a laptop core, ~1,460 tiles (a map of any size asking
   * for its view at once is never refused), 58 plain 1280 x 1280 maps or eight of the costliest.
   */
  maxQueuedPixels?: number
  /** A thread idle this long ends (its memory goes back); the next picture starts one. Default 30 s. */
  idleMs?: number
}

/**
 * A renderer drawing in worker threads; `close()` ends them, `stats()` says what it is doing.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createRenderPool, type RenderPool } from 'tmaps-mock/node'
 *
 * const pool: RenderPool = createRenderPool()
 * assert.equal(pool.stats().threads, 0) // none before the first picture
 * await pool.close()
 * ```
 */
export interface RenderPool extends TmapsRenderer, JsonAnswerer {
  close(): Promise<void>
  stats(): { threads: number; busy: number; queued: number; refused: number }
}

/** What a thread is sent: a picture, or a JSON answer to compute (`ThreadJob` with its id). */
export type ThreadJob = RenderJob | { id: number; kind: 'json'; seed: string | number; job: JsonJob }
/** What a thread posts back: the bytes, an endpoint's error (400, 404), or a bug's message. */
export type ThreadReply = RenderReply | { id: number; failure: JobFailure }
type Job = ThreadJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never
interface Pending {
  job: Job
  cost: number
  resolve: (bytes: Uint8Array<ArrayBuffer>) => void
  reject: (error: Error) => void
}
interface Thread {
  worker: Worker
  current: (Pending & { id: number }) | undefined
  idle: NodeJS.Timeout | undefined
}

/** A tile's cost in pixel units (256 x 256), as a static map's is its `pictureCost`. */
const TILE_COST = 256 * 256
/** A JSON job's cost in the same units: about the time of four tiles (a heavy route is 5-50 ms). */
const JSON_COST = 4 * TILE_COST
const QUEUED_PIXELS_PER_THREAD = 96_000_000

/** The thread's module beside this one: `.ts` when run from source, `.js` from the package. */
const THREAD_URL = new URL(`./render-thread${extname(fileURLToPath(import.meta.url))}`, import.meta.url)

/** Options that take the next argument as their value, among those a thread must not inherit. */
const SCRIPT_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '--input-type'])

/**
 * The process's Node options less those about its main script (`-e`/`--eval`, `-p`/`--print`,
 * `--input-type`), which a worker thread inherits by default and fails on ("--input-type can only
 * be used with string input"): a script run with `node --input-type=module -e` then got 500 on
 * every picture. Undefined when there are none: the thread inherits the options as Node does.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] | undefined {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!
    const name = arg.split('=', 1)[0]!
    if (!SCRIPT_OPTIONS.has(name)) kept.push(arg)
    else if (!arg.includes('=')) i++ // its value is the next argument
  }
  return kept.length === execArgv.length ? undefined : kept
}

/**
 * A render thread. Options given to a thread explicitly must be Node's own: V8's (such as
 * `--max-old-space-size`) are refused (ERR_WORKER_INVALID_EXEC_ARGV, naming them), and are the
 * whole process's anyway, so the thread starts without the ones refused.
 */
function startWorker(): Worker {
  const name = 'tmaps-mock renderer'
  const execArgv = threadExecArgv(process.execArgv)
  if (execArgv === undefined) return new Worker(THREAD_URL, { name })
  try {
    return new Worker(THREAD_URL, { name, execArgv })
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
    const refused = new Set(/flags: (.*)$/.exec((error as Error).message)?.[1]?.split(', ') ?? execArgv)
    return new Worker(THREAD_URL, { name, execArgv: execArgv.filter((arg) => !refused.has(arg)) })
  }
}

/**
 * Draws tiles and static maps, and computes heavy JSON answers, in a pool of Node worker threads, so the answering thread only decides, queues and sends.
 *
 * A costly picture or route never holds up a geocode. Heavy JSON means every routing answer
 * (directions, tours, isochrones, matrices) and forward geocodes of more than 48 characters;
 * other geocodes stay in the answering thread. Threads start on the first job (an API-only
 * user who geocodes pays nothing), one job each at a time; jobs wait in a queue bounded by their cost,
 * and one more is refused with `RendererBusyError` (answered 503 with `Retry-After: 1`) rather
 * than drawn ever later. The same pixels as drawing in the answering thread (deflated by
 * `node:zlib`). Threads are `unref`'d: they never keep a process alive. `setupTmapsNode` and the
 * HTTPS server share one pool per process by default; make your own to size it. Options: `size`
 * (the cores less one, at least 1), `maxQueuedPixels` (96 M per thread), `idleMs` (30 s).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createRenderPool, setupTmapsNode } from 'tmaps-mock/node'
 *
 * const renderer = createRenderPool({ size: 2 }) // two threads at most
 * const { server, mock } = setupTmapsNode({ state: 'empty', renderer })
 * server.listen({ onUnhandledFrame: 'bypass' })
 * const key = await mock.console.createKey({ name: 'Tiles' })
 * const tile = await fetch(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${key.value}`)
 * assert.equal(tile.headers.get('content-type'), 'image/png')
 * assert.deepEqual(renderer.stats(), { threads: 1, busy: 0, queued: 0, refused: 0 })
 * server.close()
 * await renderer.close()
 * ```
 */
export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const size = options.size ?? Math.max(1, availableParallelism() - 1)
  const maxQueued = options.maxQueuedPixels ?? QUEUED_PIXELS_PER_THREAD * size
  const idleMs = options.idleMs ?? 30_000
  if (!(Number.isInteger(size) && size >= 1))
    throw new TypeError('Failed to create the render pool: size must be a whole number >= 1.')
  if (!(Number.isInteger(maxQueued) && maxQueued >= 0))
    throw new TypeError('Failed to create the render pool: maxQueuedPixels must be a whole number >= 0.')
  const threads: Thread[] = []
  const queue: Pending[] = []
  let next = 0
  let refused = 0
  let queuedCost = 0
  let closed = false

  const start = (): Thread => {
    const worker = startWorker()
    worker.unref()
    const thread: Thread = { worker, current: undefined, idle: undefined }
    worker.on('message', (reply: ThreadReply) => {
      const done = thread.current
      if (!done || done.id !== reply.id) return
      thread.current = undefined
      if ('bytes' in reply) done.resolve(reply.bytes)
      else if ('failure' in reply) done.reject(fromJobFailure(reply.failure))
      else done.reject(new Error(`the render thread failed: ${reply.error}`))
      dispatch(thread)
    })
    const fail = (error: Error) => {
      threads.splice(threads.indexOf(thread), 1)
      clearTimeout(thread.idle)
      thread.current?.reject(new Error(`the render thread failed: ${error.message}`))
      thread.current = undefined
      pump() // the others go on; a new thread starts if one is needed
    }
    worker.on('error', fail)
    worker.on('exit', (code) => {
      if (threads.includes(thread)) fail(new Error(`it exited with code ${code}`))
    })
    threads.push(thread)
    return thread
  }

  /** Gives a thread the next picture, or lets it end after `idleMs` without one. */
  const dispatch = (thread: Thread) => {
    const pending = queue.shift()
    if (pending) queuedCost -= pending.cost
    if (!pending) {
      thread.idle = setTimeout(() => {
        threads.splice(threads.indexOf(thread), 1)
        void thread.worker.terminate()
      }, idleMs)
      thread.idle.unref()
      return
    }
    clearTimeout(thread.idle)
    const id = next++
    thread.current = { ...pending, id }
    thread.worker.postMessage({ ...pending.job, id })
  }

  const pump = () => {
    while (queue.length > 0) {
      const free = threads.find((t) => t.current === undefined)
      if (free) dispatch(free)
      else if (threads.length < size) dispatch(start())
      else return
    }
  }

  const submit = (job: Job, cost: number) =>
    new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
      if (closed) return reject(new Error('the render pool is closed'))
      const free = threads.some((t) => t.current === undefined) || threads.length < size
      if (!free && queuedCost + cost > maxQueued) {
        refused++
        return reject(
          new RendererBusyError(
            `${queue.length} pictures (${(queuedCost / 1e6).toFixed(1)} M pixel units) are waiting for a render thread; the most is ${(maxQueued / 1e6).toFixed(1)} M`,
          ),
        )
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
        threads.splice(0).map((thread) => {
          clearTimeout(thread.idle)
          thread.current?.reject(closing)
          return thread.worker.terminate()
        }),
      )
    },
    stats: () => ({
      threads: threads.length,
      busy: threads.filter((t) => t.current !== undefined).length,
      queued: queue.length,
      refused,
    }),
  }
}

let shared: RenderPool | undefined

/**
 * The process's render pool, made on first use and shared by every mock of the process (the
 * HTTPS server, `setupTmapsNode`): drawing is a pure function of the data seed and the picture's
 * parameters, so nothing of one mock's state is in it, and N mocks in one test run do not start
 * N sets of threads.
 * @example const renderer = sharedRenderPool()
 */
export function sharedRenderPool(): RenderPool {
  shared ??= createRenderPool()
  return shared
}
