import { REAL_STREETS, type RealStreet } from './city-streets.ts'
import { LOCALITIES, type Locality } from './gazetteer.ts'
import data from './street-network.json' with { type: 'json' }
import { TUNIS_BOURGUIBA, TUNIS_ID } from './town-centre.ts'

export { TUNIS_BOURGUIBA, TUNIS_ID }

/**
 * Each town's street network as geography: where its streets run, the same for every data seed
 * (like the roads between towns), so one routing graph serves every world; a seed only names the
 * generated streets and numbers their houses (src/data/streets.ts).
 *
 * Generated (said so in the README), except the real axes and squares of src/data/city-streets.ts,
 * which are placed first: a dense irregular medina with a few gates for the old cities, a grid for
 * the colonial centres (Tunis's Ville Nouvelle, Sfax's Bab Bhar), a looser lattice for the rest of
 * the town, sized by its population. Every vertex stands on the land the map draws (the land mask);
 * a segment that would cross water is left out. Every town's network is connected (its parts are
 * linked, or dropped) and joined to the roads between towns (src/data/roads.json) by short streets
 * that end on a road's vertex, so routing reaches every street.
 *
 * Built once by scripts/build-streets.ts (`npm run build:data`, its rules and sources there) into
 * src/data/street-network.json, which this module decodes on first use: building them would cost
 * every process and page far more than decoding (docs/performance.md, "Figures behind choices").
 */
export interface TownNetwork {
  locality: Locality
  lines: StreetLine[]
  /**
   * The locality each line is in, where it is not the town's own: a street of the town's outer
   * lattice is in the nearest locality of the gazetteer (Le Kram's streets are Le Kram's, not La
   * Goulette's), so reverse geocoding names the commune a point is in.
   */
  owners: Array<Locality | undefined>
}

/** One street's course: vertices `[lat, lng, ...]`, shared with its neighbours where they meet. */
export interface StreetLine {
  points: Float64Array
  /** `join`: a short street from the network to a road between towns (routing takes it anywhere). */
  kind: (typeof STREET_KINDS)[number]
  real?: RealStreet
}

/** The kinds of line, in the order the file numbers them. */
export const STREET_KINDS = ['real', 'medina', 'grid', 'suburb', 'coast', 'link', 'join'] as const

/** The generated file this module decodes. */
export const STREET_NETWORK_FILE = 'src/data/street-network.json'

let networks: TownNetwork[] | undefined

/**
 * Every town's network (decoded on first use from src/data/street-network.json, the same for
 * every seed). The file holds `towns` (locality id, its number of lines, in order), `owners`
 * (locality ids), `vertices` (base64 of little-endian float64 `lat, lng` pairs, each distinct
 * vertex once: the exact values the build computed) and `lines`, integers: per line its kind
 * (index in STREET_KINDS), its real street (1 + index in REAL_STREETS, 0 none), its owner (1 +
 * index in `owners`, 0 the town's own), its vertex count, then its vertices' indices, each as the
 * difference from the previous one in the file.
 */
export function townNetworks(): readonly TownNetwork[] {
  networks ??= decode()
  return networks
}

function decode(): TownNetwork[] {
  const text = atob(data.vertices)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  const view = new DataView(bytes.buffer)
  const localities = new Map(LOCALITIES.map((l) => [l.id, l]))
  const locality = (id: string) => {
    const found = localities.get(id)
    if (!found) throw new Error(`Failed to decode the streets: no locality ${id} (run npm run build:data).`)
    return found
  }
  const owners = data.owners.map(locality)
  const stream = data.lines
  // Every line's points in one buffer (one allocation; each line a view of its part).
  let total = 0
  for (let at = 0; at < stream.length; at += 4 + stream[at + 3]!) total += stream[at + 3]!
  const points = new Float64Array(total * 2)
  let [at, filled, vertex] = [0, 0, 0]
  const out: TownNetwork[] = []
  for (let t = 0; t < data.towns.length; t += 2) {
    const town: TownNetwork = { locality: locality(data.towns[t] as string), lines: [], owners: [] }
    for (let n = data.towns[t + 1] as number; n > 0; n--) {
      const [kind, real, owner, count] = [stream[at]!, stream[at + 1]!, stream[at + 2]!, stream[at + 3]!]
      at += 4
      const start = filled
      for (let k = 0; k < count; k++) {
        vertex += stream[at++]!
        points[filled++] = view.getFloat64(vertex * 16, true)
        points[filled++] = view.getFloat64(vertex * 16 + 8, true)
      }
      const street = real > 0 ? REAL_STREETS[real - 1] : undefined
      town.lines.push({
        points: points.subarray(start, filled),
        kind: STREET_KINDS[kind]!,
        ...(street && { real: street }),
      })
      town.owners.push(owner > 0 ? owners[owner - 1] : undefined)
    }
    out.push(town)
  }
  return out
}
