export { type CacheTracker, cacheMissWarning, createCacheTracker } from './cache.js';
export { canonicalJson } from './canonical.js';
export { createModelClient, type ModelClient } from './client.js';
export {
  DEFAULT_RETRY,
  type Env,
  isModelConfigured,
  type ModelClientOptions,
  type ModelConfig,
  type RetryPolicy,
  resolveModels,
} from './config.js';
export { forcedToolResult, type ToolInputResult } from './forced-tool.js';
export { DEFAULT_MODELS, type Stage } from './models.js';
export {
  DEFAULT_PRICES,
  estimateCostUsd,
  type ModelPrice,
  type PriceTable,
  priceFor,
  type TokenCounts,
} from './prices.js';
export {
  createRecorder,
  createReplayClient,
  type FileStatus,
  loadReplayClient,
  parseRecording,
  type RecordedExchange,
  type Recorder,
  type ReplayClient,
  requestHash,
} from './recording.js';
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
export { prefixHash, tokenCounts } from './usage.js';
