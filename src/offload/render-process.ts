/**
 * A child process of `createRenderPool`: draws raster tiles and static maps, and computes heavy
 * JSON answers: the same code, the same bytes as in the answering thread (and the browser's
 * render worker draws the same pictures). It ends when its parent goes.
 */
import nodeModule from 'node:module'
import { constants, deflateSync } from 'node:zlib'
import { answerJsonJob, jobFailure } from '../endpoints/json-job.ts'
import { mapWorldFor } from '../map/map-world.ts'
import { useDeflate } from '../rasterizer/png.ts'
import { drawJob } from './draw-job.ts'
import type { RenderProcessJob, RenderProcessReply } from './render-pool.ts'

// node:zlib deflates 2-3x faster than fflate here; the pixels are the same, the bytes are not.
useDeflate((data) => deflateSync(data, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }))

const send = process.send?.bind(process)
if (!send)
  throw new Error('tmaps-mock: render-process.js runs as a child process (createRenderPool starts it).')
process.title = 'tmaps-mock renderer'
// Its parent gone (ended, killed, crashed), it has nothing left to do.
process.on('disconnect', () => process.exit(0))

/** What a job comes to: the bytes, an endpoint's error (400, 404), or a bug's message. */
async function answer(job: Exclude<RenderProcessJob, { kind: 'warm' }>): Promise<RenderProcessReply> {
  if (job.kind !== 'json') return (await drawJob(job)).reply
  try {
    return { id: job.id, bytes: await answerJsonJob(job.seed, job.job) }
  } catch (error) {
    const failure = jobFailure(error)
    return failure ? { id: job.id, failure } : { id: job.id, error: String((error as Error)?.stack ?? error) }
  }
}

let cacheWritten = false
process.on('message', async (job: RenderProcessJob) => {
  if (job.kind === 'warm') return void mapWorldFor(job.seed).labelsAt(5)
  send(await answer(job))
  // The modules' compiled code to disk once they are all loaded (the pool ends a process with a
  // signal, which writes nothing): the next render process starts from it.
  if (!cacheWritten) {
    cacheWritten = true
    nodeModule.flushCompileCache?.()
  }
})
