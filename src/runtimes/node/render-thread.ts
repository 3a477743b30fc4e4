/**
 * A Node worker thread of `createRenderPool`: draws raster tiles and static maps, and computes
 * heavy JSON answers: the same code, the same bytes as in the answering thread (and the
 * browser's render worker draws the same pictures).
 */
import { parentPort } from 'node:worker_threads'
import { constants, deflateSync } from 'node:zlib'
import { answerJsonJob, jobFailure } from '../../endpoints/json-job.ts'
import { drawJob } from '../../map/render-job.ts'
import { mapWorldFor } from '../../map/world.ts'
import { useDeflate } from '../../render/png.ts'
import type { ThreadJob, ThreadReply } from './render-pool.ts'

// node:zlib deflates 2-3x faster than fflate here; the pixels are the same, the bytes are not.
useDeflate((data) => deflateSync(data, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }))

const port = parentPort
if (!port)
  throw new Error('tmaps-mock: render-thread.js runs as a worker thread (createRenderPool starts it).')

port.on('message', async (job: ThreadJob) => {
  if (job.kind === 'warm') return void mapWorldFor(job.seed).labelsAt(5)
  if (job.kind !== 'json') {
    const { reply, transfer } = await drawJob(job)
    return port.postMessage(reply, transfer)
  }
  let reply: ThreadReply
  try {
    const bytes = await answerJsonJob(job.seed, job.job)
    return port.postMessage({ id: job.id, bytes } satisfies ThreadReply, [bytes.buffer])
  } catch (error) {
    const failure = jobFailure(error)
    reply = failure
      ? { id: job.id, failure }
      : { id: job.id, error: String((error as Error)?.stack ?? error) }
  }
  port.postMessage(reply)
})
