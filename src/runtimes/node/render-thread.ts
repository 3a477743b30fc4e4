/**
 * A Node worker thread that draws raster tiles and static maps for `createRenderPool`: the same
 * code, the same bytes as drawing in the answering thread (and as the browser's render worker).
 */
import { parentPort } from 'node:worker_threads'
import { constants, deflateSync } from 'node:zlib'
import { renderStaticMap, renderTile } from '../../map/render.ts'
import type { RenderJob, RenderReply } from '../../map/renderer.ts'
import { mapWorldFor } from '../../map/world.ts'
import { useDeflate } from '../../render/png.ts'

// node:zlib deflates 2-3x faster than fflate here; the pixels are the same, the bytes are not.
useDeflate((data) => deflateSync(data, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }))

const port = parentPort
if (!port)
  throw new Error('tmaps-mock: render-thread.js runs as a worker thread (createRenderPool starts it).')

port.on('message', async (job: RenderJob) => {
  try {
    if (job.kind === 'warm') {
      mapWorldFor(job.seed).labelsAt(5)
      return
    }
    const bytes = await (job.kind === 'tile'
      ? renderTile(job.seed, job.z, job.x, job.y)
      : renderStaticMap(job.seed, job.spec))
    port.postMessage({ id: job.id, bytes } satisfies RenderReply, [bytes.buffer])
  } catch (error) {
    port.postMessage({ id: job.id, error: (error as Error).message } satisfies RenderReply)
  }
})
