// No Node types here: `tmaps-mock/server`'s declarations stay readable without @types/node.

/**
 * One answered request, as a dev server prints it; the path's key is masked.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { get } from 'node:https'
 * import { type RequestLine, startTmapsHttpsServer } from 'tmaps-mock/server'
 *
 * const lines: RequestLine[] = []
 * const server = await startTmapsHttpsServer({
 *   port: 0,
 *   state: 'empty',
 *   onRequest: (line) => lines.push(line),
 * })
 * await new Promise((resolve, reject) => {
 *   get(
 *     `${server.url}/geocoding/forward?q=Sfax&api_key=ak_${'0'.repeat(32)}`,
 *     { ca: server.ca },
 *     (response) => response.resume().on('end', resolve),
 *   ).on('error', reject)
 * })
 * await server.close()
 * assert.equal(lines[0]?.status, 401)
 * assert.equal(lines[0]?.path, '/geocoding/forward?q=Sfax&api_key=ak_0000…') // the key masked
 * ```
 */
export interface RequestLine {
  time: Date
  method: string
  /** Path and query, any key masked (`?api_key=ak_1a2b…`). */
  path: string
  /** 0 for a connection reset on purpose (an injected fault). */
  status: number
  rule: string
  ms: number
  /** `upstream`, `replay` or `replay-miss` when the answer did not come from the mock. */
  source?: 'upstream' | 'replay' | 'replay-miss'
}
