import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PathTarget } from './request-target.ts'

const parts = (t: { href: string; protocol: string; host: string; pathname: string; search: string }) => ({
  protocol: t.protocol,
  host: t.host,
  pathname: t.pathname,
  search: t.search,
})

describe('PathTarget: the server reads its request line as new URL would', () => {
  it.each([
    '/geocoding/forward?q=Avenue%20Habib%20Bourguiba%2C%20Tunis&limit=3&api_key=ak_0123',
    '/r-tile/12/2163/1597?api_key=ak_1',
    '/geocoding/forward',
    '/geocoding/forward?',
    '/a/../geocoding/forward?q=x',
    '/geocoding/./forward',
    '/geocoding/%2e%2e/forward',
    "/geocoding/forward?q=l'Ariana",
    '/geocoding/forward?q=a b',
    '/geocoding/forward?q=<b>&x="y"',
    '/geocoding/forward?q=Sfax#frag',
    '/geocoding\\forward?q=1',
    '/geocoding/forward?q=\u00e9',
    '/maps/static?center=36.8,10.18&markers=36.8,10.18|36.9,10.2&size=[1]{2}^',
  ])('%s', (path) => {
    const split = new PathTarget('https:', path)
    split.routedTo('api.tmaps.tn')
    const url = new URL(`https://api.tmaps.tn${path}`)
    expect(parts(split)).toEqual(parts(url))
    expect(new URL(split.href).href).toBe(url.href)
  })

  it('agrees with new URL on any printable request line', () => {
    const char = fc.constantFrom(...'abcXYZ019-._~!$&\'()*+,;=:@/?%#[]|^{}<>" \\`é'.split(''))
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const path = `/${chars.join('')}`
        const split = new PathTarget('http:', path)
        const before = { pathname: split.pathname, search: split.search }
        split.routedTo('localhost:8443')
        const url = new URL(`http://localhost:8443${path}`)
        expect(parts(split)).toEqual(parts(url))
        // Split before the host is named (the router reads the path first): the same parts.
        expect(before).toEqual({ pathname: url.pathname, search: url.search })
      }),
      { numRuns: 2000 },
    )
  })
})
