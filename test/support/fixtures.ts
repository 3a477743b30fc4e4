import type { DecisionFacts } from '../../src/contract/decide.ts'

/** The facts of a page on 127.0.0.1 calling with the local-dev key (linked to localhost only). */
export const LOOPBACK_FACTS: DecisionFacts = {
  scheme: 'https',
  key: 'ak_14cb…',
  keyId: 'key_1',
  via: 'origin',
  header: 'http://127.0.0.1:5173',
  host: '127.0.0.1',
  linked: ['localhost'],
  reconstructed: true,
  simulated: false,
}
