import { execFileSync } from 'node:child_process'
import { request } from 'undici'
import { expect, it, vi } from 'vitest'
import { createRenderPool } from '../src/offload/render-pool.ts'
import { inThread } from '../src/offload/renderer.ts'
import { createTmapsMock } from '../src/runtimes/msw/create-tmaps-mock.ts'
import { httpsServers } from './support/https-servers.ts'

/**
 * Pictures and heavy JSON are made off the answering thread of `tmaps-mock serve`: costly static
 * maps and routes never hold up a geocode, and jobs beyond the render queue are refused with 503
 * + Retry-After.
 */
const startServer = httpsServers('pictures')

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const { server, agent } = await startServer(options, { connections: 64 })
  const { value } = await server.mock.console.createKey({ name: 'K' })
  const get = async (path: string, json?: unknown) => {
    const response = await request(`${server.url}${path}${path.includes('?') ? '&' : '?'}api_key=${value}`, {
      dispatcher: agent,
      ...(json !== undefined && { method: 'POST', body: JSON.stringify(json) }),
    })
    const body = Buffer.from(await response.body.arrayBuffer())
    return { status: response.statusCode, headers: response.headers, body, at: performance.now() }
  }
  return { server, get, agent }
}

it('answers a geocode while four costly static maps are being drawn', async () => {
  const { get } = await start()
  await get('/geocoding/forward?q=Sfax') // the geocoder built
  await get('/maps/static?center=36.8,10.18&zoom=13&size=64x64') // a render process started
  const areas = Array(10).fill('polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0').join('&')
  const maps = Array.from({ length: 4 }, (_, i) =>
    get(`/maps/static?center=36.8,10.${18 + i}&zoom=13&size=1280x1280&${areas}`),
  )
  await new Promise((resolve) => setTimeout(resolve, 50)) // the maps are queued
  const geocode = await get('/geocoding/forward?q=Sousse&limit=1')
  expect(geocode.status).toBe(200)
  const drawn = await Promise.all(maps)
  expect(drawn.map((m) => m.status)).toEqual(Array(4).fill(200))
  // The geocode did not wait for the pictures: it was answered before the first of them.
  expect(geocode.at).toBeLessThan(Math.min(...drawn.map((m) => m.at)))
})

it('refuses a picture beyond the render queue with 503 and Retry-After, and logs why', async () => {
  const renderer = createRenderPool({ size: 1, maxQueuedPixels: 0 })
  const { get, server } = await start({ renderer })
  try {
    const answers = await Promise.all([get('/r-tile/9/273/201'), get('/r-tile/9/274/201')])
    const busy = answers.find((a) => a.status === 503)
    expect(answers.map((a) => a.status).sort()).toEqual([200, 503])
    expect(busy?.headers['retry-after']).toBe('1')
    expect(busy?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(busy!.body.toString())).toEqual({ error: 'service unavailable' })
    expect(server.mock.log.entries().map((e) => e.rule)).toContain('renderer-busy')
    // Once the thread is free, the refused tile is drawn.
    expect((await get('/r-tile/9/274/201')).status).toBe(200)
  } finally {
    await renderer.close()
  }
})

const stops = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    lat: 35.6 + ((i * 7) % 25) * 0.04,
    lng: 9.6 + ((i * 11) % 25) * 0.03,
  }))
/** The heaviest valid request of each heavy kind (and a long geocode), as the docs allow them. */
const HEAVY: Array<[string, unknown?]> = [
  ['/routing/direction', { waypoints: stops(25), steps: true, alternatives: true }],
  ['/routing/optimized', { origin: stops(1)[0], waypoints: stops(50), steps: true }],
  [
    '/routing/isochrone',
    { origin: { lat: 36.8, lng: 10.18 }, contours: [15, 30, 45, 60].map((time) => ({ time })) },
  ],
  ['/distance-matrix', { origins: stops(25), destinations: stops(25).reverse() }],
  ['/routing/direction?from=36.8065,10.1815&to=35.8256,10.6084&steps=true'],
  [
    `/geocoding/forward?q=${encodeURIComponent('Avenue Habib Bourguiba, La Marsa, Tunis, Tunisie 2070 (près de la gare)')}`,
  ],
]

it('computes routes, tours, isochrones, matrices and long geocodes in the render pool: the same bytes as in the answering thread', async () => {
  const renderer = createRenderPool({ size: 1 })
  const { get } = await start({ renderer })
  const here = createTmapsMock({ state: 'empty', seed: 'pictures', renderer: inThread })
  const key = await here.console.createKey({ name: 'Here' })
  try {
    for (const [path, body] of HEAVY) {
      const pooled = await get(path, body)
      const url = `https://api.tmaps.tn${path}${path.includes('?') ? '&' : '?'}api_key=${key.value}`
      const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }
      const own = Buffer.from(await (await here.fetch(new Request(url, init))).arrayBuffer())
      expect([path, pooled.status]).toEqual([path, 200])
      expect(pooled.body.equals(own)).toBe(true)
    }
    expect(renderer.stats().processes).toBe(1) // no picture was asked for: the JSON started it
    // An endpoint's own error comes back from the thread as it would from here.
    const refused = await get('/routing/optimized', {
      origin: { lat: 36.8, lng: 10.18 },
      waypoints: stops(51),
    })
    expect([refused.status, JSON.parse(refused.body.toString())]).toEqual([
      400,
      { error: 'invalid param: waypoints' },
    ])
  } finally {
    await renderer.close()
  }
})

it('answers a cached geocode at once while routes wait for the render process', async () => {
  const renderer = createRenderPool({ size: 1 })
  const { get } = await start({ renderer })
  try {
    await get('/geocoding/forward?q=Sfax&limit=1') // cached from now on
    const areas = Array(10).fill('polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0').join('&')
    // The thread is busy with a costly map; four heavy routes queue behind it.
    const map = get(`/maps/static?center=36.8,10.18&zoom=13&size=1280x1280&${areas}`)
    // The map's job reaches the pool first (separate connections do not keep their order).
    const inPool = () => renderer.stats().busy + renderer.stats().queued
    await vi.waitFor(() => expect(inPool()).toBe(1), { timeout: 30_000, interval: 5 })
    const routes = HEAVY.slice(0, 4).map(([path, body]) => get(path, body))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const geocode = await get('/geocoding/forward?q=Sfax&limit=1')
    const done = await Promise.all([map, ...routes])
    expect(done.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    // The routes were computed in the thread, after the map; the geocode did not wait for either.
    expect(Math.min(...done.slice(1).map((a) => a.at))).toBeGreaterThan(done[0]!.at)
    expect(geocode.at).toBeLessThan(done[0]!.at)
  } finally {
    await renderer.close()
  }
})

it('refuses a heavy JSON request beyond the render queue with 503 and Retry-After', async () => {
  const renderer = createRenderPool({ size: 1, maxQueuedPixels: 0 })
  const { get } = await start({ renderer })
  try {
    const [path, body] = HEAVY[0]!
    const answers = await Promise.all([get(path, body), get(path, { ...(body as object), steps: false })])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 503])
    const busy = answers.find((a) => a.status === 503)!
    expect(busy.headers['retry-after']).toBe('1')
    expect(JSON.parse(busy.body.toString())).toEqual({ error: 'service unavailable' })
  } finally {
    await renderer.close()
  }
})

it('goes on answering while a large snapshot (30,000 keys, ~7 MB) is restored through the control API', async () => {
  const { server, get, agent } = await start()
  await get('/geocoding/forward?q=Sfax&limit=1')
  const taken = server.mock.snapshot()
  const at = '2026-01-01T00:00:00.000Z'
  const hex = (n: number) => n.toString(16).padStart(32, '0')
  const many = {
    ...taken,
    keys: [
      ...taken.keys,
      ...Array.from({ length: 30_000 }, (_, i) => ({
        id: `key_bulk_${i}`,
        name: `Bulk ${i}`,
        value: `ak_${hex(i + 1)}`,
        status: 'enabled' as const,
        createdAt: at,
        updatedAt: at,
      })),
    ],
    domains: Array.from({ length: 15_000 }, (_, i) => ({ hostname: `d${i}.example.tn`, createdAt: at })),
    links: Array.from({ length: 15_000 }, (_, i) => ({
      keyId: `key_bulk_${i}`,
      hostname: `d${i}.example.tn`,
      createdAt: at,
    })),
  }
  const body = JSON.stringify(many)
  expect(body.length).toBeLessThan(8 * 1024 * 1024)
  // Timer turns while the restore runs: none at all if it held the event loop from start to end.
  let turns = 0
  let restoring = false
  const restore = server.mock.restore
  vi.spyOn(server.mock, 'restore').mockImplementation(async (snapshot) => {
    restoring = true
    const timer = setInterval(() => restoring && turns++, 1)
    try {
      await restore(snapshot)
    } finally {
      restoring = false
      clearInterval(timer)
    }
  })
  const put = await request(`${server.url}/__console/snapshot`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
    dispatcher: agent,
  })
  await put.body.text()
  expect(put.statusCode).toBe(204)
  expect(server.mock.restore).toHaveBeenCalledOnce()
  expect(turns).toBeGreaterThanOrEqual(3)
  expect(server.mock.console.listKeys()).toHaveLength(30_001)
  expect((await get('/geocoding/forward?q=Sfax&limit=1')).status).toBe(200) // its key kept
})

/** This process's render processes (by their title), of every pool. */
function renderProcesses(): number[] {
  try {
    const found = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'tmaps-mock renderer'], {
      encoding: 'utf8',
    })
    return found.split('\n').filter(Boolean).map(Number)
  } catch {
    return [] // pgrep exits 1 when it finds none
  }
}

/** A body of the documented shape with one more field, arrays nested `depth` deep. */
function nestedBody(base: object, depth: number): string {
  return `${JSON.stringify(base).slice(0, -1)},"x":${'['.repeat(depth)}${']'.repeat(depth)}}`
}

it.each([
  ['/routing/direction', { waypoints: stops(2) }],
  ['/distance-matrix', { origins: stops(1), destinations: stops(2) }],
])(
  'refuses %s with a body nested deeper than 64 levels: 400 naming the limit, before any work is queued',
  async (path, base) => {
    const renderer = createRenderPool({ size: 1 })
    const { server, agent } = await startServer({ renderer })
    const { value } = await server.mock.console.createKey({ name: 'K' })
    try {
      for (const depth of [63, 64, 5000, 100_000]) {
        const response = await request(`${server.url}${path}?api_key=${value}`, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: nestedBody(base, depth),
        })
        const body = await response.body.json()
        if (depth === 63) {
          expect(response.statusCode).toBe(200) // with the body's own object, 64 levels: the most
          continue
        }
        expect(response.statusCode).toBe(400)
        expect(response.headers['content-type']).toBe('application/json')
        expect(body).toEqual({ error: 'invalid param: body (nested deeper than 64 levels)' })
      }
      expect(renderer.stats()).toMatchObject({ processes: 1, busy: 0, queued: 0 }) // the 200's alone
    } finally {
      await renderer.close()
    }
  },
)

it('answers every later tile and route after its render pool could not send a job and lost a process mid-job', async () => {
  const renderer = createRenderPool({ size: 1 })
  const { get, server } = await start({ renderer })
  try {
    const before = renderProcesses() // other tests' (the shared pool's) included
    expect((await get('/r-tile/6/33/25')).status).toBe(200) // a render process, warm
    const [pid] = renderProcesses().filter((p) => !before.includes(p))
    // A job the process cannot be sent (send() throws): it fails alone.
    const cannotSend = { waypoints: stops(2), f: () => 1 }
    await expect(
      renderer.json('pictures', {
        endpoint: 'routing/direction',
        method: 'POST',
        href: 'https://api.tmaps.tn/routing/direction',
        params: {},
        body: cannotSend,
      }),
    ).rejects.toThrow(/^the job could not be sent to a render process/)
    // A process killed while it draws a costly map: that request is answered 503, and logged why.
    const areas = Array(10).fill('polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0').join('&')
    const map = get(`/maps/static?center=36.8,10.18&zoom=13&size=1280x1280&${areas}`) // seconds
    await expect.poll(() => renderer.stats().busy).toBe(1)
    process.kill(pid!, 'SIGKILL')
    const lost = await map
    expect(lost.status).toBe(503)
    expect(lost.headers['retry-after']).toBe('1')
    expect(JSON.parse(lost.body.toString())).toEqual({ error: 'service unavailable' })
    const entry = server.mock.log.entries().find((e) => e.rule === 'renderer-failed')
    expect(entry?.reason).toMatch(/render process exited with SIGKILL/)
    // Then 20 tiles and 20 routes: every one answered.
    const tiles = Array.from({ length: 20 }, (_, i) => get(`/r-tile/10/${540 + (i % 5)}/${400 + (i >> 2)}`))
    const routes = Array.from({ length: 20 }, (_, i) =>
      get('/routing/direction', { waypoints: [stops(20)[i], { lat: 36.8, lng: 10.18 }] }),
    )
    const answers = await Promise.all([...tiles, ...routes])
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200))
  } finally {
    await renderer.close()
  }
}, 120_000)
