/**
 * The floor under the endpoints and the threads that compute their answers: what a renderer is
 * (`TmapsRenderer`: pictures, and heavy JSON answers when it can), the jobs posted to another
 * thread and their replies, and the errors a renderer answers with. It imports no endpoint and no
 * thread: the endpoints use a renderer through it, and `offload/` implements it.
 */
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
  /**
   * Computes a heavy JSON answer off the answering thread (a render pool's processes do): the
   * same bytes as computing it in the thread, or the endpoint's own error (400, 404). A renderer
   * without it leaves every JSON answer to the answering thread.
   */
  json?(seed: string | number, job: JsonJob): Promise<Uint8Array<ArrayBuffer>>
}

/**
 * A JSON answer to compute in another thread (a render pool's): the endpoint's name and method,
 * the request's URL and path parameters, and its parsed body. Everything an endpoint reads: its
 * answer depends on nothing else but the data seed.
 */
export interface JsonJob {
  endpoint: string
  method: 'GET' | 'POST'
  href: string
  params: Readonly<Record<string, string>>
  body?: unknown
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
