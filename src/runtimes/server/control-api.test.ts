import { beforeEach, describe, expect, it } from 'vitest'
import { createTmapsCore, type TmapsMockCore } from '../../core/create-core.ts'
import { createControlApi, LOG_STREAM_LAG_BYTES, LOG_STREAM_READERS } from './control-api.ts'

let core: TmapsMockCore
let control: ReturnType<typeof createControlApi>
beforeEach(async () => {
  core = createTmapsCore({ state: 'empty', seed: 'control' })
  await core.ready
  control = createControlApi(core)
})

const call = async (method: string, path: string, body?: unknown) => {
  const response = await control(
    new Request(`https://localhost:8443/__console${path}`, {
      method,
      ...(body !== undefined && {
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
    }),
  )
  const text = await response.text()
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : null,
  }
}

describe('control API', () => {
  it('creates a key (201, its value shown once) and lists keys by prefix only', async () => {
    const created = await call('POST', '/keys', { name: 'Web', domains: ['localhost'] })
    expect(created).toMatchObject({
      status: 201,
      type: 'application/json',
      body: { name: 'Web', domains: ['localhost'] },
    })
    expect(created.body.value).toMatch(/^ak_[0-9a-f]{32}$/)
    const listed = await call('GET', '/keys')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([
      expect.objectContaining({ id: created.body.id, prefix: created.body.value.slice(0, 7) }),
    ])
    expect(JSON.stringify(listed.body)).not.toContain(created.body.value)
    expect((await call('GET', `/keys/${created.body.id}`)).body.name).toBe('Web')
    expect((await call('GET', `/keys/${created.body.value}`)).body.id).toBe(created.body.id)
  })

  it('runs the documented transitions and answers 409 for the others, with the console message', async () => {
    const { body: key } = await call('POST', '/keys', { name: 'K' })
    const revokeActive = await call('POST', `/keys/${key.id}/revoke`)
    expect(revokeActive).toMatchObject({ status: 409, body: { code: 'forbidden-transition' } })
    expect(revokeActive.body.error).toMatch(/Disable it first/)
    expect((await call('POST', `/keys/${key.id}/disable`)).body.status).toBe('disabled')
    expect((await call('POST', `/keys/${key.id}/enable`)).body.status).toBe('enabled')
    await call('POST', `/keys/${key.id}/disable`)
    expect((await call('POST', `/keys/${key.id}/revoke`)).body.status).toBe('revoked')
    expect((await call('POST', `/keys/${key.id}/enable`)).status).toBe(409)
    expect((await call('POST', `/keys/${key.id}/explode`)).status).toBe(404)
  })

  it('adds, links, unlinks and removes domains', async () => {
    const { body: key } = await call('POST', '/keys', { name: 'K' })
    expect((await call('POST', '/domains', { hostname: 'app.example.tn' })).status).toBe(201)
    expect((await call('POST', '/domains', { hostname: 'https://app.example.tn/' })).status).toBe(400)
    expect((await call('PUT', `/keys/${key.id}/domains/app.example.tn`)).body.domains).toEqual([
      'app.example.tn',
    ])
    expect((await call('GET', '/domains')).body).toEqual([
      expect.objectContaining({
        hostname: 'app.example.tn',
        keys: [expect.objectContaining({ id: key.id })],
      }),
    ])
    expect((await call('DELETE', `/keys/${key.id}/domains/app.example.tn`)).body.domains).toEqual([])
    expect(
      (await call('PUT', `/keys/${key.id}/domains`, { domains: ['localhost', '127.0.0.1'] })).body.domains,
    ).toEqual(['127.0.0.1', 'localhost'])
    expect((await call('DELETE', '/domains/app.example.tn')).status).toBe(204)
    expect((await call('PUT', `/keys/${key.id}/domains`, { domains: 'localhost' })).status).toBe(400)
  })

  it('reports usage and the log, never with a full key', async () => {
    const { body: key } = await call('POST', '/keys', { name: 'K' })
    await core.fetch(new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`))
    await core.fetch(
      new Request(`https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${key.value}`, {
        headers: { Origin: 'https://x.tn' },
      }),
    )
    const usage = await call('GET', `/usage/${key.id}`)
    expect(usage.body).toMatchObject({ key: key.id, total: 2, byStatus: { 200: 1, 403: 1 } })
    expect((await call('GET', '/usage/unattributed')).body.total).toBe(0)
    const log = await call('GET', '/log')
    expect(log.body.map((e: { status: number }) => e.status)).toEqual([403, 200])
    expect(JSON.stringify(log.body)).not.toContain(key.value)
  })

  it('never logs or echoes a full key: not from a Referer, a path, or a mis-typed key in an error', async () => {
    const { body: key } = await call('POST', '/keys', { name: 'K', domains: ['localhost'] })
    await core.fetch(
      new Request(`https://api.tmaps.tn/geocoding/${key.value}?api_key=${key.value}`, {
        headers: { Referer: `https://evil.tn/copy?api_key=${key.value}` },
      }),
    )
    const log = JSON.stringify((await call('GET', '/log')).body)
    expect(log).toContain('ak_')
    expect(log.toLowerCase()).not.toContain(key.value.slice(0, 12))
    for (const typed of [` ${key.value}`, key.value.toUpperCase(), `${key.value}x`]) {
      const answer = await call('POST', `/keys/${encodeURIComponent(typed)}/disable`)
      expect(answer.status).toBe(404)
      const refused = await call('POST', '/keys', { name: 'Dup', value: typed })
      expect(refused.status).toBe(400)
      expect(JSON.stringify(refused.body).toLowerCase()).not.toContain(key.value.slice(0, 12))
    }
  })

  it('streams the log as server-sent events', async () => {
    const abort = new AbortController()
    const response = await control(
      new Request('https://localhost/__console/log/stream', { signal: abort.signal }),
    )
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = response.body!.getReader()
    await reader.read() // the opening comment
    await core.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
    const { value } = await reader.read()
    const text = new TextDecoder().decode(value)
    expect(text).toMatch(/^event: entry\nid: 1\ndata: \{/)
    expect(JSON.parse(text.split('data: ')[1]!)).toMatchObject({ status: 401, rule: 'key-missing' })
    abort.abort()
  })

  it('streams every change on /events, whoever made it: the console state, fault rules, the log cleared', async () => {
    const abort = new AbortController()
    const response = await control(
      new Request('https://localhost/__console/events', { signal: abort.signal }),
    )
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = response.body!.getReader()
    let text = ''
    const next = async (pattern: RegExp) => {
      while (!pattern.test(text)) text += new TextDecoder().decode((await reader.read()).value)
      const found = text.match(pattern)![0]
      text = text.slice(text.indexOf(found) + found.length)
      return found
    }
    await core.console.createKey({ name: 'In process' }) // a test's own mock, not the control API
    expect(await next(/event: change\ndata: .*\n\n/)).toBe('event: change\ndata: {"what":"console"}\n\n')
    await call('POST', '/faults', { status: 503 })
    expect(await next(/event: change\ndata: .*\n\n/)).toBe('event: change\ndata: {"what":"faults"}\n\n')
    await core.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))
    expect(await next(/event: entry\nid: 1\ndata: .*\n\n/)).toContain('"rule":"fault-injected"')
    expect((await call('DELETE', '/log')).status).toBe(204)
    expect(core.log.entries()).toEqual([])
    expect(await next(/event: change\ndata: .*\n\n/)).toBe('event: change\ndata: {"what":"log"}\n\n')
    abort.abort()
  })

  it('sends a TMaps request as a caller with the Origin and Referer given (POST /requests), logged as simulated', async () => {
    const key = await core.console.createKey({ name: 'Web', domains: ['app.example'] })
    const send = (body: unknown) =>
      control(
        new Request('https://localhost:8443/__console/requests', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Host: 'localhost:8443' },
          body: JSON.stringify(body),
        }),
      )
    const path = `/geocoding/forward?q=Sfax&api_key=${key.value}`
    const foreign = await send({ path, origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toEqual({ error: 'domain not authorized' })
    expect(core.log.entries()[0]).toMatchObject({
      host: 'localhost:8443',
      rule: 'domain-not-authorized',
      facts: { simulated: true },
    })
    expect(core.log.entries()[0]!.reason).toMatch(
      /^Origin \(simulated\) https:\/\/evil\.example -> host evil\.example/,
    )
    expect((await send({ path, origin: 'https://app.example' })).status).toBe(200)
    expect((await send({ path })).status).toBe(200) // neither header: a server's call
    const tile = await send({ path: `/r-tile/6/34/25?api_key=${key.value}`, referer: 'https://app.example/' })
    expect(tile.headers.get('content-type')).toBe('image/png')
    const matrix = await send({
      path: `/distance-matrix?api_key=${key.value}`,
      method: 'POST',
      body: JSON.stringify({
        origins: [{ lat: 36.8, lng: 10.18 }],
        destinations: [{ lat: 34.74, lng: 10.76 }],
      }),
    })
    expect(matrix.status).toBe(200)
    for (const [body, error] of [
      [{ path: 'https://evil.example/x' }, /^"path" must be a TMaps path/],
      [{ path: '//evil.example/x' }, /^"path" must be a TMaps path/],
      [{ path: '/__console/keys' }, /^"path" must be a TMaps path/],
      [{ path, method: 'PUT' }, /^"method" must be GET or POST/],
      [{ path, origin: 3 }, /^"origin" must be a string/],
    ] as const) {
      const refused = await send(body)
      expect(refused.status).toBe(400)
      expect((await refused.json()).error).toMatch(error)
    }
  })

  it('disconnects a log reader that fell 1 MB behind, so stalled readers cannot grow the memory', async () => {
    const response = await control(new Request('https://localhost/__console/log/stream'))
    const reader = response.body!.getReader()
    // Entries of requests with 14 KB paths: the limit is in bytes, reached after ~70 of them.
    const long = `https://api.tmaps.tn/geocoding/${'x'.repeat(14_000)}`
    for (let i = 0; i < 200; i++) await core.fetch(new Request(long))
    let text = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(new TextEncoder().encode(text).byteLength).toBeLessThan(LOG_STREAM_LAG_BYTES + 64 * 1024)
    expect(text.match(/^event: entry$/gm)?.length).toBeLessThan(200)
    expect(text).toMatch(
      /event: overflow\ndata: \{"error":"the reader fell 1 MB behind: disconnected"\}\n\n$/,
    )
  })

  it('adds, lists and removes fault rules; a bad rule is a 400 that says what to fix', async () => {
    const added = await call('POST', '/faults', { endpoint: '/geocoding/forward', status: 429, times: 2 })
    expect(added).toMatchObject({
      status: 201,
      body: { endpoint: 'geocoding/forward', status: 429, remaining: 2 },
    })
    expect((await core.fetch(new Request('https://api.tmaps.tn/geocoding/forward?q=Sfax'))).status).toBe(429)
    expect((await call('GET', '/faults')).body).toEqual([
      expect.objectContaining({ id: added.body.id, remaining: 1 }),
    ])
    expect((await call('DELETE', `/faults/${added.body.id}`)).status).toBe(204)
    expect((await call('DELETE', `/faults/${added.body.id}`)).status).toBe(404)
    await call('POST', '/faults', { delayMs: [10, 20] })
    expect((await call('DELETE', '/faults')).status).toBe(204)
    expect((await call('GET', '/faults')).body).toEqual([])
    const bad = await call('POST', '/faults', { status: 418 })
    expect(bad).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^Failed to add the fault: status must be/) },
    })
  })

  it('takes a snapshot, restores it, and resets', async () => {
    await call('POST', '/keys', { name: 'Kept' })
    const snapshot = (await call('GET', '/snapshot')).body
    await call('POST', '/keys', { name: 'Dropped' })
    expect((await call('PUT', '/snapshot', snapshot)).status).toBe(204)
    expect((await call('GET', '/keys')).body.map((k: { name: string }) => k.name)).toEqual(['Kept'])
    const bad = await call('PUT', '/snapshot', { format: 'nope' })
    expect(bad.status).toBe(400)
    expect((await call('GET', '/keys')).body).toHaveLength(1)
    expect((await call('POST', '/reset')).body).toEqual({ createdKeys: [] })
    expect((await call('GET', '/keys')).body).toEqual([])
  })

  it.each([
    ['createdAt', { createdAt: 'not a date' }, 'not an ISO 8601 date-time'],
    ['name', { name: 'n'.repeat(100_000) }, 'is 100000 characters long; a key name has at most 100'],
  ])(
    'refuses a snapshot whose key %s POST /keys would refuse (400 naming the field), state unchanged',
    async (field, change, words) => {
      await call('POST', '/keys', { name: 'Kept' })
      const snapshot = (await call('GET', '/snapshot')).body
      snapshot.keys[0] = { ...snapshot.keys[0], ...change }
      const refused = await call('PUT', '/snapshot', snapshot)
      expect(refused.status).toBe(400)
      expect(refused.type).toBe('application/json')
      expect(refused.body.error).toContain(`✖ ${words}`)
      expect(refused.body.error).toContain(`→ at keys[0].${field}`)
      expect(refused.body.error.length).toBeLessThan(1000)
      expect((await call('GET', '/keys')).body.map((k: { name: string }) => k.name)).toEqual(['Kept'])
    },
  )

  it.each([
    ['GET', '/nothing', undefined, 404],
    ['DELETE', '/keys', undefined, 405],
    ['POST', '/keys', '{not json', 400],
    ['POST', '/keys', [1], 400],
    ['POST', '/keys', { name: 42 }, 400],
    ['GET', '/keys/key_unknown', undefined, 404],
    ['GET', '/usage/key_unknown', undefined, 404],
    ['POST', '/keys', { name: 'X', value: 'ak_short' }, 400],
  ])('%s %s answers %#: %i', async (method, path, body, status) => {
    const answer = await call(method, path, body)
    expect(answer.status).toBe(status)
    expect(answer.type).toBe('application/json')
    expect(answer.body.error).toEqual(expect.any(String))
  })

  it('holds at most 32 log streams, and frees a slot when its reader leaves', async () => {
    const open = async () => {
      const abort = new AbortController()
      const response = await control(
        new Request('https://localhost/__console/log/stream', { signal: abort.signal }),
      )
      return { response, abort }
    }
    const streams = []
    for (let i = 0; i < LOG_STREAM_READERS; i++) streams.push(await open())
    expect(streams.every((s) => s.response.status === 200)).toBe(true)
    const refused = await open()
    expect(refused.response.status).toBe(503)
    expect(await refused.response.json()).toEqual({
      error: 'Too many log streams (32): close one, or read GET /__console/log.',
    })
    // One reader leaves by cancelling its body (as the server does when the socket closes), one by its
    // signal.
    await streams[0]!.response.body!.cancel()
    streams[1]!.abort.abort()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const again = [await open(), await open()]
    expect(again.map((s) => s.response.status)).toEqual([200, 200])
    expect((await open()).response.status).toBe(503)
    for (const s of [...streams, ...again]) s.abort.abort()
  })

  it('answers a path with or without its trailing slash, and a decoded key in the path', async () => {
    const { body: key } = await call('POST', '/keys/', { name: 'Slash' })
    expect((await call('GET', '/keys/')).body).toHaveLength(1)
    expect((await call('GET', `/keys/${encodeURIComponent(key.value)}/`)).body.id).toBe(key.id)
    expect((await call('GET', '/keys/%E0%A4%A')).status).toBe(404)
  })
})

describe('control API access checks', () => {
  const origin = 'http://localhost:5173'
  const gated = (token?: string) => createControlApi(core, { origins: [origin], ...(token && { token }) })
  // As the server makes it: with the Host the client sent.
  const ask = (
    api: ReturnType<typeof createControlApi>,
    path: string,
    init: RequestInit = {},
    host = 'localhost:8443',
  ) =>
    api(
      new Request(`https://${host}/__console${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), Host: host },
      }),
    )

  it('puts CORS headers only on answers to an allowed origin, and answers its preflight', async () => {
    const api = gated()
    const allowed = await ask(api, '/keys', { headers: { Origin: origin } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(origin)
    expect(allowed.headers.get('vary')).toBe('Origin')
    const terminal = await ask(api, '/keys')
    expect(terminal.status).toBe(200)
    expect(terminal.headers.get('access-control-allow-origin')).toBeNull()
    const foreign = await ask(api, '/keys', { headers: { Origin: 'https://evil.example' } })
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await ask(api, '/keys', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'GET,POST,PUT,DELETE,OPTIONS',
      'access-control-allow-headers': 'Content-Type,Authorization,X-TMaps-Console-Token',
      'access-control-max-age': '600',
    })
  })

  it('refuses a foreign Host unless the token comes with it, and a cross-site navigation', async () => {
    const api = gated('s3cret')
    const rebound = await ask(api, '/keys', {}, 'evil.example')
    expect(rebound.status).toBe(403)
    expect((await rebound.json()).error).toMatch(
      /^The control API answers only to this machine \(Host "evil.example"/,
    )
    const vouched = await ask(api, '/keys', { headers: { Authorization: 'Bearer s3cret' } }, 'evil.example')
    expect(vouched.status).toBe(200)
    const framed = await ask(api, '/log', {
      headers: { 'Sec-Fetch-Site': 'cross-site', 'X-TMaps-Console-Token': 's3cret' },
    })
    expect(framed.status).toBe(403)
  })

  it('requires the token (Bearer or X-TMaps-Console-Token): 401 with its challenge and CORS headers', async () => {
    const api = gated('s3cret')
    const tries: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer wrong' },
      { Authorization: 'Basic czNjcmV0' },
    ]
    for (const headers of tries) {
      const refused = await ask(api, '/keys', { headers: { ...headers, Origin: origin } })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="tmaps-mock console"')
      expect(refused.headers.get('access-control-allow-origin')).toBe(origin)
      expect(refused.headers.get('content-type')).toBe('application/json')
      expect((await refused.json()).error).toMatch(/needs the console token/)
    }
    expect((await ask(api, '/keys', { headers: { Authorization: 'bearer s3cret' } })).status).toBe(200)
    expect((await ask(api, '/keys', { headers: { 'X-TMaps-Console-Token': 's3cret' } })).status).toBe(200)
    // A preflight carries no credentials: it is answered without the token.
    expect((await ask(api, '/keys', { method: 'OPTIONS', headers: { Origin: origin } })).status).toBe(204)
  })

  it.each<[string, Record<string, string>]>([
    [
      'a wrong Bearer beside the right X-TMaps-Console-Token',
      { Authorization: 'Bearer wrong', 'X-TMaps-Console-Token': 's3cret' },
    ],
    [
      'the right Bearer beside a wrong X-TMaps-Console-Token',
      { Authorization: 'Bearer s3cret', 'X-TMaps-Console-Token': 'wrong' },
    ],
    [
      'a Basic Authorization beside the right X-TMaps-Console-Token',
      { Authorization: 'Basic czNjcmV0', 'X-TMaps-Console-Token': 's3cret' },
    ],
  ])('refuses any wrong credential, whatever else is right: %s (401)', async (_, headers) => {
    const api = gated('s3cret')
    const refused = await ask(api, '/snapshot', { headers })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('content-type')).toBe('application/json')
    expect((await refused.json()).error).toMatch(/needs the console token/)
    const both = { Authorization: 'Bearer s3cret', 'X-TMaps-Console-Token': 's3cret' }
    const allowed = await ask(api, '/keys', { headers: both })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('content-type')).toBe('application/json')
    expect(await allowed.json()).toEqual([])
  })

  const own = 'https://localhost:8443'
  /** What Chromium sends: a top-level navigation typed or followed, a script's fetch, a frame. */
  const NAVIGATION = {
    Accept: 'text/html',
    'Sec-Fetch-Site': 'none',
    'Sec-Fetch-Mode': 'navigate',
    'Sec-Fetch-Dest': 'document',
  }
  const SCRIPT = { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }
  const FRAME = { ...NAVIGATION, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Dest': 'iframe' }
  /** The console page, as a browser navigating to it gets it, and the page token it carries. */
  const openPage = async (api: ReturnType<typeof createControlApi>) => {
    const page = await ask(api, '/', { headers: NAVIGATION })
    const html = await page.text()
    return { page, html, token: /<meta name="tmaps-console-page" content="([^"]+)">/.exec(html)?.[1] }
  }

  it('answers a script of its own origin only with the console page’s token (X-TMaps-Console-Page)', async () => {
    const api = gated()
    const { token } = await openPage(api)
    expect(token).toMatch(/^[\w-]{32}$/)
    for (const headers of [SCRIPT, { ...SCRIPT, 'X-TMaps-Console-Page': 'wrong' }]) {
      const read = await ask(api, '/snapshot', { headers })
      expect(read.status).toBe(403)
      expect(read.headers.get('content-type')).toBe('application/json')
      expect((await read.json()).error).toMatch(
        /^The control API answers a script of its own origin \(https:\/\/localhost:8443\) only from the console page/,
      )
    }
    const write = await ask(api, '/keys', {
      method: 'POST',
      headers: { ...SCRIPT, Origin: own, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'From a script' }),
    })
    expect(write.status).toBe(403)
    expect(core.console.listKeys()).toEqual([])
    // The page's own calls, with its token: read and write, as the console page does.
    const page = { ...SCRIPT, 'X-TMaps-Console-Page': token! }
    const snapshot = await ask(api, '/snapshot', { headers: page })
    expect(snapshot.status).toBe(200)
    expect(snapshot.headers.get('content-type')).toBe('application/json')
    expect((await snapshot.json()).format).toBe('tmaps-mock/snapshot')
    const created = await ask(api, '/keys', {
      method: 'POST',
      headers: { ...page, Origin: own, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'From the page' }),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBeNull() // same origin: no CORS
    expect((await created.json()).name).toBe('From the page')
    // Curl and Node (no Sec-Fetch headers, no Origin) and an allowed origin, as before.
    expect((await ask(api, '/keys')).status).toBe(200)
    expect(
      (await ask(api, '/keys', { headers: { Origin: origin, 'Sec-Fetch-Site': 'cross-site' } })).status,
    ).toBe(200)
    // A wrong page token refuses wherever it is sent.
    expect((await ask(api, '/keys', { headers: { 'X-TMaps-Console-Page': 'wrong' } })).status).toBe(403)
  })

  it('serves the console page to a top-level navigation only: a script or a frame of its origin gets 403', async () => {
    const api = gated()
    const { page, html, token } = await openPage(api)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8')
    expect(html).toContain('<title>tmaps-mock serve')
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/)
    expect(page.headers.get('content-security-policy')).not.toMatch(/sandbox/)
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    // A reload or a link of its own origin is a navigation too.
    const reload = await ask(api, '/', { headers: { ...NAVIGATION, 'Sec-Fetch-Site': 'same-origin' } })
    expect(reload.status).toBe(200)
    expect(await reload.text()).toContain(token!) // one token per server, the same on every load
    for (const headers of [{ ...SCRIPT, Accept: 'text/html' }, FRAME]) {
      const refused = await ask(api, '/', { headers })
      expect(refused.status).toBe(403)
      expect(refused.headers.get('content-type')).toBe('application/json')
      expect(await refused.text()).not.toContain('tmaps-console-page')
    }
    // A page of an allowed origin reads the routes, not the page: the token stays with the page.
    const allowed = await ask(api, '/', {
      headers: { Origin: origin, Accept: 'text/html', 'Sec-Fetch-Mode': 'cors' },
    })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('content-type')).toBe('application/json')
    expect((await allowed.json()).routes).toContain('GET /__console/keys')
  })

  it('refuses a write that is not JSON with 415, before any route runs', async () => {
    const api = gated()
    const plain = await ask(api, '/keys', {
      method: 'POST',
      body: 'name=x',
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(plain.status).toBe(415)
    expect(await plain.json()).toEqual({
      error: 'A control API write must send JSON: Content-Type: application/json (got "text/plain").',
    })
    expect(core.console.listKeys()).toEqual([])
  })
})
