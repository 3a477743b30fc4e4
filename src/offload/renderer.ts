import { type RenderJob, type RenderReply, type TmapsRenderer, warmJob } from '../jobs/protocol.ts'

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
