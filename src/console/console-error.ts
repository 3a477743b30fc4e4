import { maskSecrets } from '../contract/key-format.ts'

/** Why a console action failed; the control API maps these to 400, 404, 409 and 503. */
export type ConsoleErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'conflict'
  | 'forbidden-transition'
  | 'not-ready'

/**
 * A console action that cannot be done. The message says what failed and what to do, and
 * names keys by prefix only (`ak_1a2b…`), never by full value.
 * @example
 * try { await mock.console.revokeKey(id) } catch (e) { if (e instanceof TmapsConsoleError) e.code }
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
