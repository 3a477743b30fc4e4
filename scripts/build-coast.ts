/**
 * Builds `src/data/gshhg-coast.json`: Tunisia's sea coast (the land/ocean shoreline, islands
 * included) at GSHHG's full resolution, which `scripts/build-land.ts` lays over the
 * OpenStreetMap-derived land (edges ~0.9 km there; GSHHG's ~70-350 m, median ~120 m around
 * Sousse), so that the waterfronts of the coastal cities stand right at street zoom; and the
 * region's lakes of GSHHG's level 2 (Ichkeul and the Mellègue reservoir in Tunisia, two lakes of
 * El Kala in Algeria, a 90 m speck at 33.59°N 10.43°E), of which `build-land.ts` draws the ones
 * it names. Here the coast is traced on a 3″ grid (its edges run east-west, north-south or
 * diagonally): it is kept as GSHHG gives it, and `build-land.ts` draws it through the middles of
 * its steps.
 *
 * Source: GSHHG 2.3.7, full resolution, levels 1 and 2 (Wessel, P., and W. H. F. Smith, "A Global
 * Self-consistent, Hierarchical, High-resolution Shoreline Database", J. Geophys. Res., 101,
 * 8741-8743, 1996; https://www.soest.hawaii.edu/pwessel/gshhg/), LGPL-3.0-or-later, read with
 * GMT's `gmt coast` from Debian's packages. It needs `apt-get install gmt gmt-gshhg-full`, which
 * CI does not do: the derived file is committed, and `npm run build:data` reads it as it is.
 * Run `node scripts/build-coast.ts` to make it again.
 *
 * GMT dumps the shoreline cut at its 1-degree bins; the pieces are joined end to end here into
 * closed islands and the mainland's open coast (from the region's west edge to its east edge),
 * and into closed lakes.
 * Points are `[lng, lat]`, rounded to 1e-5 degree (about 1 m).
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
/** The region dumped: `[west, east, south, north]`, a little wider than Tunisia's coast. */
export const COAST_REGION = [7.4, 11.8, 30, 37.6] as const

type Point = [number, number]

/** GSHHG's shorelines of some levels in the region, as `gmt coast -M` prints them (one piece per bin). */
function dump(levels: string): Point[][] {
  let text: string
  try {
    text = execFileSync('gmt', ['coast', `-R${COAST_REGION.join('/')}`, '-Df', '-M', '-W', `-A0/${levels}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // In a temporary folder: gmt leaves a gmt.history where it runs.
      cwd: tmpdir(),
    })
  } catch (error) {
    console.error(
      `Failed to read GSHHG with gmt: ${(error as Error).message}. Install Debian's GMT and its full-resolution shorelines (apt-get install -y gmt gmt-gshhg-full), then run this script again.`,
    )
    process.exit(2)
  }
  const pieces: Point[][] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('>')) pieces.push([])
    else if (line.trim() !== '') {
      const [x, y] = line.trim().split(/\s+/).map(Number)
      pieces.at(-1)!.push([Math.round(x! * 1e5) / 1e5, Math.round(y! * 1e5) / 1e5])
    }
  }
  return pieces
}

/** The pieces joined end to end (a piece may run either way). */
function joinPieces(pieces: Point[][]): Point[][] {
  const key = ([x, y]: Point) => `${x},${y}`
  const unused = new Set(pieces.filter((p) => p.length >= 2))
  const ends = new Map<string, Set<Point[]>>()
  for (const p of unused)
    for (const k of [key(p[0]!), key(p.at(-1)!)]) ends.set(k, (ends.get(k) ?? new Set()).add(p))
  const take = (p: Point[]) => {
    unused.delete(p)
    for (const k of [key(p[0]!), key(p.at(-1)!)]) ends.get(k)?.delete(p)
  }
  const lines: Point[][] = []
  while (unused.size > 0) {
    const first = unused.values().next().value!
    take(first)
    let chain = [...first]
    for (let grew = true; grew; ) {
      grew = false
      for (const atEnd of [true, false]) {
        const end = atEnd ? chain.at(-1)! : chain[0]!
        const next = ends.get(key(end))?.values().next().value
        if (!next) continue
        take(next)
        const piece = key(next[0]!) === key(end) ? next : [...next].reverse()
        chain = atEnd ? [...chain, ...piece.slice(1)] : [...[...piece].reverse(), ...chain.slice(1)]
        grew = true
      }
    }
    lines.push(chain)
  }
  return lines
}

// Level 1: the land/ocean shoreline. Level 2: the lakes' shores (GSHHG's lakes and river-lakes).
const pieces = dump('1/1')
const lines = joinPieces(pieces)
const lakePieces = dump('2/2')
const lakes = joinPieces(lakePieces)
const key = ([x, y]: Point) => `${x},${y}`
const closed = (l: Point[]) => key(l[0]!) === key(l.at(-1)!)
const islands = lines.filter(closed)
const open = lines.filter((l) => !closed(l))
const points = lines.reduce((n, l) => n + l.length, 0)
if (!lakes.every(closed))
  throw new Error('Failed to join GSHHG: a lake of level 2 is not a closed ring after joining its pieces.')
const out = {
  source:
    'GSHHG 2.3.7, full resolution, levels 1 and 2 (Wessel & Smith 1996, https://www.soest.hawaii.edu/pwessel/gshhg/), dumped by `gmt coast -R7.4/11.8/30/37.6 -Df -M -W -A0/1/1` (the coast) and `-A0/2/2` (the lakes) (scripts/build-coast.ts)',
  licence: 'LGPL-3.0-or-later',
  region: COAST_REGION,
  /** Open lines from one edge of the region to another (the mainland's coast), `[lng, lat]`. */
  coast: open,
  /** Closed rings (islands). */
  islands,
  /** Closed rings of level 2 (lakes: every one in the region, Tunisia's and Algeria's). */
  lakes,
}
writeFileSync(join(root, 'src/data/gshhg-coast.json'), `${JSON.stringify(out)}\n`)
console.log(
  `wrote src/data/gshhg-coast.json (${Math.round(JSON.stringify(out).length / 1024)} kB: ${open.length} open coast lines, ${islands.length} islands, ${points} points, from ${pieces.length} pieces; ${lakes.length} lakes of level 2, ${lakes.reduce((n, l) => n + l.length, 0)} points)`,
)
