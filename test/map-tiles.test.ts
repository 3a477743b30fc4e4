import { describe, expect, it } from 'vitest'
import { createMapTiles, tileRequest } from '../playground/map-tiles.ts'
import { createTmapsCore } from '../src/core/create-core.ts'
import type { TmapsWorker } from '../src/runtimes/browser/index.ts'

const KEY = `ak_1a2b${'0'.repeat(28)}`

describe('tileRequest', () => {
  it('names a tile by its path and its query, the key masked as the log keeps it', () => {
    expect(tileRequest(`https://tiles.tmaps.tn/r-tile/6/33/25?api_key=${KEY}&v=2`)).toBe(
      '/r-tile/6/33/25?api_key=ak_1a2b…&v=2',
    )
    expect(tileRequest('not a url')).toBe('')
  })
})

describe('createMapTiles', () => {
  it('finds the answer of the tile asked for, not a late answer to an earlier load of the same tile', async () => {
    const core = createTmapsCore({ state: 'empty' })
    await core.ready
    const key = await core.console.createKey({ name: 'Tiles', domains: ['localhost'] })
    const tiles = createMapTiles(core as unknown as TmapsWorker)
    const url = (v: number) => `${core.options.tilesUrl}/r-tile/6/33/25?api_key=${key.value}&v=${v}`
    const from = (host: string) => ({ headers: { referer: `http://${host}:5173/` } })
    tiles.expect(url(0))
    tiles.expect(url(1))
    // The newer load is refused first; the older one's answer comes in after it.
    await core.fetch(new Request(url(1), from('127.0.0.1')))
    await core.fetch(new Request(url(0), from('localhost')))
    expect(tiles.entryFor(url(1))).toMatchObject({ status: 403, rule: 'domain-not-authorized' })
    expect(tiles.entryFor(url(0))).toMatchObject({ status: 200 })
    expect(core.log.entries().every((e) => tiles.isMine(e.seq))).toBe(true)
    tiles.stop()
  })
})
