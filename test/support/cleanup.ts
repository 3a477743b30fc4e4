import { execFileSync, spawn } from 'node:child_process'
import { existsSync, renameSync, rmSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

/** How long one clean-up step may take before the suite goes on without it. */
const STEP_MS = 15_000

/**
 * Runs the clean-up steps of a test file (close a browser, stop a server, remove a folder) one
 * after the other, each bounded in time, and never throws: a step that fails or takes more than
 * `stepMs` is reported on stderr and the next one runs. Clean-up belongs to the machine, not to
 * the behaviour under test, so a slow or busy machine never turns a passing suite red. Each step
 * must be idempotent (closing twice, removing a folder that is gone).
 * @example
 * afterAll(() =>
 *   cleanUp({ 'close the browser': () => browser?.close(), 'remove the project': () => project?.remove() }),
 * )
 */
export async function cleanUp(
  steps: Record<string, () => unknown>,
  { stepMs = STEP_MS }: { stepMs?: number } = {},
): Promise<void> {
  for (const [name, step] of Object.entries(steps)) {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), stepMs)
    })
    try {
      const outcome = await Promise.race([Promise.resolve().then(step), late])
      if (outcome === 'late')
        warn(`${name}: still running after ${stepMs / 1000} s, left to finish on its own`)
    } catch (error) {
      warn(`${name}: ${(error as Error)?.message ?? String(error)}`)
    } finally {
      clearTimeout(timer)
    }
  }
}

/**
 * Removes a folder without making the caller wait for it: the folder is renamed aside at once
 * (so the path is free and nothing reads a half-removed project), then a detached `rm -rf`
 * deletes it, and outlives the test process if need be. Idempotent. A consumer project's
 * node_modules holds tens of thousands of files: a synchronous removal takes seconds on a busy
 * machine and used to exceed the hook's time limit.
 * @example removeDir(project.dir)
 */
export function removeDir(dir: string): void {
  if (!existsSync(dir)) return
  const aside = `${dir}.removing-${process.pid}-${Date.now()}`
  try {
    renameSync(dir, aside)
  } catch {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    return
  }
  const rm = spawn('rm', ['-rf', aside], { detached: true, stdio: 'ignore' })
  rm.on('error', () => rmSync(aside, { recursive: true, force: true }))
  rm.unref()
}

/**
 * Ends a child and everything it started (`npx` runs the command as its own child): SIGTERM to
 * its process group, then SIGKILL to the group if any of it is still alive after `graceMs`.
 * Idempotent.
 * @example await endProcessGroup(child)
 */
export async function endProcessGroup(child: { pid?: number | undefined }, graceMs = 3000): Promise<void> {
  const group = child.pid
  if (!group || !signalGroup(group, 0)) return
  signalGroup(group, 'SIGTERM')
  for (let waited = 0; waited < graceMs && liveMembers(group) > 0; waited += 50) await sleep(50)
  if (liveMembers(group) > 0) signalGroup(group, 'SIGKILL')
}

/** Sends `signal` to a process group; false when the group is gone. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal)
    return true
  } catch {
    return false
  }
}

/** The processes of a group that still run (zombies left for a parent to reap do not count). */
export function liveMembers(group: number): number {
  try {
    const out = execFileSync('ps', ['-e', '-o', 'pgid=,stat='], { encoding: 'utf8' })
    return out.split('\n').filter((line) => {
      const [pgid, stat] = line.trim().split(/\s+/)
      return Number(pgid) === group && stat !== undefined && !stat.startsWith('Z')
    }).length
  } catch {
    return signalGroup(group, 0) ? 1 : 0
  }
}

function warn(message: string): void {
  process.stderr.write(`clean-up (not a test failure): ${message}\n`)
}
