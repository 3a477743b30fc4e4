import { readFileSync } from 'node:fs'

/** This package's version (a recording's `_tmaps.mockVersion`, a verify report's `version`). */
export function packageVersion(): string {
  try {
    const file = new URL('../../package.json', import.meta.url)
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
  } catch {
    return 'unknown'
  }
}
