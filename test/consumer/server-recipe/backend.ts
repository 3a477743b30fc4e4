// A backend (or a script, or a mobile app's API layer) calling TMaps; in development, the mock.
//   terminal 1: npx tmaps-mock serve
//   terminal 2: NODE_EXTRA_CA_CERTS=~/.cache/tmaps-mock/tmaps-mock-ca.pem \
//               TMAPS_URL=https://localhost:8443 TMAPS_KEY=ak_… node backend.ts
//   (Node >= 22.18 runs a .ts file as it is; name it backend.mjs on an older Node)
const base = process.env.TMAPS_URL ?? 'https://api.tmaps.tn'
const response = await fetch(`${base}/geocoding/forward?q=Sousse&limit=1&api_key=${process.env.TMAPS_KEY}`)
const body = await response.json()
console.log(response.status, body.results?.[0]?.formatted ?? body.error)
