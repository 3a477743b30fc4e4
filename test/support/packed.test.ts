import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { removeDir } from './cleanup.ts'
import { Background } from './consumer-setup.ts'
import { packedTarball, preparedProject } from './packed.ts'

// How the consumer tests share the work the global setup does in the background
// (test/support/consumer-setup.ts): the packed tarball, and each project installed at most once.

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-packed-test-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir)
})

/** A run's folder in which the background has taken `name` on, and its install has not ended. */
const installing = (name: string) => {
  const packDir = tempDir()
  mkdirSync(join(packDir, 'projects', name), { recursive: true })
  mkdirSync(join(packDir, 'projects', `${name}.claim`))
  writeFileSync(join(packDir, 'projects', name, 'package.json'), '{"name":"cli"}\n')
  return packDir
}

describe("a consumer test's project", () => {
  it('is the one the background installed, moved into a folder of its own', async () => {
    const packDir = installing('cli')
    writeFileSync(join(packDir, 'projects', 'cli.ready'), '')
    const dir = await preparedProject('cli', packDir)
    dirs.push(dir ?? '')
    expect(dir).toBeDefined()
    expect(readFileSync(join(dir ?? '', 'package.json'), 'utf8')).toBe('{"name":"cli"}\n')
    expect(existsSync(join(packDir, 'projects', 'cli'))).toBe(false)
  })

  it('is made by the test itself when the background has not reached it (and the background then skips it)', async () => {
    const packDir = tempDir()
    mkdirSync(join(packDir, 'projects'))
    expect(await preparedProject('cli', packDir)).toBeUndefined()
    expect(existsSync(join(packDir, 'projects', 'cli.claim'))).toBe(true)
  })

  it("is made by the test itself when the background's install failed", async () => {
    const packDir = installing('cli')
    writeFileSync(join(packDir, 'projects', 'cli.failed'), 'npm error code E404')
    expect(await preparedProject('cli', packDir)).toBeUndefined()
  })

  it("is made by the test itself when the background's install outlasts the wait (a busy machine starves it)", async () => {
    const packDir = installing('cli')
    const started = performance.now()
    expect(await preparedProject('cli', packDir, 300)).toBeUndefined()
    expect(performance.now() - started).toBeGreaterThanOrEqual(300)
    // The background's folder is left to it: the test installs in a folder of its own.
    expect(existsSync(join(packDir, 'projects', 'cli', 'package.json'))).toBe(true)
  })

  it('is made by the test itself when no background ran (no projects folder)', async () => {
    expect(await preparedProject('cli', tempDir())).toBeUndefined()
  })
})

describe('the background', () => {
  it('packs the package, installs each project queued, and a test takes it ready', async () => {
    const [source, packDir] = [tempDir(), tempDir()]
    writeFileSync(join(source, 'package.json'), '{"name":"tmaps-mock","version":"0.0.0"}\n')
    await new Background().prepare(packDir, ['playground'], source)
    expect(await packedTarball(packDir)).toBe(join(packDir, 'tmaps-mock-0.0.0.tgz'))
    const dir = await preparedProject('playground', packDir)
    dirs.push(dir ?? '')
    expect(readFileSync(join(dir ?? '', 'node_modules/tmaps-mock/package.json'), 'utf8')).toContain('0.0.0')
  })

  it("says npm pack's error to every consumer test when the pack fails, and installs nothing", async () => {
    const [source, packDir] = [tempDir(), tempDir()]
    await new Background().prepare(packDir, ['playground'], source)
    expect(existsSync(join(packDir, 'projects'))).toBe(false)
    await expect(packedTarball(packDir)).rejects.toThrow(/^npm pack failed:\n[\s\S]*package\.json/)
  })
})
