import * as z from 'zod/mini'
import { KEY_STATUSES } from '../contract/key-status.ts'

/** The most a console (and a snapshot) holds: far above any real console, and bounded. */
export const MAX_KEYS = 100_000
export const MAX_DOMAINS = 100_000
export const MAX_LINKS = 1_000_000
/**
 * The most domains one key may be linked to. TMaps's console shows a handful per key; a
 * thousand leaves room for any real setup and keeps every console action and load fast.
 */
export const MAX_DOMAINS_PER_KEY = 1000

/** A key as the console stores it. The full `value` never leaves the store but once. */
export const keySchema = z.object({
  id: z.string(),
  name: z.string(),
  value: z.string(),
  status: z.enum(KEY_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
})

/** An authorized domain: its own console record, linked N:N with keys. */
export const domainSchema = z.object({
  hostname: z.string(),
  createdAt: z.string(),
})

/** One link between a key and an authorized domain. */
export const linkSchema = z.object({
  keyId: z.string(),
  hostname: z.string(),
  createdAt: z.string(),
})

export type KeyRecord = z.infer<typeof keySchema>
export type DomainRecord = z.infer<typeof domainSchema>
export type LinkRecord = z.infer<typeof linkSchema>
