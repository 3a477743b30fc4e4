import type { RequestLine } from '../runtimes/server/https-server.ts'

/**
 * Prints one line per answered request, as a dev server does, in batches off the answering
 * path: written at most every `everyMs` (50) or 512 lines, the clock formatted once a second (a
 * write and a `toTimeString` per request cost a third of the server's CPU under load).
 * `flush()` writes what is waiting (call it before exiting).
 * @example
 * const lines = createRequestPrinter((text) => process.stdout.write(text))
 * startTmapsHttpsServer({ onRequest: lines.print })
 */
export function createRequestPrinter(write: (text: string) => unknown, everyMs = 50) {
  const waiting: string[] = []
  let timer: NodeJS.Timeout | undefined
  let second = -1
  let clock = ''
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    if (waiting.length === 0) return
    write(waiting.join(''))
    waiting.length = 0
  }
  return {
    print(line: RequestLine): void {
      const now = Math.floor(line.time.getTime() / 1000)
      if (now !== second) {
        second = now
        clock = line.time.toTimeString().slice(0, 8)
      }
      const status = line.status === 0 ? 'RESET' : String(line.status)
      waiting.push(
        `${clock} ${line.method} ${line.path} ${status} ${line.source ?? line.rule} ${line.ms.toFixed(1)} ms\n`,
      )
      if (waiting.length >= 512) flush()
      else timer ??= setTimeout(flush, everyMs)
    },
    flush,
  }
}
