import type { KeyStatus } from '../contract/key-status.ts'
import { createKeyGenerator } from '../data/seeded.ts'
import type { ParsedSnapshot } from './snapshot.ts'

/** The fictitious but real-looking production site of the demo console. */
const DEMO_SITE = 'jasmin-delivery.tn'

/**
 * The `demo` state: a small, realistic console, the same every time for the same seed.
 * - "Web app (local dev)": enabled, linked to `localhost` only (so a page on `127.0.0.1` is refused:
 *   another host; the domain `127.0.0.1` is authorized but linked to no key, one click away);
 * - "Backend (server-side)": enabled, no domains (works without Origin/Referer only);
 * - "Production frontend": enabled, linked to `www.` and `app.jasmin-delivery.tn`;
 * - "Staging frontend": disabled, linked to `staging.jasmin-delivery.tn`;
 * - "Old mobile app": revoked.
 * @example demoSnapshot('tmaps-demo').keys.length // 5
 */
export function demoSnapshot(seed: string | number): ParsedSnapshot {
  const generator = createKeyGenerator(seed)
  const at = (date: string) => `${date}T09:00:00.000Z`
  const key = (name: string, status: KeyStatus, created: string, updated = created) => ({
    ...generator.next(),
    name,
    status,
    createdAt: at(created),
    updatedAt: at(updated),
  })
  const keys = [
    key('Web app (local dev)', 'enabled', '2026-09-01'),
    key('Backend (server-side)', 'enabled', '2026-09-01'),
    key('Production frontend', 'enabled', '2026-09-15'),
    key('Staging frontend', 'disabled', '2026-09-20', '2026-10-30'),
    key('Old mobile app', 'revoked', '2026-03-02', '2026-08-01'),
  ] as const
  const hostnames = ['localhost', '127.0.0.1', `www.${DEMO_SITE}`, `app.${DEMO_SITE}`, `staging.${DEMO_SITE}`]
  const link = (k: (typeof keys)[number], hostname: string) => ({
    keyId: k.id,
    hostname,
    createdAt: k.createdAt,
  })
  return {
    format: 'tmaps-mock/snapshot',
    version: 1,
    keys: [...keys],
    domains: hostnames.map((hostname) => ({ hostname, createdAt: at('2026-09-01') })),
    links: [
      link(keys[0], 'localhost'),
      link(keys[2], `www.${DEMO_SITE}`),
      link(keys[2], `app.${DEMO_SITE}`),
      link(keys[3], `staging.${DEMO_SITE}`),
    ],
    usage: {},
    keyIndex: generator.index,
  }
}
