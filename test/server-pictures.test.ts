import { request } from 'undici'
import { expect, it } from 'vitest'
import { createRenderPool } from '../src/runtimes/node/render-pool.ts'
import { httpsServers } from './support/https-servers.ts'

/**
 * Pictures are drawn off the answering thread of `tmaps-mock serve`: costly static maps never
 * hold up a geocode, and pictures beyond the render queue are refused with 503 + Retry-After.
 */
const startServer = httpsServers('pictures')

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const { server, agent } = await startServer(options, { connections: 64 })
  const { value } = await server.mock.console.createKey({ name: 'K' })
  const get = async (path: string) => {
    const response = await request(`${server.url}${path}${path.includes('?') ? '&' : '?'}api_key=${value}`, {
      dispatcher: agent,
    })
    const body = Buffer.from(await response.body.arrayBuffer())
    return { status: response.statusCode, headers: response.headers, body, at: performance.now() }
  }
  return { server, get }
}

it('answers a geocode while eight costly static maps are being drawn', async () => {
  const { get } = await start()
  await get('/geocoding/forward?q=Sfax') // the geocoder built
  await get('/maps/static?center=36.8,10.18&zoom=13&size=64x64') // a render thread started
  const areas = Array(10).fill('polygon=36.6,10.0|36.6,10.4|37.0,10.4|37.0,10.0').join('&')
  const maps = Array.from({ length: 8 }, (_, i) =>
    get(`/maps/static?center=36.8,10.${18 + i}&zoom=13&size=1280x1280&${areas}`),
  )
  await new Promise((resolve) => setTimeout(resolve, 50)) // the maps are queued
  const geocode = await get('/geocoding/forward?q=Sousse&limit=1')
  expect(geocode.status).toBe(200)
  const drawn = await Promise.all(maps)
  expect(drawn.map((m) => m.status)).toEqual(Array(8).fill(200))
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
