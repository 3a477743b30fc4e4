import type { StaticMapSpec } from '../map/spec.ts'

/**
 * Where the mock draws its pictures (raster tiles and static maps) as PNG bytes.
 *
 * By default in the thread that answers (the renderer loaded on the first picture); a page can
 * draw them in a Web Worker instead (`createWorkerRenderer`), so that drawing tiles never holds
 * up the page or the mock's other answers.
 * @example
 * ```ts
 * import { createWorkerRenderer, setupTmapsWorker, type TmapsRenderer } from 'tmaps-mock/browser'
 * import RenderWorker from 'tmaps-mock/render-worker?worker'
 *
 * const inWorker = createWorkerRenderer(new RenderWorker())
 * let tiles = 0
 * const counting: TmapsRenderer = {
 *   tile(...args) {
 *     tiles++
 *     return inWorker.tile(...args)
 *   },
 *   staticMap: (...args) => inWorker.staticMap(...args),
 * }
 * const tmaps = setupTmapsWorker({ state: 'empty', renderer: counting })
 * await tmaps.start()
 * const key = await tmaps.console.createKey({ name: 'Map', domains: [location.hostname] })
 * await fetch(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${key.value}`)
 * console.assert(tiles === 1, `drew ${tiles} tiles`)
 * tmaps.stop()
 * ```
 */
export interface TmapsRenderer {
  tile(seed: string | number, z: number, x: number, y: number): Promise<Uint8Array<ArrayBuffer>>
  staticMap(seed: string | number, spec: StaticMapSpec): Promise<Uint8Array<ArrayBuffer>>
}

/** Draws in the calling thread; the renderer (~1 MB with its base map and font) loads on first use. */
export const inThread: TmapsRenderer = {
  async tile(seed, z, x, y) {
    const { renderTile } = await import('../map/render.ts')
    return renderTile(seed, z, x, y)
  },
  async staticMap(seed, spec) {
    const { renderStaticMap } = await import('../map/render.ts')
    return renderStaticMap(seed, spec)
  },
}

/**
 * A renderer that cannot take one more picture now (its workers are busy and its queue is
 * full): answered 503 `{"error":"service unavailable"}` with `Retry-After`, never drawn late.
 */
export class RendererBusyError extends Error {
  readonly retryAfterSeconds = 1
}

/**
 * A job a renderer lost: its process could not be sent the job, exited before answering, or did
 * not answer within the job's deadline. The process is ended and replaced, and the request is
 * answered 503 `{"error":"service unavailable"}` with `Retry-After` (a retry is drawn afresh).
 */
export class RendererFailedError extends Error {
  readonly retryAfterSeconds = 1
}

/** A job for a renderer in another thread, and its reply (the bytes' buffer is transferred). */
export type RenderJob =
  | { id: number; kind: 'tile'; seed: string | number; z: number; x: number; y: number }
  | { id: number; kind: 'static'; seed: string | number; spec: StaticMapSpec }
  | { id: number; kind: 'warm'; seed: string | number }
export type RenderReply = { id: number; bytes: Uint8Array<ArrayBuffer> } | { id: number; error: string }

/**
 * The job that has a render worker build a data seed's map world at once, before its first
 * picture (no reply): what `createWorkerRenderer(...).warm(seed)` posts, and what a page's early
 * classic script posts to a worker it started itself (`JSON.stringify(warmJob(seed))`).
 * @example worker.postMessage(warmJob(tmaps.options.dataSeed))
 */
export function warmJob(seed: string | number): RenderJob {
  return { id: -1, kind: 'warm', seed }
}

/**
 * A renderer that draws in a Web Worker running the package's render worker (`tmaps-mock/render-worker`).
 *
 * `warm(seed)` has the worker build that data seed's map world at once, in parallel with the
 * page's own start. A worker that fails rejects every picture in flight with its error
 * (answered 500 and logged as a bug).
 * @example
 * ```ts
 * import { createWorkerRenderer, setupTmapsWorker } from 'tmaps-mock/browser'
 * import RenderWorker from 'tmaps-mock/render-worker?worker' // Vite: a package's worker
 *
 * const renderer = createWorkerRenderer(new RenderWorker())
 * const tmaps = setupTmapsWorker({ state: 'empty', renderer }) // tiles drawn off the page
 * await tmaps.start()
 * const key = await tmaps.console.createKey({ name: 'Map', domains: [location.hostname] })
 * const tile = await fetch(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${key.value}`)
 * console.assert(tile.headers.get('content-type') === 'image/png')
 * tmaps.stop()
 * ```
 */
export function createWorkerRenderer(worker: Worker): TmapsRenderer & { warm(seed: string | number): void } {
  let next = 0
  const pending = new Map<
    number,
    { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (e: Error) => void }
  >()
  worker.addEventListener('message', (event: MessageEvent<RenderReply>) => {
    const reply = event.data
    const job = pending.get(reply.id)
    if (!job) return
    pending.delete(reply.id)
    if ('bytes' in reply) job.resolve(reply.bytes)
    else job.reject(new Error(`the render worker failed: ${reply.error}`))
  })
  worker.addEventListener('error', (event: ErrorEvent) => {
    for (const job of pending.values()) job.reject(new Error(`the render worker failed: ${event.message}`))
    pending.clear()
  })
  type Job = RenderJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never
  const post = (job: Job) =>
    new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
      const id = next++
      pending.set(id, { resolve, reject })
      worker.postMessage({ ...job, id })
    })
  return {
    warm: (seed) => worker.postMessage(warmJob(seed)),
    tile: (seed, z, x, y) => post({ kind: 'tile', seed, z, x, y }),
    staticMap: (seed, spec) => post({ kind: 'static', seed, spec }),
  }
}
