/**
 * Characters that change what a terminal or a page shows rather than being shown: C0 and C1
 * controls (ESC starts the sequences that clear a screen or set a window title; a newline forges
 * a line) and the bidirectional overrides and isolates (they reorder text on screen).
 */
const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u
const CONTROL_ALL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu

/**
 * True when `text` holds a control character (see above): a key name must not.
 * @example hasControlCharacters('Web\u001b[2J') // true
 */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text)
}

/**
 * `text` with each control character written as a visible escape (`\u001b`), for a terminal.
 * @example escapeControlCharacters('a\u001b[2Jb') // 'a\\u001b[2Jb'
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
