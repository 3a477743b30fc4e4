import type { IndexHtmlTransformContext, Plugin, ResolvedConfig } from 'vite'
import { describe, expect, it } from 'vitest'
import { tmapsMock } from './index.ts'

/** The plugin's HTML hook, as `vite dev` calls it, with `base`. */
function devHtml(html: string, base = '/'): string {
  const mock = tmapsMock().find((p) => p.name === 'tmaps-mock') as Plugin
  ;(mock.configResolved as (c: Partial<ResolvedConfig>) => void)({ base, plugins: [] })
  const hook = mock.transformIndexHtml as {
    handler: (html: string, ctx: IndexHtmlTransformContext) => string
  }
  return hook.handler(html, { server: {} } as IndexHtmlTransformContext)
}
const wrapped = (src: string, base = '/') =>
  `${base}@id/virtual:tmaps-mock/entry?src=${encodeURIComponent(src)}`

describe('tmapsMock (vite dev)', () => {
  it.each([
    [
      'an entry',
      '<script type="module" src="/src/main.ts"></script>',
      `<script type="module" src="${wrapped('/src/main.ts')}"></script>`,
    ],
    [
      'a relative entry, other attributes kept',
      `<script nonce="n>1" type=module src='./main.ts' crossorigin></script>`,
      `<script nonce="n>1" type=module src="${wrapped('./main.ts')}" crossorigin></script>`,
    ],
    [
      "Vite's client, left alone",
      '<script type="module" src="/@vite/client"></script>',
      '<script type="module" src="/@vite/client"></script>',
    ],
    [
      'another origin, left alone',
      '<script type="module" src="https://cdn.example/x.js"></script>',
      '<script type="module" src="https://cdn.example/x.js"></script>',
    ],
    [
      'a classic script, left alone',
      '<script src="/legacy.js"></script>',
      '<script src="/legacy.js"></script>',
    ],
    [
      'a commented-out entry, left alone',
      '<!-- <script type="module" src="/old.ts"></script> -->',
      '<!-- <script type="module" src="/old.ts"></script> -->',
    ],
  ])('wraps %s', (_name, html, expected) => {
    expect(devHtml(html)).toBe(expected)
  })

  it('wraps under a base other than /', () => {
    expect(devHtml('<script type="module" src="/app/src/main.ts"></script>', '/app/')).toBe(
      `<script type="module" src="${wrapped('/app/src/main.ts', '/app/')}"></script>`,
    )
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
