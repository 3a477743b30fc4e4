import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'
import { removeDir } from './cleanup.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder made for this run, where the first consumer test packs the tarball (see `packedTarball`). */
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
 * files (the first one packs under a lock, the others wait), so every consumer installs the same
 * tarball that `npm publish` would upload.
 */
export async function packedTarball(): Promise<string> {
  const dir = inject('packDir')
  const done = join(dir, 'done')
  try {
    mkdirSync(join(dir, 'lock'))
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: root, stdio: 'pipe', env: consumerEnv })
    writeFileSync(done, '')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    for (let waited = 0; !existsSync(done); waited += 200) {
      if (waited > 240_000)
        throw new Error('Failed to get the packed tarball: another test is still packing after 4 min.')
      await sleep(200)
    }
  }
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))
  if (!tarball) throw new Error(`Failed to get the packed tarball: npm pack wrote nothing in ${dir}.`)
  return join(dir, tarball)
}

export interface ConsumerProject {
  dir: string
  /** Runs a command in the project with Node 24 first on PATH; returns its stdout. */
  run(command: string, args: string[], options?: { timeout?: number; env?: NodeJS.ProcessEnv }): string
  remove(): void
}

/**
 * A fresh project in a temporary folder with the packed tarball and `dependencies` installed
 * from the registry (npm's cache makes later runs offline), and `files` written into it.
 */
export async function consumerProject(
  name: string,
  {
    dependencies = {},
    files = {},
    scripts = {},
  }: {
    dependencies?: Record<string, string>
    files?: Record<string, string>
    scripts?: Record<string, string>
  },
): Promise<ConsumerProject> {
  const tarball = await packedTarball()
  const dir = mkdtempSync(join(tmpdir(), `tmaps-${name}-`))
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name, private: true, type: 'module', scripts, dependencies: { 'tmaps-mock': `file:${tarball}`, ...dependencies } }, null, 2)}\n`,
  )
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: dir,
    stdio: 'pipe',
    env: consumerEnv,
    timeout: 300_000,
  })
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

/** The versions this repository pins (package.json's devDependencies): consumer projects install the same. */
export const devDependencies: Readonly<Record<string, string>> = JSON.parse(
  readFileSync(join(root, 'package.json'), 'utf8'),
).devDependencies

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

/** Vitest global setup: a folder for the run's tarball, removed at the end. */
export function setup({ provide }: { provide: (key: 'packDir', value: string) => void }): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tmaps-pack-'))
  provide('packDir', dir)
  return () => removeDir(dir)
}
