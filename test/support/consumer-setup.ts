import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { removeDir } from './cleanup.ts'
import { CONSUMER_PROJECTS, type ConsumerProjectName, consumerPackageJson } from './consumer-projects.ts'
import { claim, consumerEnv, INSTALL_ARGS, root } from './packed.ts'

/**
 * The consumer tests' global setup. It makes the run's folder (`packDir`) and, in the background,
 * packs the tarball (at the tests' own priority) and installs the projects of the test files
 * queued, one at a time at a low priority: Vitest calls it at the start of the run, so the packing
 * and the installs (a quarter of the consumer tests' time, mostly disk) overlap the unit and e2e
 * tests. A test file takes its project ready, waits for it if its install is under way, or
 * installs it itself if the background has not reached it (test/support/packed.ts,
 * `consumerProject`).
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-pack-'))
  project.provide('packDir', dir)
  const files = new Set((await queuedFiles(project)).map((file) => file.split('/').pop()))
  const names = (Object.keys(CONSUMER_PROJECTS) as ConsumerProjectName[])
    .filter((name) => files.has(CONSUMER_PROJECTS[name].file))
    // In the order the files run: Vitest runs the larger test files first when it has no timings.
    .sort((a, b) => size(CONSUMER_PROJECTS[b].file) - size(CONSUMER_PROJECTS[a].file))
  const background = new Background()
  const done = background.prepare(dir, names)
  return async () => {
    background.stop()
    await done
    removeDir(dir)
  }
}

/** The consumer test files this run will run (all of them, or those the command line names). */
async function queuedFiles(project: TestProject): Promise<string[]> {
  // Vitest keeps the command line's file filters there (not a public field: without it, every file).
  const filters = (project.vitest as { filenamePattern?: string[] }).filenamePattern
  return (await project.globTestFiles(filters)).testFiles
}

const size = (file: string) => statSync(join(root, 'test/consumer', file)).size

/** The background jobs: one child process at a time, stopped at the end of the run. */
export class Background {
  #child: ReturnType<typeof spawn> | undefined
  #stopped = false

  /** Packs the package in `source` (this repository) into `dir`, then installs `names` beside it. */
  async prepare(dir: string, names: ConsumerProjectName[], source = root): Promise<void> {
    if (!claim(join(dir, 'lock'))) return
    // The tarball at the tests' own priority: every consumer file waits for it.
    const packed = await this.#run(['npm', 'pack', '--pack-destination', dir], source, false)
    writeFileSync(join(dir, packed.ok ? 'done' : 'failed'), packed.output)
    if (!packed.ok) return
    // npm pack prints the tarball's file name last on its standard output.
    const tarball = join(dir, packed.stdout.trim().split('\n').pop() ?? '')
    const projects = join(dir, 'projects')
    mkdirSync(projects)
    for (const name of names) {
      if (this.#stopped || !claim(join(projects, `${name}.claim`))) continue
      mkdirSync(join(projects, name))
      writeFileSync(join(projects, name, 'package.json'), consumerPackageJson(name, tarball))
      const installed = await this.#run(['npm', ...INSTALL_ARGS], join(projects, name), true)
      writeFileSync(join(projects, `${name}.${installed.ok ? 'ready' : 'failed'}`), installed.output)
    }
  }

  stop(): void {
    this.#stopped = true
    this.#child?.kill()
  }

  /**
   * Runs a command, at a low priority (`nice`) when `low`: the tests beside it come first (a test
   * waits a minute at most for an install before making its own: a busy machine starves `nice`).
   */
  #run(
    command: string[],
    cwd: string,
    low: boolean,
  ): Promise<{ ok: boolean; output: string; stdout: string }> {
    return new Promise((resolve) => {
      const [file, ...args] = low ? ['nice', '-n', '10', ...command] : command
      const child = spawn(file ?? 'npm', args, { cwd, env: consumerEnv, stdio: 'pipe' })
      this.#child = child
      let [stdout, stderr] = ['', '']
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      const end = (ok: boolean, more = '') => resolve({ ok, output: `${stderr}${stdout}${more}`, stdout })
      child.on('error', (error) => end(false, error.message))
      child.on('close', (code) => end(code === 0))
    })
  }
}
