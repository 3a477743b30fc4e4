/**
 * The documented key format: `ak_` followed by 32 lower-case hexadecimal characters.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { KEY_PATTERN } from 'tmaps-mock'
 *
 * assert.match(`ak_${'0123456789abcdef'.repeat(2)}`, KEY_PATTERN) // ak_ + 32 hex
 * assert.doesNotMatch('ak_a1b2c3d4e5f607xxxXXXxXXxxXX', KEY_PATTERN) // the docs' placeholder
 * ```
 */
export const KEY_PATTERN = /^ak_[0-9a-f]{32}$/

/** How many characters of a key the console shows as its prefix (`ak_` plus 4 hex). */
const KEY_PREFIX_LENGTH = 7

/**
 * Tells whether a value has the exact TMaps key format (`ak_` + 32 lower-case hex).
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { isKeyValue } from 'tmaps-mock'
 *
 * assert.equal(isKeyValue(`ak_${'0'.repeat(32)}`), true)
 * assert.equal(isKeyValue(`AK_${'0'.repeat(32)}`), false) // lower case only
 * ```
 */
export function isKeyValue(value: string): boolean {
  return KEY_PATTERN.test(value)
}

/**
 * The console's prefix of a key: its first 7 characters, e.g. `ak_1a2b`.
 * @example keyPrefix('ak_1a2b' + '0'.repeat(28)) // 'ak_1a2b'
 */
export function keyPrefix(value: string): string {
  return value.slice(0, KEY_PREFIX_LENGTH)
}

/**
 * Masks any value that may be a key, for logs and errors: `ak_1a2b…`.
 *
 * Never returns more than 7 characters of the input, so a full key (or a secret pasted by
 * mistake) never leaks.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { maskKey } from 'tmaps-mock'
 *
 * assert.equal(maskKey(`ak_1a2b${'0'.repeat(28)}`), 'ak_1a2b…')
 * ```
 */
export function maskKey(value: string): string {
  if (value.length === 0) return ''
  // Short junk is shown only partly too: half of it, at most 7 characters.
  const shown = value.length > KEY_PREFIX_LENGTH ? KEY_PREFIX_LENGTH : Math.floor(value.length / 2)
  return `${value.slice(0, shown)}…`
}

/**
 * Anything shaped like a key, anywhere in a text, in any case (`AK_…`, inside a URL, after a
 * space), with `_` or `-` (`ak-…`, a typo a log must not print whole), also percent-encoded in
 * part or whole, once or twice (`%61k_…`, `ak%5F…`, `%2561%256b…`): a server decodes those.
 */
const KEY_LIKE =
  /(?:a|%(?:25)?[46]1)(?:k|%(?:25)?[46]b)(?:[_-]|%(?:25)?(?:5f|2d))(?:[0-9a-z_]|%(?:25)?[0-9a-f]{2}){8,}/gi
const ESCAPED = /%(?:25)?[0-9a-f]{2}/gi

/**
 * Masks every key-shaped run in a text (`ak_` and 8 or more letters or digits, in any case, plain or
 * percent-encoded), for whatever is logged or thrown: a Referer that carries `?api_key=ak_…`, a mis-typed key
 * echoed in an error.
 * @example maskSecrets('https://x.tn/?api_key=AK_1A2B' + '0'.repeat(28)) // 'https://x.tn/?api_key=AK_1A2B…'
 */
export function maskSecrets(text: string): string {
  // Masked as decoded: what is left shows at most the key's 7-character prefix.
  return text.replace(KEY_LIKE, (key) =>
    maskKey(
      key.includes('%')
        ? key.replace(ESCAPED, (e) => String.fromCharCode(Number.parseInt(e.slice(-2), 16)))
        : key,
    ),
  )
}

/**
 * A cheap test before `maskSecrets`: false when `text` cannot hold a key (no `_` or `-`, plain or escaped).
 */
export function mayHoldKey(text: string): boolean {
  return text.includes('_') || text.includes('%') || text.includes('-')
}
