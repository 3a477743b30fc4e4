import { describeContract } from './support/contract-suite.ts'
import { nodeRuntimes } from './support/runtimes.ts'

for (const runtime of nodeRuntimes()) describeContract(runtime)
