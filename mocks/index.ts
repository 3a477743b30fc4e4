export type { ConsoleErrorCode } from '../src/console/console-error.ts'
export { TmapsConsoleError } from '../src/console/console-error.ts'
export type {
  CreatedKey,
  CreateKeyInput,
  DomainInfo,
  KeyInfo,
  KeyRef,
  TmapsConsole,
} from '../src/console/create-console.ts'
export type { LogEntry, LogListener, RequestLog } from '../src/console/request-log.ts'
export type { UsageDay, UsageReport } from '../src/console/usage.ts'
export type { Decision, DecisionFacts, RequestFacts } from '../src/contract/decide.ts'
export { decide } from '../src/contract/decide.ts'
export { explainDecision } from '../src/contract/explain.ts'
export { hostFromHeader, parseDomainInput } from '../src/contract/hostname.ts'
export { isKeyValue, KEY_PATTERN, maskKey } from '../src/contract/key-format.ts'
export type { KeyAction, KeyStatus } from '../src/contract/key-status.ts'
export { allowedKeyActions, nextKeyStatus } from '../src/contract/key-status.ts'
export type { AuthRule, Rule } from '../src/contract/rejections.ts'
export { REJECTIONS } from '../src/contract/rejections.ts'
export type { FetchOptions, TmapsMockOptions, TmapsReadyInfo } from '../src/core/create-core.ts'
export { createTmapsCore, DEFAULT_BASE_URL, DEFAULT_TILES_URL } from '../src/core/create-core.ts'
export type { TmapsSnapshot } from '../src/core/snapshot.ts'
export { DATA_ATTRIBUTION } from '../src/data/attribution.ts'
export { ENDPOINTS } from '../src/endpoints/registry.ts'
export type { TmapsMock } from './create-tmaps-mock.ts'
export { createTmapsMock } from './create-tmaps-mock.ts'
