import { expect, it } from 'vitest'
import {
  type AddFinding,
  createValidator,
  exchangeAgainstSpec,
  readOpenApi,
  requestAgainstSpec,
} from './spec-check.ts'

const doc = readOpenApi()
const validate = await createValidator(doc)
const findingsOf = (method: string, url: string, body?: unknown) => {
  const found: string[] = []
  const add: AddFinding = (severity, path, message) => found.push(`${severity} ${path}: ${message}`)
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  requestAgainstSpec(add, doc, validate, method, new URL(url, 'https://api.tmaps.tn'), text)
  return found
}

it('passes the docs’ own requests: numbers in the query, a JSON body, a tile, api_key aside', () => {
  expect(findingsOf('GET', '/geocoding/reverse?lat=36.8002&lng=10.1815&lang=en&api_key={{api_key}}')).toEqual(
    [],
  )
  expect(findingsOf('GET', '/geocoding/forward?q=Sfax&limit=3')).toEqual([])
  expect(findingsOf('GET', '/r-tile/12/2163/1597')).toEqual([])
  expect(
    findingsOf('POST', '/routing/isochrone', { origin: { lat: 36.8, lng: 10.18 }, contours: [{ time: 15 }] }),
  ).toEqual([])
})

it('finds a parameter that is not a number, out of its bounds, missing, and a body that breaks its schema', () => {
  expect(findingsOf('GET', '/geocoding/reverse?lat=north&lng=10.18')).toEqual([
    'error query.lat: The request\'s query.lat is "north", not a number.',
  ])
  expect(findingsOf('GET', '/geocoding/reverse?lat=100&lng=10.18')[0]).toMatch(
    /query\.lat: The request's query\.lat \("100"\) breaks the spec: must be <= 90/,
  )
  expect(findingsOf('GET', '/geocoding/reverse?lng=10.18')).toEqual([
    'error query.lat: The request lacks query.lat, which the spec requires.',
  ])
  expect(
    findingsOf('POST', '/routing/isochrone', {
      origin: { lat: '36.8', lng: 10.18 },
      contours: [{ time: 15 }],
    }),
  ).toEqual(["error body.origin.lat: The request's body.origin.lat breaks the spec: must be number."])
  expect(findingsOf('POST', '/routing/isochrone', '{"origin": ')).toEqual([
    'error body: The request body is not JSON, though the spec says application/json.',
  ])
  expect(findingsOf('GET', '/geocoding/everything')).toEqual([
    'error request: GET /geocoding/everything is not an operation of the spec.',
  ])
})

it('checks an exchange whole: the request, then the answer (an HTML page with 200), each said once', () => {
  const html = new TextEncoder().encode('<html>Maintenance</html>')
  const findings = exchangeAgainstSpec(doc, validate, {
    method: 'GET',
    url: new URL('https://api.tmaps.tn/geocoding/reverse?lat=north&lng=10.18'),
    body: undefined,
    answer: { status: 200, contentType: 'text/html', headers: {}, bytes: html },
  })
  expect(findings.map((f) => f.path)).toEqual(['query.lat', 'body'])
  expect(findings[1]?.message).toBe("TMaps's answer is not JSON though the spec says application/json.")
})
