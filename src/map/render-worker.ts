/**
 * The render worker: draws raster tiles and static maps off the page's thread (see
 * `createWorkerRenderer`). Same code, same bytes as drawing in the page.
 */
import { renderStaticMap, renderTile } from './render.ts'
import type { RenderJob, RenderReply } from './renderer.ts'
import { mapWorldFor } from './world.ts'

const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<RenderJob>) => void): void
  postMessage(message: RenderReply, transfer?: Transferable[]): void
}
scope.addEventListener('message', (event: MessageEvent<RenderJob>) => {
  const job = event.data
  try {
    if (job.kind === 'warm') {
      mapWorldFor(job.seed).labelsAt(6)
      return
    }
    const bytes =
      job.kind === 'tile' ? renderTile(job.seed, job.z, job.x, job.y) : renderStaticMap(job.seed, job.spec)
    scope.postMessage({ id: job.id, bytes } satisfies RenderReply, [bytes.buffer])
  } catch (error) {
    scope.postMessage({ id: job.id, error: (error as Error).message } satisfies RenderReply)
  }
})
