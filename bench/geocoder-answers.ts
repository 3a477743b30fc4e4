/**
 * Are two builds' geocoding answers the same, byte for byte? (A faster or lighter
 * geocoder must answer exactly as before.) Asks each build the same ~12,300 questions per seed
 * (forward geocodes of every gazetteer place by its French and Arabic name, with a typo, as a
 * prefix, with `proximity`, `bbox` and `type`; addresses with house numbers on every fourth
 * street; reverse geocodes on a grid over the country and beside every ninth street; nearby
 * searches around every third locality), for the seeds tmaps, demo, 42 and property, and compares
 * the SHA-256 of every answer (status and body). About a minute per seed and build on a quiet host.
 *
 *   npm run build && cp -r dist /tmp/before   # the build before, then make the change
 *   npm run build && node bench/geocoder-answers.ts /tmp/before dist
 *
 * Each argument is a build's folder (`dist/` or a copy); `src` asks the sources. The questions
 * come from the sources' places and streets, so both builds get the same list. Prints each seed's
 * hash per build and the first answers that differ; exits 1 if any differ.
 */
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { worldFor } from '../src/data/world.ts'
import { geocoderParts } from '../src/endpoints/geocoding/geocoder.ts'

/** `ANSWER_SEEDS=tmaps,demo` asks fewer seeds. */
const SEEDS = process.env.ANSWER_SEEDS?.split(',') ?? ['tmaps', 'demo', '42', 'property']
const LANGS = ['fr', 'en', 'ar'] as const

/** A typo: two letters swapped (or one added to a short word). */
const typo = (s: string) => (s.length > 5 ? s.slice(0, 2) + s[3] + s[2] + s.slice(4) : `${s}e`)

/** The questions for a seed, as paths with their query (without the key). */
export function questions(seed: string): string[] {
  const places = geocoderParts(worldFor(seed), undefined).places()
  const streets = places.filter((p) => p.kind === 'street')
  const out: string[] = []
  let i = 0
  const lang = () => LANGS[i++ % 3]
  const forward = (q: string, extra = '') =>
    out.push(`/geocoding/forward?q=${encodeURIComponent(q)}&lang=${lang()}${extra}`)
  for (const p of places) {
    if (p.kind === 'street') continue
    forward(p.name.fr)
    if (p.name.ar !== p.name.fr) forward(p.name.ar)
    forward(typo(p.name.fr), '&limit=10')
    if (p.name.fr.length > 4) forward(p.name.fr.slice(0, Math.max(3, p.name.fr.length - 2)))
    if (i % 7 === 0) forward(`${p.name.fr}, Tunisie`, `&proximity=${p.lat},${p.lng}`)
    if (i % 11 === 0) forward(p.name.fr, `&bbox=${p.bbox.join(',')}&type=locality`)
  }
  streets.forEach((p, k) => {
    if (k % 4 !== 0) return
    forward(`${(k % 90) + 1} ${p.name.fr}, ${p.commune!.fr}`)
    if (k % 12 === 0) forward(`${p.name.ar} ${p.commune!.ar}`, '&type=street')
    if (k % 20 === 0) forward(typo(p.name.fr))
  })
  const common = ['Tunis', 'Sfax', 'Sousse', 'tunis', 'Avenue Habib Bourguiba', 'rue de la republique']
  for (const q of [
    ...common,
    'aeroport',
    'Djerba',
    'x',
    'zzzz',
    'Tunisie',
    '1001',
    '12 rue',
    'Hammamet plage',
  ])
    for (const l of LANGS) out.push(`/geocoding/forward?q=${encodeURIComponent(q)}&lang=${l}&limit=20`)
  for (let lat = 30.3; lat <= 37.4; lat += 0.25)
    for (let lng = 7.6; lng <= 11.6; lng += 0.25)
      out.push(`/geocoding/reverse?lat=${lat.toFixed(4)}&lng=${lng.toFixed(4)}&lang=${lang()}&limit=5`)
  streets.forEach((p, k) => {
    if (k % 9 === 0)
      out.push(`/geocoding/reverse?lat=${(p.lat + 0.0001).toFixed(6)}&lng=${p.lng.toFixed(6)}&lang=${lang()}`)
  })
  places
    .filter((p) => p.kind === 'locality')
    .forEach((p, k) => {
      if (k % 3 !== 0) return
      const radius = 500 + (k % 5) * 1000
      out.push(
        `/geocoding/nearby?lat=${p.lat}&lng=${p.lng}&radius=${radius}&lang=${lang()}${k % 2 ? '&limit=20' : ''}`,
      )
    })
  return out
}

/** Every answer's hash (status and body) from one build, in the order of `paths`. */
async function answers(build: string, seed: string, paths: string[]): Promise<string[]> {
  const entry =
    build === 'src'
      ? new URL('../src/core/create-core.ts', import.meta.url).href
      : pathToFileURL(resolve(build, 'core/create-core.js')).href
  const { createTmapsCore } = (await import(entry)) as typeof import('../src/core/create-core.ts')
  const core = createTmapsCore({ state: 'empty', seed })
  await core.ready
  const key = await core.console.createKey({ name: 'answers' })
  const hashes: string[] = []
  for (const path of paths) {
    const response = await core.fetch(new Request(`https://api.tmaps.tn${path}&api_key=${key.value}`))
    const body = new Uint8Array(await response.arrayBuffer())
    hashes.push(createHash('sha256').update(`${response.status} `).update(body).digest('hex'))
  }
  return hashes
}

if (import.meta.main) {
  const builds = process.argv.slice(2)
  if (builds.length === 0) throw new Error('usage: node bench/geocoder-answers.ts <build folder | src> ...')
  let differ = 0
  for (const seed of SEEDS) {
    const paths = questions(seed)
    const results: string[][] = []
    for (const build of builds) {
      const hashes = await answers(build, seed, paths)
      results.push(hashes)
      const all = createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 16)
      console.log(
        `seed ${seed}, ${build}: ${hashes.length} answers, ${new Set(hashes).size} distinct, all ${all}`,
      )
    }
    const changed = paths.filter((_, i) => results.some((r) => r[i] !== results[0]![i]))
    differ += changed.length
    for (const path of changed.slice(0, 5)) console.log(`  differs: ${path}`)
  }
  console.log(differ === 0 ? 'every answer identical' : `${differ} answers differ`)
  process.exitCode = differ === 0 ? 0 : 1
}
