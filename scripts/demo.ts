/**
 * `npm start`: a walkthrough of the demo console in the terminal, until the Vite playground
 * (issue #4) replaces it. Real requests through msw's setupServer and real fetch; each answer
 * is printed with the decision that made it, in plain words.
 */
import { setupTmapsServer } from '../mocks/node.ts'
import { DATA_ATTRIBUTION } from '../src/data/gazetteer.ts'

const { server, mock } = setupTmapsServer()
server.listen({ onUnhandledFrame: 'error' })
const { createdKeys } = await mock.ready
const [web, backend, production, staging, old] = createdKeys

console.log('tmaps-mock: the demo console\n')
console.log('New keys are shown in full once, as the TMaps console does:')
for (const k of createdKeys) console.log(`  ${k.value}  ${k.name}`)
console.log('\nThe key list (by prefix, as the console lists them):')
for (const k of mock.console.listKeys()) {
  console.log(
    `  ${`${k.prefix}…`.padEnd(10)} ${k.name.padEnd(24)} ${k.status.padEnd(9)} ${k.domains.join(', ') || '(no domains)'}`,
  )
}

const scenarios: Array<[string, string, Record<string, string>]> = [
  [
    'curl, server-side key, no Origin',
    `https://api.tmaps.tn/geocoding/forward?q=Sidi%20Bou%20Said&limit=1&api_key=${backend!.value}`,
    {},
  ],
  [
    'browser on localhost, web key',
    `https://api.tmaps.tn/geocoding/forward?q=Djerba&limit=1&api_key=${web!.value}`,
    { Origin: 'http://localhost:5173' },
  ],
  [
    'browser on localhost, server-side key',
    `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${backend!.value}`,
    { Origin: 'http://localhost:5173' },
  ],
  [
    'browser on localhost, production key',
    `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${production!.value}`,
    { Origin: 'http://localhost:5173' },
  ],
  [
    'the production site, production key',
    `https://api.tmaps.tn/geocoding/forward?q=12%20Avenue%20Habib%20Bourguiba%2C%20Sousse&limit=1&api_key=${production!.value}`,
    { Origin: 'https://www.jasmin-delivery.tn' },
  ],
  ['disabled staging key', `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${staging!.value}`, {}],
  ['revoked key', `https://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${old!.value}`, {}],
  ['plain HTTP', `http://api.tmaps.tn/geocoding/forward?q=Sfax&api_key=${backend!.value}`, {}],
  [
    'key in an Authorization header',
    'https://api.tmaps.tn/geocoding/forward?q=Sfax',
    { Authorization: `Bearer ${backend!.value}` },
  ],
]

console.log('\nRequests, and why each got its answer:')
for (const [title, url, headers] of scenarios) {
  const response = await fetch(url, { headers })
  const body = await response.json()
  const entry = mock.log.entries()[0]!
  const answer = body.error ? JSON.stringify(body) : (body.results[0]?.formatted ?? 'no result')
  console.log(`\n  ${title}\n    ${response.status} ${answer}\n    ${entry.reason}`)
}

server.close()
console.log(`\n${DATA_ATTRIBUTION}`)
