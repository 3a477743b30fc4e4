import type { RenderJob, RenderReply } from '../jobs/protocol.ts'
import { renderStaticMap, renderTile } from '../map/render.ts'

/**
 * Draws one picture job of a render worker (the browser's Web Worker, Node's render processes) and
 * says what to post back: the bytes (their buffer to transfer) or the error's message.
 * @example
 * const { reply, transfer } = await drawJob({ id: 1, kind: 'tile', seed: 'tmaps', z: 6, x: 33, y: 25 })
 */
export async function drawJob(
  job: Exclude<RenderJob, { kind: 'warm' }>,
): Promise<{ reply: RenderReply; transfer: ArrayBuffer[] }> {
  try {
    const bytes = await (job.kind === 'tile'
      ? renderTile(job.seed, job.z, job.x, job.y)
      : renderStaticMap(job.seed, job.spec))
    return { reply: { id: job.id, bytes }, transfer: [bytes.buffer] }
  } catch (error) {
    return { reply: { id: job.id, error: (error as Error).message }, transfer: [] }
  }
}
