/** msw 3 (and so every MSW runtime of tmaps-mock) needs this Node. */
const MIN_NODE = [22, 12] as const

/**
 * Throws a clear error on a Node older than msw 3 needs, instead of msw's own failure deep
 * inside the first request (`fetch failed`, caused by `Promise.withResolvers is not a function`).
 * @example assertNodeVersion('tmaps-mock/node', '20.19.0') // throws
 */
export function assertNodeVersion(entry: string, version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return
  throw new Error(
    `${entry}: tmaps-mock needs Node >= ${MIN_NODE.join('.')} (msw 3); this is Node ${version}. Upgrade Node, or add the \`node\` package as a devDependency (npm i -D node@24), which npm scripts then use.`,
  )
}
