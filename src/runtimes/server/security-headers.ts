/**
 * The headers every answer of the server carries, the console page aside (it has its own policy):
 * `nosniff`, so a browser takes JSON as JSON and a PNG as a picture, never as a page or a script;
 * and a Content-Security-Policy under which a document made of an answer (a replayed body opened
 * in a tab, an error page) is an opaque origin that runs nothing and that no page may frame. No
 * script can then act on the server's origin, where the control API and the console page live.
 * One frozen object, built once: the request path spreads it and computes nothing.
 * @example res.writeHead(200, 'OK', { ...answer.headers, ...SECURITY_HEADERS })
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
})
