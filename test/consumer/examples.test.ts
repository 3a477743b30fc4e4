import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { preview } from 'vite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM, launchChromium } from '../support/browser.ts'
import { cleanUp } from '../support/cleanup.ts'
import { consumerEnv, consumerProject } from '../support/packed.ts'
import { type PublicExport, readPublicApi } from '../support/public-api.ts'

/**
 * Every public export's `@example`, as a consumer reads it in the packed package's `.d.ts`:
 * each is written to its own file in a fresh project, all are type-checked by one `tsc` run
 * against the installed package, then each is run: with Node 24 (type stripping) for the entries
 * that run in Node, in Chromium (a Vite build with msw's worker) for the browser-only ones. A
 * failure names the entry and the export whose example lied.
 */
const project = await consumerProject('examples', {
  files: {
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'es2023',
          lib: ['es2023', 'dom', 'dom.iterable'],
          module: 'nodenext',
          strict: true,
          noUncheckedIndexedAccess: true,
          verbatimModuleSyntax: true,
          erasableSyntaxOnly: true,
          allowImportingTsExtensions: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node', 'vite/client'],
        },
        include: ['examples'],
      },
      null,
      2,
    )}\n`,
  },
})
const declared = readPublicApi(project.dir)

interface Example {
  /** `tmaps-mock/node › setupTmapsNode` */
  id: string
  specifier: string
  runsInNode: boolean
  exported: PublicExport
  /** The example's file in the project, e.g. `examples/node/setupTmapsNode.ts`. */
  file: string
  /** The code between the fences, or undefined when the JSDoc is not as the house style says. */
  code?: string
}

const FENCE = /^```ts\n([\s\S]*?)\n```$/
const examples: Example[] = declared.flatMap((entry) =>
  (entry.exports ?? []).map((exported) => {
    const folder = entry.key === '.' ? 'root' : entry.key.slice(2)
    const code = exported.examples.length === 1 ? FENCE.exec(exported.examples[0]!.trim())?.[1] : undefined
    return {
      id: `${entry.specifier} › ${exported.name}`,
      specifier: entry.specifier,
      runsInNode: entry.runsInNode,
      exported,
      file: `examples/${folder}/${exported.name}.ts`,
      ...(code !== undefined && { code }),
    }
  }),
)
for (const example of examples) {
  if (example.code === undefined) continue
  mkdirSync(join(project.dir, example.file, '..'), { recursive: true })
  writeFileSync(join(project.dir, example.file), `${example.code}\n`)
}
const inBrowser = examples.filter((e) => !e.runsInNode && e.code !== undefined)

/** The type errors of each example file, from one `tsc` run over them all. */
const typeErrors = new Map<string, string[]>()
/** Each Node run, started with at most a few at once; resolves to what went wrong, if anything. */
const nodeRuns = new Map<string, Promise<string | undefined>>()
/** Each browser run's failure, if any. */
const browserRuns = new Map<string, Promise<string | undefined>>()
const env = { ...consumerEnv, XDG_CACHE_HOME: join(project.dir, '.cache'), CHROMIUM_PATH: CHROMIUM }

function run(command: string, args: string[], timeout: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: project.dir, env, timeout, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(undefined)
      const why = error.killed
        ? `did not exit within ${timeout / 1000} s (does it close what it opened?)`
        : `exited with ${error.code}`
      resolve(`${why}\n${stderr || stdout}`)
    })
  })
}

function limit(concurrency: number) {
  let active = 0
  const queue: Array<() => void> = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= concurrency) await new Promise<void>((go) => queue.push(go))
    active++
    try {
      return await task()
    } finally {
      active--
      queue.shift()?.()
    }
  }
}

/** Preloaded in Node: a failed `console.assert` throws there too (in Node it only prints). */
const STRICT_CONSOLE_ASSERT = 'strict-console-assert.js'

const WARM_CERTIFICATE = `const { startTmapsHttpsServer } = await import('tmaps-mock/server')
await (await startTmapsHttpsServer({ port: 0, state: 'empty' })).close()`

let browser: Browser | undefined
let server: Awaited<ReturnType<typeof preview>> | undefined

beforeAll(async () => {
  let output = ''
  try {
    project.run('tsc', ['-p', 'tsconfig.json', '--pretty', 'false'], { timeout: 120_000 })
  } catch (error) {
    output = (error as { stdout?: string }).stdout ?? String(error)
  }
  for (const line of output.split('\n')) {
    const file = /^(examples\/[^(]+)\(\d+,\d+\)/.exec(line)?.[1]
    if (file) typeErrors.set(file, [...(typeErrors.get(file) ?? []), line])
  }
  if (output !== '' && typeErrors.size === 0) throw new Error(`Failed to type-check the examples:\n${output}`)

  writeFileSync(
    join(project.dir, STRICT_CONSOLE_ASSERT),
    "console.assert = (ok, ...data) => { if (!ok) throw new Error(['console.assert failed', ...data].join(': ')) }\n",
  )
  // The HTTPS server's local CA, made once here, not by several examples at the same time.
  await run('node', ['--input-type=module', '-e', WARM_CERTIFICATE], 60_000)
  const queued = limit(Math.max(2, availableParallelism() - 1))
  // An example that never closes what it opened is caught at this limit. It is generous: the
  // first route builds a world (~1.4 s alone), and with two spinning processes per core beside
  // the suite one took over 30 s.
  const EXAMPLE_EXIT_MS = 90_000
  for (const example of examples) {
    if (example.runsInNode && example.code !== undefined) {
      const args = ['--import', `./${STRICT_CONSOLE_ASSERT}`, example.file]
      nodeRuns.set(
        example.id,
        queued(() => run('node', args, EXAMPLE_EXIT_MS)),
      )
    }
  }

  if (inBrowser.length > 0) await startBrowserRuns()
}, 300_000)

afterAll(() =>
  cleanUp({
    'let the examples still running end': () =>
      Promise.allSettled([...nodeRuns.values(), ...browserRuns.values()]),
    'close the browser': () => browser?.close(),
    'stop the server': () => server?.close(),
    'remove the project': () => project?.remove(),
  }),
)

/**
 * A page that runs one example and says how it ended in `window.exampleResult`: whether it
 * threw, and which of its `console.assert` calls failed (counted in call order).
 */
function harnessPage(module: string): string {
  return `<!doctype html>
<script type="module">
const failed = []
let calls = 0
const assert = console.assert.bind(console)
console.assert = (condition, ...data) => {
  calls++
  if (!condition) failed.push(calls)
  assert(condition, ...data)
}
import(${JSON.stringify(module)}).then(
  () => { window.exampleResult = { failed } },
  (error) => { window.exampleResult = { failed, error: String(error?.stack ?? error) } },
)
</script>
`
}

/**
 * The browser-only examples, each in a page of its own (`examples/<entry>/<name>.html`) that
 * imports it and says how it ended; built with Vite and msw's plugin (which emits
 * `mockServiceWorker.js`), served by `vite preview`, and opened in Chromium, each in a fresh
 * context (its own service worker). A failed `console.assert` fails the example (and names its line).
 */
async function startBrowserRuns() {
  const pages = inBrowser.map((example) => example.file.replace(/\.ts$/, '.html'))
  for (const [i, page] of pages.entries()) {
    writeFileSync(join(project.dir, page), harnessPage(`./${inBrowser[i]!.exported.name}.ts`))
  }
  writeFileSync(
    join(project.dir, 'vite.config.ts'),
    `import { msw } from 'msw/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [msw({ mode: 'worker-only' })],
  logLevel: 'warn',
  build: { chunkSizeWarningLimit: 5000, rollupOptions: { input: ${JSON.stringify(pages)} } },
})
`,
  )
  const built = await run('npx', ['vite', 'build'], 120_000)
  if (built) {
    for (const example of inBrowser)
      browserRuns.set(example.id, Promise.resolve(`vite build failed: ${built}`))
    return
  }
  server = await preview({
    root: project.dir,
    configFile: join(project.dir, 'vite.config.ts'),
    logLevel: 'warn',
    preview: { host: 'localhost', port: 0, open: false },
  })
  const base = server.resolvedUrls?.local[0]
  browser = await launchChromium()
  const queued = limit(4)
  for (const [i, example] of inBrowser.entries()) {
    browserRuns.set(
      example.id,
      queued(async () => {
        const context = await browser!.newContext()
        const problems: string[] = []
        try {
          const page = await context.newPage()
          page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
          await page.goto(new URL(pages[i]!, base).href)
          const result = (await page
            .waitForFunction(() => (window as { exampleResult?: unknown }).exampleResult, undefined, {
              timeout: 20_000,
            })
            .then((handle) => handle.jsonValue())) as { error?: string; failed: number[] }
          const asserts = example.code!.split('\n').filter((line) => line.includes('console.assert('))
          for (const n of result.failed)
            problems.push(`failed: ${asserts[n - 1]?.trim() ?? `console.assert #${n}`}`)
          if (result.error !== undefined) problems.push(`threw: ${result.error}`)
        } catch (error) {
          problems.push(String(error))
        } finally {
          await context.close()
        }
        return problems.length > 0 ? problems.join('\n') : undefined
      }),
    )
  }
}

it.each(declared.map((e) => [e.key]))('reads the declarations of %s', (key) => {
  expect(
    declared.find((e) => e.key === key)!.exports,
    `package.json exports ${key}, but the packed package has no .d.ts for it`,
  ).toBeDefined()
})

it.each(examples)(
  '$id',
  async ({ id, exported, file, code, runsInNode }) => {
    const summary = exported.doc.split('\n\n')[0] ?? ''
    expect(summary, `${id} has no JSDoc summary`).not.toBe('')
    expect(
      summary,
      `${id}: the JSDoc summary is one line (details go in a paragraph after it)`,
    ).not.toContain('\n')
    expect(
      exported.examples.length,
      `${id} has ${exported.examples.length} @example tags; it needs one`,
    ).toBe(1)
    expect(code, `${id}: fence the @example in \`\`\`ts ... \`\`\``).toBeDefined()
    expect(typeErrors.get(file) ?? [], `${id}: its example does not type-check`).toEqual([])
    const failure = await (runsInNode ? nodeRuns : browserRuns).get(id)
    if (failure !== undefined) {
      throw new Error(`${id}: its example failed in ${runsInNode ? 'Node' : 'Chromium'}: ${failure}`)
    }
  },
  120_000,
)
