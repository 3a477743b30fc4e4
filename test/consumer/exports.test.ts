import { afterAll, beforeAll, expect, it } from 'vitest'
import { cleanUp } from '../support/cleanup.ts'
import { type ConsumerProject, consumerProject } from '../support/packed.ts'
import { type DeclaredEntry, formatPublicApi, PUBLIC_ENTRIES, readPublicApi } from '../support/public-api.ts'

/**
 * The public API as a consumer gets it: every entry of `package.json`'s `exports`, read from the
 * `.d.ts` files of the packed tarball installed in a fresh project, pinned in
 * `__snapshots__/exports.snap.txt` (one export a line). A change to the API shows there as a
 * diff to review; accept it with `npx vitest run test/consumer/exports.test.ts -u`.
 */
let project: ConsumerProject
let declared: DeclaredEntry[]
beforeAll(async () => {
  project = await consumerProject('exports')
  declared = readPublicApi(project.dir)
}, 400_000)
afterAll(() => cleanUp({ 'remove the project': () => project?.remove() }))

const nodeEntries = PUBLIC_ENTRIES.filter((entry) => entry.runsInNode)

it.each(PUBLIC_ENTRIES.map((e) => [e.key, e.types]))('ships the declarations of %s (%s)', (key) => {
  const entry = declared.find((e) => e.key === key)!
  expect(
    entry.exports,
    `package.json exports ${key} with types ${entry.types}, but the packed package has no such file (is its source missing from tsconfig.build.json's build?)`,
  ).toBeDefined()
})

it('pins every export of every entry, with its kind and type', async () => {
  await expect(formatPublicApi(declared)).toMatchFileSnapshot('./__snapshots__/exports.snap.txt')
})

it('marks the deprecated aliases deprecated', () => {
  const deprecated = declared.flatMap((e) =>
    (e.exports ?? []).filter((x) => x.deprecated !== undefined).map((x) => `${e.specifier} ${x.name}`),
  )
  expect(deprecated).toEqual(
    expect.arrayContaining([
      'tmaps-mock/node setupTmapsServer',
      'tmaps-mock/server startTmapsServer',
      'tmaps-mock/server TmapsServer',
      'tmaps-mock/server TmapsServerOptions',
    ]),
  )
})

it.each(nodeEntries.map((e) => [e.specifier]))(
  'gives in Node exactly the values that %s declares',
  (specifier) => {
    const entry = declared.find((e) => e.specifier === specifier)!
    expect(entry.exports, `no declarations for ${specifier}`).toBeDefined()
    const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()))`
    const runtime = JSON.parse(project.run('node', ['--input-type=module', '-e', script])) as string[]
    const values = entry.exports!.filter((x) => x.isValue).map((x) => x.name)
    expect(runtime).toEqual(values.sort())
  },
  30_000,
)
