#!/usr/bin/env node
/**
 * The `tmaps-mock` command. It turns on Node's module compile cache first (V8's compiled code kept
 * on disk, in `os.tmpdir()/node-compile-cache` or `NODE_COMPILE_CACHE`; `NODE_DISABLE_COMPILE_CACHE=1`
 * turns it off), then loads the command: every later start reads its modules' code from that cache.
 */
import nodeModule from 'node:module'

// Not a named import: Node 20 (where `playground` runs) has no enableCompileCache.
nodeModule.enableCompileCache?.()
await import('./main.ts')
