import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildStreetNetworks, encodeStreetNetworks } from '../../scripts/build-streets.ts'
import { roadGraph, snap } from '../endpoints/routing/road-graph.ts'
import { REAL_STREETS } from './city-streets.ts'
import { onLand } from './land.ts'
import { LANDMARKS, MONUMENT_GROUNDS } from './landmarks.ts'
import { CITY_STREETS, GENERATED_BASES, MEDINA_BASES, MEDINA_WORDS, TUNIS_RESERVED } from './street-names.ts'
import { STREET_NETWORK_FILE, TUNIS_ID, townNetworks } from './street-network.ts'
import { generateStreets } from './streets.ts'

const networks = townNetworks()
const tunis = networks.find((t) => t.locality.name === 'Tunis')!

/** Mean segment length (m) of a town's lines of one kind. */
function meanSegment(kind: string): number {
  let total = 0
  let count = 0
  for (const line of tunis.lines.filter((l) => l.kind === kind))
    for (let i = 2; i < line.points.length; i += 2) {
      const dy = (line.points[i]! - line.points[i - 2]!) * 110_540
      const dx = (line.points[i + 1]! - line.points[i - 1]!) * 111_320 * Math.cos((36.8 * Math.PI) / 180)
      total += Math.hypot(dx, dy)
      count++
    }
  return total / count
}

describe('the towns’ street networks', () => {
  it('are what the build makes from the rules now: the committed file has not drifted (npm run build:data)', () => {
    const built = buildStreetNetworks()
    const committed = readFileSync(join(import.meta.dirname, '../..', STREET_NETWORK_FILE), 'utf8')
    expect(encodeStreetNetworks(built) === committed, 'run npm run build:data and commit the file').toBe(true)
    // And what the runtime decodes is what the build made, to the bit.
    expect(networks.length).toBe(built.length)
    networks.forEach((town, t) => {
      const made = built[t]!
      expect(town.locality).toBe(made.locality)
      expect(town.owners).toEqual(made.owners)
      expect(town.lines.map((l) => [l.kind, l.real])).toEqual(made.lines.map((l) => [l.kind, l.real]))
      town.lines.forEach((line, i) => {
        const bits = Buffer.from(line.points.slice().buffer)
        expect(bits).toEqual(Buffer.from(made.lines[i]!.points.buffer))
      })
    })
  }, 120_000)

  it('puts no street vertex in the water', () => {
    const wet: string[] = []
    for (const { locality, lines } of networks)
      for (const line of lines)
        for (let i = 0; i < line.points.length; i += 2)
          if (!onLand(line.points[i]!, line.points[i + 1]!))
            wet.push(`${locality.name} ${line.points[i]},${line.points[i + 1]}`)
    expect(wet).toEqual([])
  })

  it('joins every street of a town to every other in the routing graph, and the mainland towns to Tunis', () => {
    const g = roadGraph()
    const tunisComponent = g.component[g.from[snap(g, { lat: 36.8002, lng: 10.1815 })!.edge]!]
    const components = new Map<string, Set<number>>()
    for (let e = 0; e < g.from.length; e++) {
      const key = g.roads[g.road[e]!]!.street
      if (!key) continue
      const town = key.slice(0, key.lastIndexOf(':'))
      ;(components.get(town) ?? components.set(town, new Set()).get(town)!).add(g.component[g.from[e]!]!)
    }
    expect(components.size).toBe(networks.length)
    for (const { locality } of networks)
      expect([...components.get(locality.id)!], locality.name).toHaveLength(1)
    // Every town reaches the capital: Djerba by El Kantara and the ferry, Kerkennah by the ferry.
    const apart = networks.filter((t) => !components.get(t.locality.id)!.has(tunisComponent!))
    expect(apart.map((t) => t.locality.name)).toEqual([])
  })

  it('shapes Tunis as a dense medina, a colonial grid and looser outer streets, with its real axes', () => {
    expect(meanSegment('medina')).toBeLessThan(80)
    expect(meanSegment('grid')).toBeGreaterThan(meanSegment('medina'))
    expect(meanSegment('suburb')).toBeGreaterThan(meanSegment('grid'))
    const real = tunis.lines.filter((l) => l.real).map((l) => l.real!.fr)
    for (const s of REAL_STREETS.filter((r) => r.town === 'Tunis')) expect(real).toContain(s.fr)
  })

  it("leaves the largest monuments' grounds clear: no generated street through El Jem's amphitheatre or Zitouna", () => {
    expect(MONUMENT_GROUNDS.length).toBeGreaterThanOrEqual(3)
    for (const { id, radiusM } of MONUMENT_GROUNDS) {
      const l = LANDMARKS.find((landmark) => landmark.id === id)!
      const kx = 111_320 * Math.cos((l.lat * Math.PI) / 180)
      let nearest = Number.POSITIVE_INFINITY
      for (const town of networks)
        for (const line of town.lines.filter((line) => line.kind !== 'real'))
          for (let i = 2; i < line.points.length; i += 2) {
            // The segment in metres from the monument's point.
            const [ax, ay] = [(line.points[i - 1]! - l.lng) * kx, (line.points[i - 2]! - l.lat) * 110_540]
            const [bx, by] = [(line.points[i + 1]! - l.lng) * kx, (line.points[i]! - l.lat) * 110_540]
            const [dx, dy] = [bx - ax, by - ay]
            const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)))
            nearest = Math.min(nearest, Math.hypot(ax + dx * t, ay + dy * t))
          }
      expect(nearest, id).toBeGreaterThanOrEqual(radiusM * 0.99)
      // Streets still come near: the grounds are a gap in the town, not a hole in the map.
      expect(nearest, id).toBeLessThan(radiusM + 150)
    }
  })

  it('lays a road along the shore of the coastal towns, by the water', () => {
    const coastal = ['Sousse', 'Bizerte', 'Mahdia', 'Monastir', 'Nabeul']
    const lines = networks
      .filter((t) => coastal.includes(t.locality.name))
      .flatMap((t) => t.lines.filter((l) => l.kind === 'coast').map((l) => [t.locality.name, l] as const))
    expect(new Set(lines.map(([town]) => town)).size).toBeGreaterThanOrEqual(3)
    for (const [town, line] of lines)
      for (let i = 0; i < line.points.length; i += 2) {
        const [lat, lng] = [line.points[i]!, line.points[i + 1]!]
        // Water within 200 m in some direction.
        const wet = Array.from({ length: 16 }, (_, k) => (k / 16) * Math.PI * 2).some(
          (a) =>
            !onLand(
              lat + (Math.sin(a) * 200) / 110_540,
              lng + (Math.cos(a) * 200) / (111_320 * Math.cos((lat * Math.PI) / 180)),
            ),
        )
        expect(wet, `${town} ${lat},${lng}`).toBe(true)
      }
  })

  it('sizes a town’s network by its population', () => {
    const size = (name: string) => networks.find((t) => t.locality.name === name)!.lines.length
    expect(size('Tunis')).toBeGreaterThan(size('Sfax'))
    expect(size('Sfax')).toBeGreaterThan(size('Tozeur'))
  })

  it('names the same streets the same for the same seed, and differently for another (the courses are one)', () => {
    const [a, b, c] = [generateStreets('one'), generateStreets('one'), generateStreets('two')]
    expect(a.map((s) => `${s.key} ${s.fr}`)).toEqual(b.map((s) => `${s.key} ${s.fr}`))
    expect(a.map((s) => s.key).sort()).toEqual(c.map((s) => s.key).sort())
    const named = (list: typeof a) => new Map(list.map((s) => [s.key, s.fr]))
    const [one, two] = [named(a), named(c)]
    const differ = [...one].filter(([key, fr]) => two.get(key) !== fr).length
    expect(differ).toBeGreaterThan(a.length / 4)
    // Real streets keep their names in every world.
    expect(a.find((s) => s.fr === 'Avenue de France')?.key).toBe(
      c.find((s) => s.fr === 'Avenue de France')?.key,
    )
  })

  it('names generated streets as Tunisian towns name theirs, never with a number, and marks none real', () => {
    const general = new Set(GENERATED_BASES.map(([fr]) => fr))
    const lanes = new Set([...MEDINA_WORDS, ...MEDINA_BASES].map(([fr]) => fr))
    const own = new Set(Object.values(CITY_STREETS).flatMap((list) => list.map(([fr]) => fr)))
    for (const seed of ['one', 'two', 7]) {
      const streets = generateStreets(seed)
      expect(
        streets.filter((s) => /^(Rue \d+|نهج \d+)$/.test(s.fr) || /^نهج \d+$/.test(s.ar)).map((s) => s.fr),
      ).toEqual([])
      for (const s of streets) {
        if (s.kind === 'real') {
          expect(s.source).toBeTruthy()
          continue
        }
        expect(s.source).toBeUndefined()
        const [type, ...rest] = s.fr.split(' ')
        const base = rest.join(' ')
        const generated =
          !own.has(s.fr) && (s.kind === 'medina' ? lanes.has(base) || general.has(base) : general.has(base))
        expect(
          generated ||
            own.has(s.fr) ||
            s.fr === 'Avenue Habib Bourguiba' ||
            s.fr === 'Boulevard de la Corniche',
          `${s.locality.name}: ${s.fr}`,
        ).toBe(true)
        if (generated)
          expect(
            s.kind === 'medina' ? ['Rue', 'Impasse', 'Souk'] : ['Rue', 'Impasse', 'Avenue', 'Boulevard'],
          ).toContain(type)
      }
    }
  })

  it('puts a real Tunis street’s name only on that street in Tunis', () => {
    const fold = (t: string) =>
      t
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/^(rue|avenue|boulevard|impasse|place|route|quai|souk) /, '')
    const real = [
      ...TUNIS_RESERVED.map(fold),
      ...REAL_STREETS.filter((r) => r.town === 'Tunis').map((r) => fold(r.fr)),
      ...(CITY_STREETS.Tunis ?? []).map(([fr]) => fold(fr)),
    ]
    for (const seed of ['one', 'two', 7]) {
      // The capital's network, its quarters included (Mutuelleville, Bab Sidi Kassem...).
      const tunis = generateStreets(seed).filter((s) => s.key.startsWith(`${TUNIS_ID}:`))
      expect(tunis.length).toBeGreaterThan(200)
      const clashes = tunis
        .filter((s) => s.kind !== 'real')
        .filter((s) => real.some((r) => r === fold(s.fr) || r.includes(fold(s.fr)) || fold(s.fr).includes(r)))
      expect(clashes.map((s) => s.fr)).toEqual([])
      // And each real name is on exactly one street there.
      for (const r of REAL_STREETS.filter((x) => x.town === 'Tunis'))
        expect(tunis.filter((s) => s.fr === r.fr).map((s) => s.kind)).toEqual(['real'])
    }
  })
})
