import type { FactsResolver } from '../msw/handlers.ts'
import { type CallerPreset, parseCallerPreset, reconstructHeaders, simulatedHeaders } from './reconstruct.ts'

/** The request header that simulates a caller for one request (`CALLER_HEADER` of `tmaps-mock/browser`). */
export const CALLER_HEADER_NAME = 'X-TMaps-Caller'

/**
 * The contract facts of a request seen in the page's service worker: the `Origin` and `Referer`
 * a browser would send, rebuilt from the page's location and the request (marked reconstructed),
 * or those of a simulated caller (`caller()`, or the request's own `X-TMaps-Caller` header).
 */
export function pageFacts(caller: () => CallerPreset | null): FactsResolver {
  return (request) => {
    const page = { origin: location.origin, href: location.href }
    let preset = caller()
    const header = request.headers.get(CALLER_HEADER_NAME)
    if (header !== null) {
      try {
        preset = parseCallerPreset(header)
      } catch (error) {
        console.error(`tmaps-mock: ${(error as Error).message} The request is answered as observed.`)
      }
    }
    const simulated = preset ? simulatedHeaders(preset, page, request.url) : undefined
    if (simulated) return { ...simulated, simulated: true }
    return { ...reconstructHeaders(request, page), reconstructed: true }
  }
}
