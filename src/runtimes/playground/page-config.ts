/**
 * What serves the built playground tells the page: its initial state and data seed (`tmaps-mock
 * playground --state --seed`), and, as the Vite plugin's console of an app, the app's storage
 * name and key, so that the console drives the app's own state. Written into the page's
 * `index.html` as a classic script before the page's modules (`configScript`); the page reads it
 * (`playgroundConfig`). No Node module here: the page imports it too.
 */
import type { TmapsSnapshot } from '../../store/snapshot.ts'

/** The page's configuration; each field left out keeps the playground's default (the demo console). */
export interface PlaygroundConfig {
  state?: 'demo' | 'empty' | TmapsSnapshot | string
  seed?: string | number
  /** The `localStorage` name to keep the console under: an app's, to share its state. */
  persist?: string
  /** Keys that are part of the initial state whatever `state` is (an app's own key). */
  keys?: Array<{ name: string; value: string; domains: string[] }>
  /**
   * Who serves the page: `playground` (default), `vite` (an app's console, over the app's state)
   * or `serve` (the console of `tmaps-mock serve`: the page drives that server through its
   * control API, and its mock runs there, not in the page).
   */
  servedBy?: 'playground' | 'vite' | 'serve'
  /** `serve`'s local CA, for the page's curl lines (`--cacert`). */
  caPath?: string
}

/** The global the script sets (a `Symbol.for` name: nothing else on the page can collide with it). */
const GLOBAL = 'tmaps-mock:playground-config'

/**
 * The classic script that hands `config` to the page, safe inside an HTML `<script>` element
 * (`<` escaped, so no `</script>` in a key name or domain ends it early).
 * @example
 * configScript({ state: 'empty' }) // 'window[Symbol.for("tmaps-mock:playground-config")]={"state":"empty"}'
 */
export function configScript(config: PlaygroundConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c')
  return `window[Symbol.for(${JSON.stringify(GLOBAL)})]=${json}`
}

/** The configuration the page was given, or `{}` (the repository's `npm start`, a plain build). */
export function playgroundConfig(): PlaygroundConfig {
  return (globalThis as Record<symbol, PlaygroundConfig | undefined>)[Symbol.for(GLOBAL)] ?? {}
}

/**
 * The `localStorage` name the page keeps its console under: one per configuration, so a page
 * started with another `--state` or `--seed` on the same origin starts from that state, and the
 * default page keeps the name it always had (`tmaps-mock/playground`).
 * @example storageName({}) // 'tmaps-mock/playground'
 */
export function storageName(config: PlaygroundConfig): string {
  if (config.persist !== undefined) return config.persist
  if (config.state === undefined && config.seed === undefined) return 'tmaps-mock/playground'
  const text = JSON.stringify([config.state ?? 'demo', config.seed ?? null])
  let hash = 0x811c9dc5 // FNV-1a, 32 bits: a name, not a secret
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return `tmaps-mock/playground/${(hash >>> 0).toString(16).padStart(8, '0')}`
}
