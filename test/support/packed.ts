import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'
import { removeDir } from './cleanup.ts'
import { type ConsumerProjectName, consumerPackageJson } from './consumer-projects.ts'

export { devDependencies } from './consumer-projects.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder made for this run: the tarball (see `packedTarball`) and the projects installed beside it. */
    packDir: string
  }
}

export const root = resolve(import.meta.dirname, '../..')
/** Node 24 (the `node` devDependency): consumer projects run on it, as the README asks of users. */
export const nodeBin = join(root, 'node_modules/.bin')
export const node = join(nodeBin, 'node')
/** An environment whose `node` and `npm` scripts run on Node 24, whatever the machine has. */
export const consumerEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TINYPOOL|NODE_OPTIONS$)/.test(name)),
  ),
  PATH: `${nodeBin}:${process.env.PATH}`,
  NODE_ENV: 'test',
  npm_config_update_notifier: 'false',
}

/**
 * A developer's shell: none of the Vitest run's own variables (NODE_ENV=test would upset Vite and Next.js).
 */
export const developerEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(consumerEnv).filter(([name]) => !/^(VITEST|NODE_ENV$|TEST$)/.test(name)),
)

/**
 * `npm pack` of this repository, made once per test run whatever the number of consumer test
 * files, so every consumer installs the same tarball that `npm publish` would upload. The consumer
 * tests' global setup packs it in the background (test/support/consumer-setup.ts); whoever takes
 * `lock` first packs, the others wait for `done` (or `failed`, which holds the error).
 */
export async function packedTarball(dir = inject('packDir')): Promise<string> {
  if (claim(join(dir, 'lock'))) {
    try {
      execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: root, stdio: 'pipe', env: consumerEnv })
      writeFileSync(join(dir, 'done'), '')
    } catch (error) {
      writeFileSync(join(dir, 'failed'), String((error as { stderr?: unknown }).stderr ?? error))
      throw error
    }
  }
  const ended = await waitForFile([join(dir, 'done'), join(dir, 'failed')], 300_000, 'the packed tarball')
  if (ended.endsWith('failed')) throw new Error(`npm pack failed:\n${readFileSync(ended, 'utf8')}`)
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))
  if (!tarball) throw new Error(`Failed to get the packed tarball: npm pack wrote nothing in ${dir}.`)
  return join(dir, tarball)
}

/** Takes a job by making its folder (atomic): true for the one caller that made it. */
export function claim(path: string): boolean {
  try {
    mkdirSync(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** Waits until one of `paths` exists; returns it, or throws after `ms` naming `what` it waited for. */
async function waitForFile(paths: string[], ms: number, what: string): Promise<string> {
  for (let waited = 0; ; waited += 200) {
    const found = paths.find((path) => existsSync(path))
    if (found) return found
    if (waited > ms) throw new Error(`Failed to get ${what}: still not ready after ${ms / 60_000} min.`)
    await sleep(200)
  }
}

export interface ConsumerProject {
  dir: string
  /** Runs a command in the project with Node 24 first on PATH; returns its stdout. */
  run(command: string, args: string[], options?: { env?: NodeJS.ProcessEnv; timeout?: number }): string
  /** Removes the project folder. */
  remove(): void
}

/** The arguments of every consumer project's `npm install` (npm's cache makes later runs offline). */
export const INSTALL_ARGS = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']

/**
 * A fresh project in a temporary folder with the packed tarball and its dependencies installed
 * (`CONSUMER_PROJECTS`), and `files` written into it: the one the global setup installed in the
 * background if it took it on (waiting for it to end), else installed here.
 */
export async function consumerProject(
  name: ConsumerProjectName,
  { files = {} }: { files?: Record<string, string> } = {},
): Promise<ConsumerProject> {
  const tarball = await packedTarball()
  const dir =
    (await preparedProject(name, inject('packDir'))) ?? mkdtempSync(join(tmpdir(), `tmaps-${name}-`))
  if (!existsSync(join(dir, 'node_modules'))) {
    writeFileSync(join(dir, 'package.json'), consumerPackageJson(name, tarball))
    execFileSync('npm', INSTALL_ARGS, { cwd: dir, stdio: 'pipe', env: consumerEnv, timeout: 300_000 })
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return {
    dir,
    run: (command, args, options = {}) =>
      execFileSync(command, args, {
        cwd: dir,
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...consumerEnv, ...options.env },
        timeout: options.timeout ?? 120_000,
      }),
    remove: () => removeDir(dir),
  }
}

/**
 * The project the global setup installed in the background (in `packDir`), moved to a folder of
 * this test's own; undefined when it did not take this one on (this call took it first), when its
 * install failed (installed here again: its error is then this test's) or takes over `waitMs` (a
 * minute), or when it was taken before (a rerun in watch mode).
 */
export async function preparedProject(
  name: ConsumerProjectName,
  packDir: string,
  waitMs = 60_000,
): Promise<string | undefined> {
  const projects = join(packDir, 'projects')
  if (!existsSync(projects) || claim(join(projects, `${name}.claim`))) return undefined
  // An install takes ~10 s; on a busy machine the background's, at a low priority, can take
  // minutes: past a minute this test installs its own instead of waiting on it.
  const ended = await waitForFile(
    [join(projects, `${name}.ready`), join(projects, `${name}.failed`)],
    waitMs,
    `the ${name} project the global setup installs`,
  ).catch(() => undefined)
  if (ended === undefined || ended.endsWith('.failed') || !existsSync(join(projects, name))) return undefined
  // An empty folder of this test's own: rename(2) puts the project in its place.
  const dir = mkdtempSync(join(tmpdir(), `tmaps-${name}-`))
  renameSync(join(projects, name), dir)
  return dir
}

/** The files of a folder by path relative to it, with their text (a fixture to write into a project). */
export function filesOf(dir: string, encoding: BufferEncoding = 'utf8'): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name)
      if (statSync(path).isDirectory()) walk(path)
      else files[relative(dir, path)] = readFileSync(path, encoding)
    }
  }
  walk(dir)
  return files
}
