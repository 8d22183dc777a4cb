export { type CacheTracker, cacheMissWarning, createCacheTracker } from './cache.js';
export { canonicalJson, requestHash, sha256 } from './canonical.js';
// client.ts (the Anthropic SDK), recording.ts and message.ts (zod) are lazy entries: other folders load them
// with import() when a model is used, so that a decision by the rules alone never pays for them.
export type { ModelClient } from './client.js';
export {
  DEFAULT_RETRY,
  type Env,
  type ModelClientOptions,
  type ModelConfig,
  type RetryPolicy,
  resolveModels,
} from './config.js';
export { forcedToolResult, type ToolInputResult } from './forced-tool.js';
export { loadModelClient } from './load-client.js';
export { DEFAULT_MODELS, type Stage } from './models.js';
export {
  DEFAULT_PRICES,
  estimateCostUsd,
  type ModelPrice,
  type PriceTable,
  priceFor,
  type TokenCounts,
} from './prices.js';
export type { FileStatus, RecordedExchange, Recorder, ReplayClient } from './recording.js';
export { backoffMs, retryAfterMs } from './retry.js';
export type {
  CallFailure,
  CallOptions,
  CallResult,
  CallSuccess,
  CallUsage,
  FailureKind,
  Message,
  ModelCaller,
  ModelFailure,
  ModelRequest,
  ResolvedRequest,
} from './types.js';
export { estimatedTokens, prefixHash, tokenCounts } from './usage.js';
