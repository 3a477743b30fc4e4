import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createServer, type Plugin, type ViteDevServer } from 'vite'
import { afterEach, describe, expect, it } from 'vitest'
import { tmapsMock } from './index.ts'

const START = '@id/__x00__virtual:tmaps-mock/start'
const servers: Array<{ server: ViteDevServer; root: string }> = []
afterEach(async () => {
  for (const { server, root } of servers.splice(0)) {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  }
})

/** A dev server (not listening) of a project with these files, the plugin on. */
async function dev(files: Record<string, string>, base = '/'): Promise<ViteDevServer> {
  const root = mkdtempSync(join(tmpdir(), 'tmaps-vite-plugin-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const server = await createServer({
    configFile: false,
    root,
    base,
    logLevel: 'silent',
    server: { ws: false },
    // The package is not installed in the project: nothing to pre-bundle.
    optimizeDeps: { noDiscovery: true },
    plugins: [tmapsMock({ quiet: true })],
  })
  servers.push({ server, root })
  return server
}
/** The code Vite serves for a module URL (as the browser asks for it, `base` left out). */
const served = async (server: ViteDevServer, url: string) =>
  (await server.environments.client.transformRequest(url))?.code ?? ''
const importsStart = (code: string, base = '/') =>
  code.includes(`import ${JSON.stringify(`${base}${START}`)}`)

const APP = {
  'index.html': '<html><head></head><body><script type="module" src="/src/main.ts"></script></body></html>',
  'src/main.ts': "import { n } from './other.ts'\nconsole.log(n)\n",
  'src/other.ts': 'export const n = 1\n',
}

describe('tmapsMock (vite dev)', () => {
  it('registers msw’s worker before anything else, and starts the mock from an async module script', async () => {
    const server = await dev(APP)
    const html = await server.transformIndexHtml('/index.html', APP['index.html'])
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toMatch(
      /^<html><head>\s*<script type="module" src="\/@vite\/client"><\/script>\s*<script>\{/,
    )
    expect(head).toContain('navigator.serviceWorker;if(c){const p=c.register("/mockServiceWorker.js")')
    expect(head).toContain(`<script type="module" async src="/${START}"></script>`)
    // The page's own entry is left as it is.
    expect(html).toContain('<script type="module" src="/src/main.ts"></script>')
  })

  it('makes each entry import the start module, and no other module', async () => {
    const server = await dev(APP)
    await server.transformIndexHtml('/index.html', APP['index.html'])
    expect(importsStart(await served(server, '/src/main.ts'))).toBe(true)
    expect(importsStart(await served(server, '/src/other.ts'))).toBe(false)
    // The start module itself: the mock, started before anything of the entry runs.
    const start = await server.environments.client.pluginContainer.load('\0virtual:tmaps-mock/start')
    expect(typeof start === 'string' ? start : start?.code).toMatch(
      /startTmapsPage\(\{[\s\S]*\}\)\nawait page\.started\n$/,
    )
  })

  it('finds the entries of a page in a folder: a relative src and an inline module script', async () => {
    const page = `<html><head></head><body>
      <script type="module" src="./page.ts"></script>
      <script type="module">import '../src/other.ts'</script>
      <script src="/legacy.js"></script>
      <!-- <script type="module" src="/old.ts"></script> -->
    </body></html>`
    const server = await dev({ ...APP, 'nested/page.html': page, 'nested/page.ts': 'export {}\n' })
    const html = await server.transformIndexHtml('/nested/page.html', page)
    expect(importsStart(await served(server, '/nested/page.ts'))).toBe(true)
    // Vite serves the inline script as a module of its own.
    const inline = /src="(\/nested\/page\.html\?html-proxy&amp;index=\d+\.js)"/.exec(html)?.[1]
    expect(inline).toBeDefined()
    expect(importsStart(await served(server, inline!.replace('&amp;', '&')))).toBe(true)
  })

  it('works under a base other than /', async () => {
    const server = await dev(APP, '/app/')
    const html = await server.transformIndexHtml('/index.html', APP['index.html'])
    expect(html).toContain('c.register("/app/mockServiceWorker.js")')
    expect(html).toContain(`<script type="module" async src="/app/${START}"></script>`)
    expect(importsStart(await served(server, '/src/main.ts'), '/app/')).toBe(true)
  })

  it('transforms an entry again when Vite transformed it before a page named it (server.warmup)', async () => {
    const server = await dev(APP)
    expect(importsStart(await served(server, '/src/main.ts'))).toBe(false)
    await server.transformIndexHtml('/index.html', APP['index.html'])
    expect(importsStart(await served(server, '/src/main.ts'))).toBe(true)
  })

  it('leaves a page without a module script of its own alone', async () => {
    const server = await dev(APP)
    const page = '<html><head></head><body><script src="/legacy.js"></script></body></html>'
    expect(await server.transformIndexHtml('/legacy.html', page)).not.toContain('tmaps-mock')
  })

  it('applies in vite dev only: not in build, preview or Vitest', () => {
    const apply = (tmapsMock()[1] as Plugin).apply as (c: object, env: object) => boolean
    expect(apply({}, { command: 'serve', mode: 'development', isPreview: false })).toBe(true)
    expect(apply({}, { command: 'build', mode: 'production', isPreview: false })).toBe(false)
    expect(apply({}, { command: 'serve', mode: 'production', isPreview: true })).toBe(false)
    expect(apply({}, { command: 'serve', mode: 'test', isPreview: false })).toBe(false)
  })

  it.each([
    [{ renderer: 'gpu' }, 'renderer must be "worker" or "page" (got "gpu")'],
    [{ apiKey: 'ak_123' }, 'apiKey must be a TMaps key'],
    [{ persist: '' }, 'persist must be a localStorage name'],
    [{ stat: 'demo' }, 'there is no option "stat"'],
    [{ state: '{"keys":1}' }, 'state is neither "demo", "empty" nor a valid snapshot'],
  ])('refuses %j at creation and says what to do', (options, message) => {
    expect(() => tmapsMock(options as never)).toThrow(`Failed to set up tmaps-mock/vite: ${message}`)
  })
})
