import type { TmapsSnapshot } from '../src/store/snapshot.ts'
import type { PlaygroundMock } from './server-console.ts'

/**
 * localhost and 127.0.0.1 are two origins with two consoles. One click copies the other's state
 * here: this page opens the other one with `?send-state-to=<this origin>`, which posts its
 * snapshot back to its opener and closes. Only the twin origin (same scheme and port, the other
 * loopback name) is ever sent anything or listened to: a website that opens the page with its
 * own origin in the parameter gets nothing.
 */
const PARAM = 'send-state-to'
const TYPE = 'tmaps-mock/state'

/** The other local name of this page: localhost and 127.0.0.1 are two origins to a browser. */
export function twinOrigin(at: Location = location): string | null {
  const { hostname, port, protocol } = at
  const other = hostname === 'localhost' ? '127.0.0.1' : hostname === '127.0.0.1' ? 'localhost' : null
  return other && `${protocol}//${other}${port ? `:${port}` : ''}`
}

/** On a page opened to send its state: sends it to the twin that asked, then closes. */
export function sendStateIfAsked(tmaps: PlaygroundMock): void {
  const asked = new URLSearchParams(location.search).get(PARAM)
  const twin = twinOrigin()
  if (asked === null || asked !== twin || !window.opener) return
  ;(window.opener as Window).postMessage({ type: TYPE, snapshot: tmaps.snapshot() }, twin)
  window.close()
}

/** Opens the twin page, waits for its snapshot (at most 20 s), and restores it here. */
export function importTwinState(tmaps: PlaygroundMock): Promise<void> {
  const twin = twinOrigin()
  if (!twin) return Promise.reject(new Error('this page is on neither localhost nor 127.0.0.1'))
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      window.removeEventListener('message', onMessage)
      clearTimeout(timer)
      if (error) reject(error)
      else resolve()
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== twin || event.data?.type !== TYPE) return
      tmaps.restore(event.data.snapshot as TmapsSnapshot).then(() => done(), done)
    }
    window.addEventListener('message', onMessage)
    const timer = setTimeout(
      () => done(new Error(`no state came from ${twin}: allow the pop-up, then try again`)),
      20_000,
    )
    const popup = window.open(`${twin}/?${PARAM}=${encodeURIComponent(location.origin)}`, '_blank', 'popup')
    if (!popup) done(new Error(`the browser blocked the pop-up of ${twin}: allow it, then try again`))
  })
}
