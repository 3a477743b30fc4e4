/** Largest DNS name, in ASCII (punycode) characters, without the trailing dot. */
const MAX_HOSTNAME_LENGTH = 253
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const IPV4_LIKE = /^[0-9.]+$/
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/**
 * The host of an `Origin` or `Referer` value, normalized for comparison; `null` when there is none.
 *
 * Lower case, IDN as punycode, trailing dot dropped, IPv6 in brackets; scheme, port, user info
 * and path ignored. `null` when the value does not parse as a URL with a host (`null`,
 * `file://`, junk).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { hostFromHeader } from 'tmaps-mock'
 *
 * assert.equal(hostFromHeader('https://App.MySite.tn.:8443/x'), 'app.mysite.tn')
 * assert.equal(hostFromHeader('null'), null) // the Origin of a sandboxed iframe
 * ```
 */
export function hostFromHeader(value: string): string | null {
  const hostname = URL.parse(value)?.hostname
  if (!hostname) return null
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
}

type DomainInputResult = { ok: true; hostname: string } | { ok: false; error: string }

/**
 * Longer input is refused before it is parsed (a hostname has at most 253 characters; room for a pasted URL).
 */
const MAX_INPUT_LENGTH = 2048
/** How much of the input an error message echoes. */
const ECHO_LENGTH = 80

/**
 * Validates what a person types into the console's "Add Domain" box and normalizes it.
 *
 * Accepts bare host names, `localhost`, IPv4 and IPv6 literals and IDN names; refuses
 * wildcards, schemes, paths, ports and bad labels, each with its own message.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { parseDomainInput } from 'tmaps-mock'
 *
 * assert.deepEqual(parseDomainInput('Müller.tn'), { ok: true, hostname: 'xn--mller-kva.tn' })
 * const wildcard = parseDomainInput('*.mysite.tn')
 * assert.ok(!wildcard.ok && wildcard.error.startsWith('wildcards are not supported'))
 * ```
 */
export function parseDomainInput(input: string): DomainInputResult {
  const fail = (why: string): DomainInputResult => ({ ok: false, error: why })
  if (typeof input !== 'string') return fail('the domain must be a string, such as "mysite.tn"')
  const raw = input.trim()
  if (raw === '') return fail('the domain is empty. Enter a bare hostname such as "mysite.tn"')
  if (raw.length > MAX_INPUT_LENGTH)
    return fail(`the domain is ${raw.length} characters long; a hostname has at most ${MAX_HOSTNAME_LENGTH}`)
  // What the person typed is echoed in the message, cut short.
  const cut = (text: string) => (text.length > ECHO_LENGTH ? `${text.slice(0, ECHO_LENGTH - 1)}…` : text)
  const shown = cut(raw)
  if (/\s/.test(raw)) return fail(`"${shown}" contains spaces. Enter one bare hostname such as "mysite.tn"`)
  if (raw.includes('*')) {
    return fail(
      `wildcards are not supported ("${shown}"). Add each subdomain separately, e.g. "app.mysite.tn" and "admin.mysite.tn"`,
    )
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)
  if (scheme) {
    return fail(
      `"${shown}" includes a scheme (${cut(scheme[1] ?? '')}://). Enter the bare hostname, e.g. "${cut(bareHint(raw))}"`,
    )
  }
  if (raw.includes('@')) return fail(`"${shown}" includes user info (@). Enter the bare hostname only`)
  const pathAt = raw.search(/[/?#\\]/)
  if (pathAt === 0)
    return fail(`"${shown}" is a path, not a hostname. Enter a bare hostname such as "mysite.tn"`)
  if (pathAt > 0) {
    return fail(
      `"${shown}" includes a path (${cut(raw.slice(pathAt))}). Enter the bare hostname "${cut(raw.slice(0, pathAt))}"`,
    )
  }

  // IPv6 literals, with or without brackets.
  const bracketed = /^\[(.*)\](?::(\d*))?$/.exec(raw)
  if (bracketed?.[2] !== undefined) {
    return fail(
      `"${shown}" includes a port (:${bracketed[2]}). Ports are ignored when matching; enter "[${bracketed[1]}]"`,
    )
  }
  const v6 = bracketed ? (bracketed[1] ?? '') : (raw.match(/:/g)?.length ?? 0) >= 2 ? raw : null
  if (v6 !== null) {
    const host = URL.canParse(`http://[${v6}]/`) ? new URL(`http://[${v6}]/`).hostname : null
    return host ? { ok: true, hostname: host } : fail(`"${shown}" is not a valid IPv6 address`)
  }

  const port = /^(.*):(\d*)$/.exec(raw)
  if (port) {
    return fail(
      `"${shown}" includes a port (:${port[2]}). Ports are ignored when matching; enter "${port[1]}"`,
    )
  }
  if (raw.includes(':')) return fail(`"${shown}" is not a valid hostname (unexpected ":")`)

  const withoutDot = raw.endsWith('.') ? raw.slice(0, -1) : raw
  if (IPV4_LIKE.test(withoutDot)) {
    return IPV4.test(withoutDot)
      ? { ok: true, hostname: withoutDot }
      : fail(`"${shown}" is not a valid IPv4 address (expected four numbers 0-255, e.g. "127.0.0.1")`)
  }
  if (!URL.canParse(`http://${withoutDot}/`)) return fail(`"${shown}" is not a valid hostname`)
  const ascii = new URL(`http://${withoutDot}/`).hostname
  if (ascii.length > MAX_HOSTNAME_LENGTH) {
    return fail(
      `the domain is ${ascii.length} characters long; a hostname has at most ${MAX_HOSTNAME_LENGTH}`,
    )
  }
  for (const label of ascii.split('.')) {
    if (label === '') return fail(`"${shown}" has an empty label (two dots in a row, or a leading dot)`)
    if (label.length > 63) return fail(`"${shown}" has a label longer than 63 characters`)
    if (!LABEL.test(label)) {
      return fail(
        `"${shown}" has an invalid label "${label}": use letters, digits and inner hyphens only (no "_", no leading or trailing "-")`,
      )
    }
  }
  return { ok: true, hostname: ascii }
}

function bareHint(raw: string): string {
  return URL.canParse(raw) ? new URL(raw).hostname || 'mysite.tn' : 'mysite.tn'
}
