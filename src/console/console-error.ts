import { maskSecrets } from '../contract/key-format.ts'

/**
 * Why a console action failed; the control API maps these to 400, 404, 409 and 503.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { type ConsoleErrorCode, createTmapsMock, TmapsConsoleError } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * let code: ConsoleErrorCode | undefined
 * try {
 *   await mock.console.disableKey('key_000000000000')
 * } catch (error) {
 *   if (error instanceof TmapsConsoleError) code = error.code
 * }
 * assert.equal(code, 'not-found')
 * ```
 */
export type ConsoleErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'conflict'
  | 'forbidden-transition'
  | 'not-ready'

/**
 * A console action that cannot be done, with a `code` that says why.
 *
 * The message says what failed and what to do, and names keys by prefix only (`ak_1a2b…`),
 * never by full value.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, TmapsConsoleError } from 'tmaps-mock'
 *
 * const mock = createTmapsMock({ state: 'empty' })
 * const key = await mock.console.createKey({ name: 'Web' })
 * // An enabled key must be disabled before it can be revoked, as in the real console.
 * await assert.rejects(
 *   mock.console.revokeKey(key),
 *   (error) => error instanceof TmapsConsoleError && error.code === 'forbidden-transition',
 * )
 * ```
 */
export class TmapsConsoleError extends Error {
  override readonly name = 'TmapsConsoleError'
  readonly code: ConsoleErrorCode

  constructor(code: ConsoleErrorCode, message: string) {
    // Whatever the caller typed is echoed masked: a key with a stray space or in upper case too.
    super(maskSecrets(message))
    this.code = code
  }
}
