// opentype.js 2 ships its ES module at this path, typed by @types/opentype.js.
declare module 'opentype.js/dist/opentype.mjs' {
  export * from 'opentype.js'
}
