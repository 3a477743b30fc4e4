import { describe, expect, it } from 'vitest'
import { hostFromHeader, parseDomainInput } from './hostname.ts'

describe('hostFromHeader', () => {
  it.each([
    ['https://mysite.tn', 'mysite.tn'],
    ['https://MySite.TN', 'mysite.tn'],
    ['http://localhost:5173', 'localhost'],
    ['https://mysite.tn.', 'mysite.tn'],
    ['https://mysite.tn.:8443/path?q=1#x', 'mysite.tn'],
    ['https://müller.tn', 'xn--mller-kva.tn'],
    ['https://xn--mller-kva.tn', 'xn--mller-kva.tn'],
    ['http://[::1]:5173', '[::1]'],
    ['http://[0:0:0:0:0:0:0:1]', '[::1]'],
    ['http://127.0.0.1:8080', '127.0.0.1'],
    ['https://user:pass@mysite.tn/', 'mysite.tn'],
    ['null', null],
    ['', null],
    ['file:///home/me/index.html', null],
    ['mysite.tn', null],
    ['//mysite.tn', null],
    ['data:text/html,hi', null],
  ])('%j -> %j', (value, host) => {
    expect(hostFromHeader(value)).toBe(host)
  })
})

describe('parseDomainInput', () => {
  it.each([
    ['mysite.tn', 'mysite.tn'],
    ['app.mysite.tn', 'app.mysite.tn'],
    ['localhost', 'localhost'],
    ['  LocalHost  ', 'localhost'],
    ['mysite.tn.', 'mysite.tn'],
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '[::1]'],
    ['[::1]', '[::1]'],
    ['[2001:DB8::1]', '[2001:db8::1]'],
    ['müller.tn', 'xn--mller-kva.tn'],
    ['تونس.tn', 'xn--pgbs0dh.tn'],
    ['a-b.c-d.tn', 'a-b.c-d.tn'],
  ])('accepts %j as %j', (input, hostname) => {
    expect(parseDomainInput(input)).toEqual({ ok: true, hostname })
  })

  it.each([
    ['*.mysite.tn', /wildcards are not supported.*each subdomain/],
    ['https://mysite.tn', /includes a scheme \(https:\/\/\).*"mysite\.tn"/],
    ['mysite.tn/dashboard', /includes a path \(\/dashboard\).*"mysite\.tn"/],
    ['mysite.tn?x=1', /includes a path/],
    ['mysite.tn:8080', /includes a port \(:8080\)/],
    ['[::1]:5173', /includes a port/],
    ['my site.tn', /contains spaces/],
    ['', /empty/],
    ['   ', /empty/],
    [
      `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.tn`,
      /at most 253/,
    ],
    [`${'a'.repeat(64)}.tn`, /longer than 63/],
    ['-bad.tn', /invalid label "-bad"/],
    ['bad-.tn', /invalid label/],
    ['under_score.tn', /invalid label/],
    ['a..b.tn', /empty label/],
    ['.mysite.tn', /empty label/],
    ['user@mysite.tn', /user info/],
    ['256.1.1.1', /not a valid IPv4/],
    ['1.2.3', /not a valid IPv4/],
    ['::zz', /not a valid IPv6/],
    ['/dashboard', /is a path/],
  ])('rejects %j', (input, message) => {
    const result = parseDomainInput(input)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(message)
  })
})
