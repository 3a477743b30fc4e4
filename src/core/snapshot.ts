import * as z from 'zod/mini'
import english from 'zod/v4/locales/en.js'
import { parseDomainInput } from '../contract/hostname.ts'
import { KEY_PATTERN } from '../contract/key-format.ts'
import type { KeyStatus } from '../contract/key-status.ts'
import {
  domainSchema,
  keySchema,
  linkSchema,
  MAX_DOMAINS,
  MAX_DOMAINS_PER_KEY,
  MAX_KEYS,
  MAX_LINKS,
} from '../store/schemas.ts'
import { hasControlCharacters } from '../text/control-characters.ts'

/** zod/mini has no messages of its own: English ones for this parse (zod's global config is left alone). */
const messages = english().localeError

/** An invalid snapshot's error names this many problems, then counts the rest. */
const SHOWN_ISSUES = 10

// zod's tree-shakable "mini" build: the same checks, a tenth of the bytes in the browser's first chunk.
const count = () => z.int().check(z.nonnegative())

const day = z.object({
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  total: count(),
  byStatus: z.record(z.string(), count()),
  byEndpoint: z.record(z.string(), count()),
})

const snapshotSchema = z
  .object({
    format: z.literal('tmaps-mock/snapshot'),
    version: z.literal(1),
    keys: z.array(
      z.extend(keySchema, {
        value: z.string().check(z.regex(KEY_PATTERN, 'not a TMaps key (ak_ + 32 lower-case hex)')),
        name: z
          .string()
          .check(
            z.refine((name) => !hasControlCharacters(name), 'contains control characters (ESC, line breaks)'),
          ),
        // Snapshots saved before 0.2 name the enabled status `active`: still accepted.
        status: z.pipe(
          z.transform((s: KeyStatus | 'active') => (s === 'active' ? 'enabled' : s)),
          keySchema.shape.status,
        ),
      }),
    ),
    domains: z.array(
      domainSchema.check(
        z.refine((d) => {
          const parsed = parseDomainInput(d.hostname)
          return parsed.ok && parsed.hostname === d.hostname
        }, 'not a normalized hostname (lower case, punycode, no scheme, port or path)'),
      ),
    ),
    links: z.array(linkSchema),
    usage: z._default(z.record(z.string(), z.array(day)), {}),
    keyIndex: z._default(count(), 0),
  })
  .check(
    z.superRefine((s, ctx) => {
      const ids = new Set<string>()
      const values = new Set<string>()
      s.keys.forEach((k, i) => {
        if (ids.has(k.id))
          ctx.addIssue({ code: 'custom', path: ['keys', i, 'id'], message: 'duplicate key id' })
        if (values.has(k.value))
          ctx.addIssue({ code: 'custom', path: ['keys', i, 'value'], message: 'duplicate key value' })
        ids.add(k.id)
        values.add(k.value)
      })
      const hostnames = new Set<string>()
      s.domains.forEach((d, i) => {
        if (hostnames.has(d.hostname))
          ctx.addIssue({ code: 'custom', path: ['domains', i], message: 'duplicate domain' })
        hostnames.add(d.hostname)
      })
      const pairs = new Set<string>()
      const perKey = new Map<string, number>()
      s.links.forEach((l, i) => {
        const linked = (perKey.get(l.keyId) ?? 0) + 1
        perKey.set(l.keyId, linked)
        if (linked === MAX_DOMAINS_PER_KEY + 1)
          ctx.addIssue({
            code: 'custom',
            path: ['links', i],
            message: `links key ${l.keyId} to more than ${MAX_DOMAINS_PER_KEY} domains, the most one key may have`,
          })
        if (!ids.has(l.keyId))
          ctx.addIssue({
            code: 'custom',
            path: ['links', i, 'keyId'],
            message: 'links a key that is not in keys',
          })
        if (!hostnames.has(l.hostname))
          ctx.addIssue({
            code: 'custom',
            path: ['links', i, 'hostname'],
            message: 'links a domain that is not in domains',
          })
        const pair = `${l.keyId} ${l.hostname}`
        if (pairs.has(pair)) ctx.addIssue({ code: 'custom', path: ['links', i], message: 'duplicate link' })
        pairs.add(pair)
      })
    }),
  )

/**
 * The whole console state as JSON, from `mock.snapshot()`, for `state` or `mock.restore()`.
 *
 * Keys (with their full values: treat a snapshot like a `.env` file), authorized domains, links
 * and usage counters. The request log is not state.
 * @example
 * ```ts
 * import assert from 'node:assert/strict'
 * import { createTmapsMock, type TmapsSnapshot } from 'tmaps-mock'
 *
 * const first = createTmapsMock({ state: 'empty' })
 * await first.console.createKey({ name: 'Web', domains: ['localhost'] })
 * const snapshot: TmapsSnapshot = first.snapshot() // full key values: keep it like a .env file
 * const second = createTmapsMock({ state: snapshot })
 * await second.ready
 * assert.deepEqual(second.console.listKeys(), first.console.listKeys())
 * ```
 */
export type TmapsSnapshot = z.input<typeof snapshotSchema>
export type ParsedSnapshot = z.output<typeof snapshotSchema>

/**
 * Validates a snapshot (an object or its JSON text) and throws a message that names each
 * problem by its path, e.g. `keys[2].value: not a TMaps key`.
 * @example parseSnapshot(mock.snapshot())
 */
export function parseSnapshot(input: unknown): ParsedSnapshot {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch (error) {
      throw new TypeError(
        `Failed to restore the snapshot: it is not valid JSON (${(error as Error).message}).`,
      )
    }
  }
  // Sizes first: a huge snapshot is refused before any of it is validated.
  const sizes = value as { keys?: unknown; domains?: unknown; links?: unknown } | null
  for (const [name, max] of [
    ['keys', MAX_KEYS],
    ['domains', MAX_DOMAINS],
    ['links', MAX_LINKS],
  ] as const) {
    const list = sizes && typeof sizes === 'object' ? sizes[name] : undefined
    if (Array.isArray(list) && list.length > max) {
      throw new TypeError(
        `Failed to restore the snapshot: it has ${list.length} ${name}; a tmaps-mock console holds at most ${max}.`,
      )
    }
  }
  const result = snapshotSchema.safeParse(value, { error: messages })
  if (!result.success) {
    const issues = result.error.issues
    const shown = { issues: issues.slice(0, SHOWN_ISSUES) }
    const more = issues.length > SHOWN_ISSUES ? `\n(and ${issues.length - SHOWN_ISSUES} more problems)` : ''
    throw new TypeError(
      `Failed to restore the snapshot: it does not match the tmaps-mock snapshot format. Take one with mock.snapshot().\n${z.prettifyError(shown)}${more}`,
    )
  }
  return result.data
}
