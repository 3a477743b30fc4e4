import { describe, expect, it } from 'vitest'
import {
  type CallerPreset,
  parseCallerPreset,
  reconstructHeaders,
  refererFor,
  simulatedHeaders,
  type VisibleRequest,
} from './reconstruct.ts'

const PAGE = { origin: 'http://localhost:5173', href: 'http://localhost:5173/maps/index.html?city=Sfax#map' }
const API = 'https://api.tmaps.tn/geocoding/forward?q=Tunis&api_key=ak_x'
const TILE = 'https://tiles.tmaps.tn/r-tile/6/33/24?api_key=ak_x'
const fetchFrom = (over: Partial<VisibleRequest> = {}): VisibleRequest => ({
  url: API,
  method: 'GET',
  mode: 'cors',
  destination: '',
  referrer: 'about:client',
  referrerPolicy: '',
  ...over,
})
const imgFrom = (over: Partial<VisibleRequest> = {}) =>
  fetchFrom({ url: TILE, mode: 'no-cors', destination: 'image', ...over })

describe('reconstructHeaders', () => {
  it.each<[string, VisibleRequest, { origin: string | null; referer: string | null }]>([
    [
      'a cross-origin fetch carries the page Origin and its origin as Referer',
      fetchFrom(),
      { origin: PAGE.origin, referer: 'http://localhost:5173/' },
    ],
    [
      'a POST fetch the same',
      fetchFrom({ method: 'POST' }),
      { origin: PAGE.origin, referer: 'http://localhost:5173/' },
    ],
    [
      'a fetch under no-referrer still carries Origin (every CORS request does)',
      fetchFrom({ referrer: '', referrerPolicy: 'no-referrer' }),
      { origin: PAGE.origin, referer: null },
    ],
    [
      'a fetch under unsafe-url sends the full page URL, without the fragment',
      fetchFrom({ referrerPolicy: 'unsafe-url' }),
      { origin: PAGE.origin, referer: 'http://localhost:5173/maps/index.html?city=Sfax' },
    ],
    [
      'an <img> tile carries only a Referer trimmed to the origin',
      imgFrom(),
      { origin: null, referer: 'http://localhost:5173/' },
    ],
    [
      'an <img> under no-referrer carries nothing (like a server-side caller)',
      imgFrom({ referrer: '', referrerPolicy: 'no-referrer' }),
      { origin: null, referer: null },
    ],
    [
      'an <img> under origin sends the origin',
      imgFrom({ referrerPolicy: 'origin' }),
      { origin: null, referer: 'http://localhost:5173/' },
    ],
    [
      'an <img> under same-origin sends nothing cross-origin',
      imgFrom({ referrerPolicy: 'same-origin' }),
      { origin: null, referer: null },
    ],
    [
      'an <img> under origin-when-cross-origin sends the origin',
      imgFrom({ referrerPolicy: 'origin-when-cross-origin' }),
      { origin: null, referer: 'http://localhost:5173/' },
    ],
    [
      'an <img> under no-referrer-when-downgrade sends the full URL (http page, https target)',
      imgFrom({ referrerPolicy: 'no-referrer-when-downgrade' }),
      { origin: null, referer: 'http://localhost:5173/maps/index.html?city=Sfax' },
    ],
    [
      'an <img> under strict-origin sends the origin',
      imgFrom({ referrerPolicy: 'strict-origin' }),
      { origin: null, referer: 'http://localhost:5173/' },
    ],
    [
      'a referrer the worker already trimmed stays as it is',
      imgFrom({ referrer: 'http://localhost:5173/' }),
      { origin: null, referer: 'http://localhost:5173/' },
    ],
    [
      'a no-cors POST (a form) carries Origin',
      imgFrom({ method: 'POST', url: API }),
      { origin: PAGE.origin, referer: 'http://localhost:5173/' },
    ],
    [
      'a no-cors POST under no-referrer carries Origin: null',
      imgFrom({ method: 'POST', url: API, referrer: '', referrerPolicy: 'no-referrer' }),
      { origin: 'null', referer: null },
    ],
  ])('%s', (_, request, expected) => {
    expect(reconstructHeaders(request, PAGE)).toEqual(expected)
  })

  it('sends Origin: null and no Referer from a sandboxed iframe or a file:// page', () => {
    expect(reconstructHeaders(fetchFrom(), { origin: 'null', href: 'about:srcdoc' })).toEqual({
      origin: 'null',
      referer: null,
    })
    expect(reconstructHeaders(fetchFrom(), { origin: 'null', href: 'file:///home/me/map.html' })).toEqual({
      origin: 'null',
      referer: null,
    })
  })

  it('sends no Origin for a same-origin GET, and the full URL as Referer', () => {
    const page = { origin: 'https://api.tmaps.tn', href: 'https://api.tmaps.tn/docs?x=1' }
    expect(reconstructHeaders(fetchFrom(), page)).toEqual({
      origin: null,
      referer: 'https://api.tmaps.tn/docs?x=1',
    })
  })

  it('sends no Referer from an https page to an http target under the default policy', () => {
    const page = { origin: 'https://app.example.tn', href: 'https://app.example.tn/' }
    expect(reconstructHeaders(imgFrom({ url: 'http://tiles.tmaps.tn/r-tile/1/0/0' }), page)).toEqual({
      origin: null,
      referer: null,
    })
  })

  it('never leaks credentials of the page URL', () => {
    expect(refererFor('http://me:secret@localhost:5173/a', 'http://localhost:5173/b', 'unsafe-url')).toBe(
      'http://localhost:5173/a',
    )
  })
})

describe('simulatedHeaders', () => {
  it.each<[CallerPreset, { origin: string | null; referer: string | null } | undefined]>([
    [{ kind: 'page' }, undefined],
    [{ kind: 'tile' }, { origin: null, referer: 'http://localhost:5173/' }],
    [{ kind: 'no-referrer' }, { origin: null, referer: null }],
    [{ kind: 'sandboxed' }, { origin: 'null', referer: null }],
    [
      { kind: 'site', origin: 'https://shop.example.tn/path' },
      { origin: 'https://shop.example.tn', referer: 'https://shop.example.tn/' },
    ],
    [{ kind: 'server' }, { origin: null, referer: null }],
  ])('%j', (caller, expected) => {
    expect(simulatedHeaders(caller, PAGE, API)).toEqual(expected)
  })

  it('refuses a site that is not an http(s) origin, saying how to fix it', () => {
    expect(() => simulatedHeaders({ kind: 'site', origin: 'evil' }, PAGE, API)).toThrow(
      /"evil" is not an http\(s\) origin\. Pass one like "https:\/\/shop\.example\.tn"/,
    )
  })

  it('reads presets from JSON and explains bad ones', () => {
    expect(parseCallerPreset('{"kind":"server"}')).toEqual({ kind: 'server' })
    expect(() => parseCallerPreset('server')).toThrow(/not JSON/)
    expect(() => parseCallerPreset('{"kind":"robot"}')).toThrow(/kind must be one of page, tile/)
    expect(() => parseCallerPreset('{"kind":"site"}')).toThrow(/needs an "origin"/)
  })
})
