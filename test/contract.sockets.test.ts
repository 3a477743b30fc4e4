import { describeContract } from './support/contract-suite.ts'
import { socketRuntimes } from './support/runtimes.ts'

// The same suite as contract.test.ts, over real sockets (no setupServer in this file).
for (const runtime of socketRuntimes()) describeContract(runtime)
