import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp, endProcessGroup } from '../support/cleanup.ts'
import { type ConsumerProject, consumerEnv, consumerProject, root } from '../support/packed.ts'

/**
 * Consumer 4: `npx tmaps-mock serve` from the packed tarball, called with curl, on Node 24 and
 * on the machine's own Node (20 here), which a user's `npx` picks from PATH.
 */
const exec = promisify(execFile)
const systemNode = '/usr/bin'

let project: ConsumerProject
const children: ChildProcess[] = []
beforeAll(async () => {
  project = await consumerProject('cli', {
    files: { 'backend.ts': readFileSync(join(import.meta.dirname, 'server-recipe/backend.ts'), 'utf8') },
  })
}, 400_000)
afterAll(() =>
  cleanUp({
    // npx runs the command as its child: end the whole process group, not npx alone.
    'stop the servers': () => Promise.all(children.map((child) => endProcessGroup(child))),
    'remove the project': () => project?.remove(),
  }),
)

/** Starts `npx tmaps-mock serve` with `nodeDir` first on PATH; resolves with its banner once it listens. */
function serve(nodeDir: string): Promise<{ banner: string; code?: number | null }> {
  const env = {
    ...consumerEnv,
    PATH: `${nodeDir}:${consumerEnv.PATH}`,
    XDG_CACHE_HOME: join(project.dir, '.cache'),
  }
  const child = spawn('npx', ['--no-install', 'tmaps-mock', 'serve', '--port', '0', '--seed', 'consumer'], {
    cwd: project.dir,
    env,
    detached: true,
  })
  children.push(child)
  let out = ''
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (out.includes('Ctrl-C to stop')) resolve({ banner: out })
    })
    child.stderr.on('data', (chunk) => {
      out += chunk
    })
    child.on('exit', (code) => resolve({ banner: out, code }))
  })
}

async function curl(banner: string, path: string, ...args: string[]) {
  const origin = banner.match(/serving the TMaps API at (https:\/\/localhost:\d+)/)?.[1]
  const ca = banner.match(/curl: --cacert (\S+)/)?.[1]
  expect(origin && ca, banner).toBeTruthy()
  const { stdout } = await exec('curl', ['-sS', '--cacert', ca!, ...args, `${origin}${path}`], {
    encoding: 'buffer',
  })
  return stdout
}

describe.each([
  ['Node 24 (the node devDependency)', () => join(root, 'node_modules/.bin')],
  ["the machine's own Node", () => systemNode],
])('npx tmaps-mock serve on %s', (_name, nodeDir) => {
  let banner = ''
  beforeAll(async () => {
    const started = await serve(nodeDir())
    banner = started.banner
    // A Node the server cannot run on must say exactly what to do, and exit.
    if (started.code !== undefined) expect(banner).toMatch(/needs Node >= 22\.12.*npm i -D node@24/s)
  }, 60_000)

  it('answers curl: 200 with the demo key, 403 for a foreign Origin, a tile as PNG', async ({ skip }) => {
    if (!banner.includes('Ctrl-C to stop')) skip('this Node is refused with a message (checked above)')
    const key = banner.match(/Web app \(local dev\)\s+enabled\s+(ak_[0-9a-f]{32})/)?.[1]
    const ok = JSON.parse(String(await curl(banner, `/geocoding/forward?q=Sfax&limit=1&api_key=${key}`)))
    expect(ok.results[0].formatted).toContain('Sfax')
    const denied = String(
      await curl(banner, `/geocoding/forward?q=Sfax&api_key=${key}`, '-H', 'Origin: https://evil.example'),
    )
    expect(JSON.parse(denied)).toEqual({ error: 'domain not authorized' })
    const tile = await curl(banner, `/r-tile/7/68/51?api_key=${key}`)
    expect([...tile.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG')
  })

  it('drives the control API (Hono, a dependency loaded on first use): a key made, the log read, a 405', async ({
    skip,
  }) => {
    if (!banner.includes('Ctrl-C to stop')) skip('this Node is refused with a message (checked above)')
    const json = ['-H', 'Content-Type: application/json']
    const created = JSON.parse(
      String(await curl(banner, '/__console/keys', '-X', 'POST', ...json, '-d', '{"name":"From curl"}')),
    )
    expect(created).toMatchObject({ name: 'From curl', value: expect.stringMatching(/^ak_[0-9a-f]{32}$/) })
    const log = JSON.parse(String(await curl(banner, '/__console/log')))
    expect(Array.isArray(log)).toBe(true)
    const wrong = String(await curl(banner, '/__console/keys', '-X', 'DELETE', '-w', ' %{http_code}'))
    expect(wrong).toBe('{"error":"DELETE is not allowed on /__console/keys."} 405')
  })

  it("runs the README's backend recipe against it (NODE_EXTRA_CA_CERTS, TMAPS_URL, TMAPS_KEY)", async ({
    skip,
  }) => {
    if (!banner.includes('Ctrl-C to stop')) skip('this Node is refused with a message (checked above)')
    const { stdout } = await exec(join(root, 'node_modules/.bin/node'), ['backend.ts'], {
      cwd: project.dir,
      env: {
        ...consumerEnv,
        NODE_EXTRA_CA_CERTS: banner.match(/curl: --cacert (\S+)/)![1],
        TMAPS_URL: banner.match(/serving the TMaps API at (https:\/\/localhost:\d+)/)![1],
        TMAPS_KEY: banner.match(/Backend \(server-side\)\s+enabled\s+(ak_[0-9a-f]{32})/)![1],
      },
    })
    expect(stdout).toMatch(/^200 .*Sousse/)
  })
})
