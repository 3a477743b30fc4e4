mkdir first-call && cd first-call
npm init -y              # npm 11 writes "type": "commonjs": fine, a .mts file is an ES module anyway
npm i -D tmaps-mock msw
# save the file below as first-call.mts, then:
node first-call.mts      # Node >= 22.18 runs TypeScript as it is (22.12-22.17: add --experimental-strip-types)
