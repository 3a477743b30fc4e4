import type { ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { SECURITY_HEADERS } from './security-headers.ts'

/**
 * A whole HTTP/1.1 answer as bytes, for a socket whose request Node's parser refused: the mock's
 * JSON error body, with the headers of the API's other errors (`Access-Control-Allow-Origin: *`:
 * the request's `Origin` was not read) and `Connection: close` (the request's end is unknown).
 */
function rawAnswer(status: number, reason: string, error: string): Buffer {
  const body = JSON.stringify({ error })
  const headers = {
    'Access-Control-Allow-Origin': '*',
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...SECURITY_HEADERS,
    Connection: 'close',
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  return Buffer.from(`HTTP/1.1 ${status} ${reason}\r\n${lines.join('')}\r\n${body}`)
}

/** Node's answers to what its parser refuses (those of its own `socketOnError`), as the mock's errors. */
const ANSWERS: Readonly<Record<string, Buffer>> = {
  HPE_HEADER_OVERFLOW: rawAnswer(431, 'Request Header Fields Too Large', 'request header fields too large'),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: rawAnswer(413, 'Content Too Large', 'payload too large'),
  ERR_HTTP_REQUEST_TIMEOUT: rawAnswer(408, 'Request Timeout', 'request timeout'),
}
const BAD_REQUEST = rawAnswer(400, 'Bad Request', 'bad request')

/**
 * The server's `clientError` listener: a request Node's parser refuses before any listener of ours
 * runs (headers over `maxHeaderSize`, 16 KB; a malformed request line or header) is answered as
 * every other error of the mock is, JSON with CORS headers, where Node would send a bare status
 * line with an empty body. As Node does, nothing is written once an answer has begun on the
 * socket, and the socket is then closed.
 * @example server.on('clientError', answerClientError)
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent)
    socket.write(ANSWERS[error.code ?? ''] ?? BAD_REQUEST)
  socket.destroy()
}
