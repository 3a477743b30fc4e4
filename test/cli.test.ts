import { type ChildProcess, execFile, spawn } from 'node:child_process'
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
import { Agent, request } from 'node:https'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { freePort } from './support/browser.ts'

const root = resolve(import.meta.dirname, '..')
const node = join(root, 'node_modules/.bin/node')
const cli = join(root, 'src/cli/tmaps-mock.ts')
const cache = mkdtempSync(join(tmpdir(), 'tmaps-cli-'))
const env = { ...process.env, XDG_CACHE_HOME: cache }
const running = new Set<ChildProcess>()
const run = promisify(execFile)

afterEach(() => {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
})
afterAll(() => rmSync(cache, { recursive: true, force: true }))

/** Starts `tmaps-mock serve` as a user would, and resolves once it printed its banner. */
function serve(...args: string[]) {
  const child = spawn(node, [cli, 'serve', '--port', '0', ...args], { env, cwd: root })
  running.add(child)
  let out = ''
  child.stdout.on('data', (chunk) => {
    out += chunk
  })
  const banner = new Promise<{ url: string; ca: string; keys: Record<string, string> }>((done, fail) => {
    child.stdout.on('data', () => {
      if (!out.includes('Ctrl-C to stop.')) return
      const keys: Record<string, string> = {}
      for (const [, name, value] of out.matchAll(
        /^ {2}(.+?)\s+(?:enabled|disabled|revoked)\s+(ak_[0-9a-f]{32})/gm,
      ))
        keys[name!.trim()] = value!
      done({ url: out.match(/at (https:\/\/\S+)/)![1]!, ca: out.match(/--cacert (\S+)/)![1]!, keys })
    })
    child.once('exit', (code) => fail(new Error(`tmaps-mock exited with ${code}: ${out}`)))
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return { child, banner, exited, output: () => out }
}

/** Runs the CLI until it exits by itself; resolves with its exit code and what it wrote on stderr. */
async function exitOf(args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawn(node, args, { env, cwd: root })
  let err = ''
  child.stderr.on('data', (chunk) => {
    err += chunk
  })
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  return { code, err }
}

const curl = async (ca: string, ...args: string[]) => {
  const { stdout } = await run('curl', ['-s', '--cacert', ca, '-w', '\n%{http_code}', ...args])
  const lines = stdout.split('\n')
  return { status: Number(lines.pop()), body: JSON.parse(lines.join('\n') || 'null') }
}

describe('tmaps-mock serve', () => {
  it('serves the demo console over HTTPS with its generated CA, and prints what a user needs', async () => {
    const { banner, output } = serve()
    const { url, ca, keys } = await banner
    expect(url).toMatch(/^https:\/\/localhost:\d+$/)
    expect(Object.keys(keys)).toEqual([
      'Web app (local dev)',
      'Backend (server-side)',
      'Production frontend',
      'Staging frontend',
      'Old mobile app',
    ])
    expect(output()).toContain(
      `curl --cacert ${ca} '${url}/geocoding/forward?q=Sfax&limit=1&api_key=${keys['Web app (local dev)']}'`,
    )
    const web = keys['Web app (local dev)']!
    expect(await curl(ca, `${url}/geocoding/forward?q=Sfax&limit=1&api_key=${web}`)).toMatchObject({
      status: 200,
    })
    expect(
      await curl(ca, '-H', 'Origin: http://localhost:5173', `${url}/geocoding/forward?q=Sfax&api_key=${web}`),
    ).toMatchObject({ status: 200 })
    expect(
      await curl(ca, '-H', 'Origin: http://127.0.0.1:5173', `${url}/geocoding/forward?q=Sfax&api_key=${web}`),
    ).toEqual({
      status: 403,
      body: { error: 'domain not authorized' },
    })
    expect(await curl(ca, `${url}/geocoding/forward?q=Sfax&api_key=${keys['Staging frontend']}`)).toEqual({
      status: 401,
      body: { error: 'missing api_key' },
    })
  }, 60_000)

  it('answers every request on --http-port with the contract 403', async () => {
    const plainPort = await freePort('127.0.0.1')
    const { banner } = serve('--http-port', String(plainPort))
    const { keys } = await banner
    const { stdout } = await run('curl', [
      '-s',
      '-w',
      '\n%{http_code}',
      `http://127.0.0.1:${plainPort}/geocoding/forward?q=Sfax&api_key=${keys['Backend (server-side)']}`,
    ])
    expect(stdout).toBe('{"error":"domain not authorized"}\n403')
  }, 60_000)

  it('writes the state on exit with --save and starts again from it', async () => {
    const file = join(cache, 'state.json')
    const first = serve('--state', 'empty', '--save', file)
    const { url, ca } = await first.banner
    const created = await curl(
      ca,
      '-X',
      'POST',
      '-H',
      'Content-Type: application/json',
      '--data',
      '{"name":"Saved key","domains":["localhost"]}',
      `${url}/__console/keys`,
    )
    expect(created.status).toBe(201)
    first.child.kill('SIGINT')
    expect(await first.exited).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8')).keys).toEqual([
      expect.objectContaining({ name: 'Saved key' }),
    ])
    // Full key values inside: readable by the user only.
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = serve('--state', file)
    const again = await second.banner
    expect(second.output()).toContain('Saved key')
    expect(second.output()).not.toContain(created.body.value) // not created now: shown by prefix only
    expect(
      await curl(again.ca, `${again.url}/geocoding/forward?q=Sfax&api_key=${created.body.value}`),
    ).toMatchObject({ status: 200 })
  }, 60_000)

  it('keeps the state when the --save folder vanished: an exclusive file in a new private temporary folder, said', async () => {
    const folder = mkdtempSync(join(cache, 'vanishing-'))
    const { banner, child, exited, output } = serve('--state', 'empty', '--save', join(folder, 's.json'))
    let stderr = ''
    child.stderr?.on('data', (chunk) => (stderr += chunk))
    await banner
    await expect.poll(output).toContain('Ctrl-C to stop') // its signal handlers are on
    rmSync(folder, { recursive: true })
    child.kill('SIGTERM')
    expect(await exited, stderr).toBe(1)
    const rescue = stderr.match(/saved it to (\S+tmaps-mock-state-\w+\/state\.json) instead/)?.[1]
    expect(rescue, stderr).toBeDefined()
    expect(statSync(rescue!).mode & 0o777).toBe(0o600)
    expect(statSync(join(rescue!, '..')).mode & 0o777).toBe(0o700)
    expect(JSON.parse(readFileSync(rescue!, 'utf8')).format).toBe('tmaps-mock/snapshot')
    rmSync(join(rescue!, '..'), { recursive: true })
  }, 60_000)

  it('refuses --console-token "" (an unset variable) and a short one, at start with exit 2', async () => {
    for (const token of ['', 'abc']) {
      const failed = await run(
        node,
        [cli, 'serve', '--port', '0', '--host', '127.0.0.2', '--console-token', token],
        {
          env,
        },
      ).catch((error) => error as { code: number; stderr: string })
      expect(failed).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/the console token must be at least 16/),
      })
    }
  })

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const { banner, child, exited } = serve()
    const { url, ca, keys } = await banner
    const body = JSON.stringify({
      origins: [{ lat: 36.8, lng: 10.18 }],
      destinations: [{ lat: 35.8, lng: 10.6 }],
    })
    const answer = new Promise<{ status: number; text: string }>((done, fail) => {
      const req = request(`${url}/distance-matrix?api_key=${keys['Backend (server-side)']}`, {
        method: 'POST',
        ca: readFileSync(ca),
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () => done({ status: res.statusCode!, text }))
      })
      req.on('error', fail)
      req.write(body.slice(0, 20)) // half a body: the request is in flight
      setTimeout(() => {
        child.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(20)), 300)
      }, 300)
    })
    const { status, text } = await answer
    expect(status).toBe(200)
    expect(JSON.parse(text).distances[0][0]).toBeGreaterThan(100_000)
    expect(await exited).toBe(0)
  }, 60_000)

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', '99999'], /--port must be a port number from 0 to 65535, got "99999"/],
    [['--cert', 'x.pem'], /give --cert and --key together/],
    [['--state', '/nonexistent/state.json'], /cannot read the state file/],
  ])('refuses %j with exit code 2 and a message', async (args, message) => {
    const child = spawn(node, [cli, 'serve', ...args], { env, cwd: root })
    let err = ''
    child.stderr.on('data', (c) => {
      err += c
    })
    const code = await new Promise((done) => child.once('exit', done))
    expect(code).toBe(2)
    expect(err).toMatch(message)
    expect(err).toContain('tmaps-mock serve --help')
  })

  it('injects --fault and --latency, says so in the banner, and prints a line per request', async () => {
    const { banner, output } = serve(
      '--fault',
      'endpoint=/geocoding/forward,status=429,times=1',
      '--latency',
      '20-40',
    )
    const { url, ca, keys } = await banner
    expect(output()).toContain('faults on: +20-40 ms on every endpoint; 429 on /geocoding/forward (once)')
    const forward = `${url}/geocoding/forward?q=Sfax&limit=1&api_key=${keys['Backend (server-side)']}`
    expect(await curl(ca, forward)).toEqual({ status: 429, body: { error: 'rate limited' } })
    expect((await curl(ca, forward)).status).toBe(200)
    await expect
      .poll(output)
      .toMatch(
        /^\d\d:\d\d:\d\d GET \/geocoding\/forward\?q=Sfax&limit=1&api_key=ak_[0-9a-f]{4}… 200 no-browser-headers \d+\.\d ms$/m,
      )
    expect(output()).toMatch(/ 429 fault-injected /)
  }, 60_000)

  it('refuses a malformed --fault with exit code 2 and says what to write', async () => {
    const { code, err } = await exitOf([cli, 'serve', '--port', '0', '--fault', 'status=418'])
    expect(code).toBe(2)
    expect(err).toContain(
      '--fault: Failed to add the fault: status must be one of the numbers 429, 500, 502, 503, 504 (got 418).',
    )
  }, 30_000)

  it('refuses a --save path it cannot write, at start (exit 2), not on exit when the state would be lost', async () => {
    const { code, err } = await exitOf([
      cli,
      'serve',
      '--port',
      '0',
      '--save',
      join(cache, 'no-such-folder', 's.json'),
    ])
    expect(code).toBe(2)
    expect(err).toContain(
      `--save: the folder ${join(cache, 'no-such-folder')} does not exist. Create it, or save elsewhere.`,
    )
  }, 30_000)

  it('refuses a --save path that is a symbolic link, at start (exit 2), its target left as it was', async () => {
    const folder = mkdtempSync(join(cache, 'link-'))
    const target = join(folder, 'target.txt')
    writeFileSync(target, 'not yours to overwrite\n')
    symlinkSync(target, join(folder, 'link.json'))
    const { code, err } = await exitOf([cli, 'serve', '--port', '0', '--save', join(folder, 'link.json')])
    expect(code).toBe(2)
    expect(err).toContain(
      `--save: ${join(folder, 'link.json')} is a symbolic link; the state is written to a file of its own. Give the file's own path, or another name.`,
    )
    expect(readFileSync(target, 'utf8')).toBe('not yours to overwrite\n')
  }, 30_000)

  it('writes --save as a file of its own (0600, a temporary file renamed): a link put there meanwhile is replaced, never written through', async () => {
    const folder = mkdtempSync(join(cache, 'swap-'))
    const file = join(folder, 'state.json')
    const target = join(folder, 'target.txt')
    writeFileSync(target, 'not yours to overwrite\n')
    const { banner, child, exited, output } = serve('--state', 'empty', '--save', file)
    await banner
    await expect.poll(output).toContain('Ctrl-C to stop') // its signal handlers are on
    symlinkSync(target, file) // planted after the check at start
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(readFileSync(target, 'utf8')).toBe('not yours to overwrite\n')
    expect(lstatSync(file).isSymbolicLink()).toBe(false)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('tmaps-mock/snapshot')
    expect(readdirSync(folder).sort()).toEqual(['state.json', 'target.txt']) // no temporary file left
  }, 60_000)

  it('refuses a snapshot whose key name carries terminal escape codes, saying which key (exit 2)', async () => {
    const state = join(cache, 'escape.json')
    const { value } = await (async () => {
      const { createTmapsCore } = await import('../src/core/create-core.ts')
      const core = createTmapsCore({ state: 'empty', seed: 'escape' })
      await core.ready
      return core.console.createKey({ name: 'Web' })
    })()
    // A snapshot edited by hand: the name carries ESC sequences (clear screen, window title).
    const snapshot = {
      format: 'tmaps-mock/snapshot',
      version: 1,
      keys: [
        {
          id: 'key_1',
          name: 'Web\u001b[2J\u001b]0;pwned\u0007',
          value,
          status: 'enabled',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      domains: [],
      links: [],
    }
    writeFileSync(state, JSON.stringify(snapshot))
    const { code, err } = await exitOf([cli, 'serve', '--port', '0', '--state', state])
    expect(code).toBe(2)
    expect(err).toContain('✖ contains control characters (ESC, line breaks)\n  → at keys[0].name')
    expect(err).not.toContain('\u001b')
  }, 30_000)

  it('refuses a busy port with exit code 2', async () => {
    const blocker = createServer().listen(0, '127.0.0.1')
    await new Promise((done) => blocker.once('listening', done))
    const port = (blocker.address() as { port: number }).port
    const { code, err } = await exitOf([cli, 'serve', '--port', String(port)])
    expect(code).toBe(2)
    expect(err).toMatch(/the port is busy/)
    blocker.close()
  }, 30_000)

  // An API-only user pays nothing for the render pool: its processes start with the first picture.
  it.runIf(process.platform === 'linux')(
    'answers 100 geocodes without starting a render process, and starts one for the first tile',
    async () => {
      const { banner, child } = serve('--quiet')
      const { url, ca, keys } = await banner
      const agent = new Agent({ ca: readFileSync(ca), keepAlive: true, maxSockets: 4 })
      const get = (path: string) =>
        new Promise<{ status: number; type: string }>((done, fail) => {
          request(`${url}${path}&api_key=${keys['Backend (server-side)']}`, { agent }, (response) => {
            response
              .resume()
              .once('end', () =>
                done({ status: response.statusCode!, type: String(response.headers['content-type']) }),
              )
          })
            .once('error', fail)
            .end()
        })
      // The server's child processes: the render pool's are its only ones.
      const renderProcesses = () =>
        readdirSync(`/proc/${child.pid}/task`).flatMap((task) =>
          readFileSync(`/proc/${child.pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
        ).length
      const towns = ['Sfax', 'Sousse', 'Djerba', 'Kairouan', 'Bizerte', 'Gabès', 'Nabeul', 'Monastir']
      for (let i = 0; i < 100; i += 4) {
        const answers = await Promise.all(
          [0, 1, 2, 3].map((j) =>
            get(
              `/geocoding/forward?q=${encodeURIComponent(`${i + j} Avenue Habib Bourguiba, ${towns[(i + j) % 8]}`)}`,
            ),
          ),
        )
        for (const answer of answers) expect(answer).toEqual({ status: 200, type: 'application/json' })
      }
      expect(renderProcesses()).toBe(0)
      expect(await get('/r-tile/6/33/25?')).toEqual({ status: 200, type: 'image/png' })
      expect(renderProcesses()).toBe(1)
      agent.destroy()
    },
    120_000,
  )

  it('prints its help', async () => {
    const { stdout } = await run(node, [cli, 'serve', '--help'])
    expect(stdout).toContain('Usage: tmaps-mock serve [options]')
    expect(stdout).toContain('--http-port')
    expect(stdout).toContain('--replay-latency <m>      recorded: answer each after the time TMaps took')
    // Without a command: the commands, each with what it does.
    const overview = (await run(node, [cli, '--help'])).stdout
    expect(overview).toContain('Usage: tmaps-mock <command> [options]')
    for (const command of ['serve', 'playground', 'verify'])
      expect(overview).toMatch(new RegExp(`^  ${command} +\\S`, 'm'))
  })

  it("starts through Node's compile cache (NODE_COMPILE_CACHE), and not with NODE_DISABLE_COMPILE_CACHE", async () => {
    const files = (dir: string) => readdirSync(dir, { recursive: true }).length
    const [used, off] = [join(cache, 'compile-used'), join(cache, 'compile-off')]
    await run(node, [cli, '--help'], { env: { ...env, NODE_COMPILE_CACHE: used } })
    // Its modules' compiled code, the command's own (main.ts) among them.
    expect(files(used)).toBeGreaterThan(20)
    await run(node, [cli, '--help'], {
      env: { ...env, NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: '1' },
    })
    expect(() => files(off)).toThrow(/ENOENT/)
  })
})
