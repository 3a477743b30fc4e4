/**
 * `@msw/data`, as the store uses it. In the sources (tests, the playground) this re-exports the
 * package; `npm run build` replaces its built file, `dist/vendor/msw-data.js`, with the package
 * bundled and tree-shaken (scripts/bundle-vendor.ts): `@msw/data` imports the whole
 * `es-toolkit/compat` barrel for three functions, which a fresh Node process would load at its
 * start (docs/performance.md, "Figures behind choices"). Same code, same behaviour.
 */
export { Collection } from '@msw/data'
