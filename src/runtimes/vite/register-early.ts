/**
 * The name (`Symbol.for`) under which a page's early registration of msw's worker leaves its
 * promise: `start()` of the mock awaits it first, so that msw finds the worker in control.
 */
const REGISTRATION_KEY = 'tmaps-mock:registration'

/**
 * A classic script for the top of a page that registers msw's worker before any module is
 * fetched, so that the service worker installs while the page's modules download. Its promise
 * (`window[Symbol.for(REGISTRATION_KEY)]`) settles once a new worker controls the page, or has
 * failed to install, or at once when a worker already did: msw's `start()` reloads a page that
 * a registered worker does not control yet, so it must not run before.
 * @example `<script>${registerEarly('/mockServiceWorker.js')}</script>`
 */
export function registerEarly(url: string): string {
  return `{const c=navigator.serviceWorker;if(c){const p=c.register(${JSON.stringify(url)}).then((r)=>c.controller||!r.installing?undefined:new Promise((done)=>{c.addEventListener('controllerchange',done,{once:true});r.installing.addEventListener('statechange',(e)=>{if(e.target.state==='redundant')done()})}));p.catch(()=>{});window[Symbol.for(${JSON.stringify(REGISTRATION_KEY)})]=p}}`
}

/**
 * The page's early registration of msw's worker (see `registerEarly`), or `undefined` when the
 * page has none: await it before the mock's `start()`.
 * @example await earlyRegistration(); await tmaps.start()
 */
export function earlyRegistration(): Promise<unknown> | undefined {
  return (globalThis as Record<symbol, Promise<unknown> | undefined>)[Symbol.for(REGISTRATION_KEY)]
}
