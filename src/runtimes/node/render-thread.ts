/**
 * A Node worker thread that draws raster tiles and static maps for `createRenderPool`: the same
 * code, the same bytes as drawing in the answering thread (and as the browser's render worker).
 */
import { parentPort } from 'node:worker_threads'
import { constants, deflateSync } from 'node:zlib'
import { drawJob } from '../../map/render-job.ts'
import type { RenderJob } from '../../map/renderer.ts'
import { mapWorldFor } from '../../map/world.ts'
import { useDeflate } from '../../render/png.ts'

// node:zlib deflates 2-3x faster than fflate here; the pixels are the same, the bytes are not.
useDeflate((data) => deflateSync(data, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }))

const port = parentPort
if (!port)
  throw new Error('tmaps-mock: render-thread.js runs as a worker thread (createRenderPool starts it).')

port.on('message', async (job: RenderJob) => {
  if (job.kind === 'warm') return void mapWorldFor(job.seed).labelsAt(5)
  const { reply, transfer } = await drawJob(job)
  port.postMessage(reply, transfer)
})
