import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { cleanUp, endProcessGroup, liveMembers, removeDir } from './cleanup.ts'

it('runs every clean-up step and never throws, whatever one step does', async () => {
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  const ran: string[] = []
  const started = performance.now()
  await cleanUp(
    {
      throws: () => {
        ran.push('throws')
        throw new Error('already closed')
      },
      rejects: async () => {
        ran.push('rejects')
        throw new Error('socket hang up')
      },
      hangs: () => {
        ran.push('hangs')
        return new Promise(() => undefined)
      },
      last: () => void ran.push('last'),
    },
    { stepMs: 200 },
  )
  expect(ran).toEqual(['throws', 'rejects', 'hangs', 'last'])
  expect(performance.now() - started).toBeLessThan(5000)
  expect(stderr.mock.calls.map(([text]) => String(text))).toEqual([
    'clean-up (not a test failure): throws: already closed\n',
    'clean-up (not a test failure): rejects: socket hang up\n',
    'clean-up (not a test failure): hangs: still running after 0.2 s, left to finish on its own\n',
  ])
  stderr.mockRestore()
})

it('frees a folder’s path at once and removes the folder in the background, twice without harm', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-cleanup-'))
  for (let i = 0; i < 200; i++) {
    mkdirSync(join(dir, `d${i}`))
    writeFileSync(join(dir, `d${i}`, 'f.txt'), 'x')
  }
  removeDir(dir)
  expect(existsSync(dir)).toBe(false)
  removeDir(dir)
  // The detached rm takes its time on a busy machine: the test only needs it to happen.
  await vi.waitFor(
    () => expect(readdirSync(tmpdir()).filter((name) => name.startsWith(basename(dir)))).toEqual([]),
    { timeout: 30_000, interval: 100 },
  )
})

it('ends a child and the processes it started', async () => {
  const child = spawn('sh', ['-c', 'sleep 60 & sleep 60; wait'], { detached: true, stdio: 'ignore' })
  await new Promise((resolve) => child.once('spawn', resolve))
  expect(liveMembers(child.pid!)).toBe(3) // sh and its two sleeps
  await endProcessGroup(child)
  expect(liveMembers(child.pid!)).toBe(0)
  await endProcessGroup(child) // idempotent
})
