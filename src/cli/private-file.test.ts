import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writePrivateFile } from './private-file.ts'

const folders: string[] = []
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'tmaps-private-'))
  folders.push(made)
  return made
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true })
})

describe('writePrivateFile', () => {
  it('writes a new file readable by its owner only, leaving no temporary file', () => {
    const dir = folder()
    writePrivateFile(join(dir, 'state.json'), '{"a":1}\n')
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe('{"a":1}\n')
    expect(statSync(join(dir, 'state.json')).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  it('replaces a symbolic link at the path with the file, never writing through it', () => {
    const dir = folder()
    writeFileSync(join(dir, 'target'), 'kept\n', { mode: 0o644 })
    symlinkSync(join(dir, 'target'), join(dir, 'link.json'))
    writePrivateFile(join(dir, 'link.json'), 'state\n')
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('kept\n')
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(false)
    expect(readFileSync(join(dir, 'link.json'), 'utf8')).toBe('state\n')
    expect(statSync(join(dir, 'link.json')).mode & 0o777).toBe(0o600)
  })

  it('throws what the file system said when the folder is gone, and writes nothing', () => {
    const dir = folder()
    rmSync(dir, { recursive: true })
    expect(() => writePrivateFile(join(dir, 'state.json'), 'x')).toThrow(/ENOENT/)
  })
})
