/**
 * `@msw/data`, as the store uses it. In the sources (tests, the playground) this re-exports the
 * package; `npm run build` replaces its built file, `dist/vendor/msw-data.js`, with the package
 * bundled and tree-shaken (scripts/bundle-vendor.ts): `@msw/data` imports the whole
 * `es-toolkit/compat` barrel (555 modules) for three functions, which cost a fresh Node process
 * ~100 ms of its start; the bundle loads in ~35 ms. Same code, same behaviour.
 */
export { Collection } from '@msw/data'
