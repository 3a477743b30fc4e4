mkdir first-call && cd first-call
npm init -y              # npm 11 writes "type": "commonjs": fine, a .mts file is an ES module anyway
npm i -D tmaps-mock msw@3
# save the file below as first-call.mts, then:
node first-call.mts      # Node >= 22.18 runs TypeScript as it is
# Node 22.12-22.17: node --experimental-strip-types first-call.mts
# Node 20:          npx -y node@24 first-call.mts    (npm fetches Node 24 for this one run)
