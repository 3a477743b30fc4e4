import { randomBytes } from 'node:crypto'
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * Writes `text` to `path` as a file of its own, readable by you only (`0600`), whole or not at
 * all: a new temporary file beside it (an unguessable name, made exclusively, so never an
 * existing file or a link), flushed to disk, then renamed over `path`. A symbolic link at `path`
 * is replaced by the file, never written through; a crash leaves the file before it whole.
 * Throws what the file system said (the folder vanished, a full disk), the temporary file removed.
 * @example writePrivateFile('state.json', `${JSON.stringify(server.mock.snapshot(), null, 2)}\n`)
 */
export function writePrivateFile(path: string, text: string): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  const fd = openSync(temporary, 'wx', 0o600)
  try {
    fchmodSync(fd, 0o600) // whatever the umask
    writeSync(fd, text)
    fsyncSync(fd)
    closeSync(fd)
    renameSync(temporary, path)
  } catch (error) {
    try {
      closeSync(fd)
    } catch {
      // closed already
    }
    rmSync(temporary, { force: true })
    throw error
  }
}
