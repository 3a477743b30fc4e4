export type { ConsoleErrorCode } from './console/console-error.ts'
export { TmapsConsoleError } from './console/console-error.ts'
export type {
  CreatedKey,
  CreateKeyInput,
  DomainInfo,
  KeyInfo,
  KeyRef,
  TmapsConsole,
} from './console/create-console.ts'
export type { LogEntry, LogListener, RequestLog } from './console/request-log.ts'
export type { UsageReport } from './console/usage.ts'
export type { Decision, DecisionFacts, RequestFacts } from './contract/decide.ts'
export { decide } from './contract/decide.ts'
export { explainDecision } from './contract/explain.ts'
export { hostFromHeader, parseDomainInput } from './contract/hostname.ts'
export { isKeyValue, KEY_PATTERN, maskKey } from './contract/key-format.ts'
export type { KeyAction, KeyStatus } from './contract/key-status.ts'
export { allowedKeyActions, nextKeyStatus } from './contract/key-status.ts'
export type {
  DirectionBody,
  DirectionParams,
  DirectionResponse,
  DistanceMatrixBody,
  DistanceMatrixResponse,
  ForwardGeocodingParams,
  ForwardGeocodingResponse,
  IsochroneBody,
  IsochroneResponse,
  NearbySearchParams,
  NearbySearchResponse,
  OptimizedRouteBody,
  OptimizedRouteResponse,
  paths,
  RasterTileParams,
  ReverseGeocodingParams,
  ReverseGeocodingResponse,
  StaticMapParams,
  TmapsErrorBody,
} from './contract/openapi.ts'
export type { AuthRule, Rule } from './contract/rejections.ts'
export { REJECTIONS } from './contract/rejections.ts'
export type {
  FaultInput,
  FaultRule,
  FetchOptions,
  TmapsEndpointAnswers,
  TmapsEndpointName,
  TmapsFaults,
  TmapsMockCore,
  TmapsMockOptions,
  TmapsOverride,
  TmapsOverrideContext,
  TmapsOverrideResult,
  TmapsReadyInfo,
  TmapsScenario,
} from './core/create-core.ts'
export { createTmapsCore, DEFAULT_BASE_URL, DEFAULT_TILES_URL } from './core/create-core.ts'
export type { TmapsOverrideEntry, TmapsOverrideSpec } from './core/override-specs.ts'
export { applyOverrides } from './core/override-specs.ts'
export type { TmapsScenarioName } from './core/scenarios.ts'
export { SCENARIO_ENDPOINTS, scenarios } from './core/scenarios.ts'
export { DATA_ATTRIBUTION, MAP_ATTRIBUTION } from './data/attribution.ts'
export { ENDPOINTS } from './endpoints/registry.ts'
export type { TmapsMock } from './runtimes/msw/create-tmaps-mock.ts'
export { createTmapsMock } from './runtimes/msw/create-tmaps-mock.ts'
export type { UsageDay } from './store/schemas.ts'
export type { TmapsSnapshot } from './store/snapshot.ts'
export type { HarEntry, TmapsHar } from './upstream/har.ts'
export type { TmapsReplayOptions } from './upstream/replay.ts'
