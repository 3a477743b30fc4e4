/**
 * The render worker: draws raster tiles and static maps off the page's thread (see
 * `createWorkerRenderer`). Same code, same bytes as drawing in the page.
 */

import type { RenderJob, RenderReply } from '../jobs/protocol.ts'
import { mapWorldFor } from '../map/map-world.ts'
import { drawJob } from './draw-job.ts'

const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<RenderJob>) => void): void
  postMessage(message: RenderReply, transfer?: Transferable[]): void
}
scope.addEventListener('message', async (event: MessageEvent<RenderJob>) => {
  const job = event.data
  if (job.kind === 'warm') {
    // The labels of a first view of the country (zoom 5 on a laptop) at once; those of 6 and 7
    // a second later, once the first view's tiles are drawn (they would hold them up).
    const world = mapWorldFor(job.seed)
    world.labelsAt(5)
    setTimeout(() => world.labelsAt(6), 1000)
    setTimeout(() => world.labelsAt(7), 1200)
    return
  }
  const { reply, transfer } = await drawJob(job)
  scope.postMessage(reply, transfer)
})
