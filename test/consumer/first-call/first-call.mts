import { setupTmapsNode } from 'tmaps-mock/node'

const { server, mock } = setupTmapsNode() // the demo console
server.listen({ onUnhandledFrame: 'bypass' })
const { createdKeys } = await mock.ready // the demo keys' full values, shown this once
const key = createdKeys.find((k) => k.name === 'Web app (local dev)')!.value

const url = `https://api.tmaps.tn/geocoding/forward?q=Sousse&limit=1&api_key=${key}`
const fromYourApp = await fetch(url, { headers: { Origin: 'http://localhost:5173' } })
const fromAnotherSite = await fetch(url, { headers: { Origin: 'https://example.com' } })
console.log(fromYourApp.status, (await fromYourApp.json()).results[0].formatted) // 200 4000 Sousse, Tunisie
console.log(fromAnotherSite.status, await fromAnotherSite.json()) // 403 { error: 'domain not authorized' }
server.close()
