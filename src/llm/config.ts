import { DEFAULT_MODELS, type Stage } from './models.js';
import type { PriceTable } from './prices.js';

export type Env = Record<string, string | undefined>;

export interface RetryPolicy {
  /** Attempts after the first (0: none). */
  maxRetries: number;
  /** First backoff; each retry doubles it, up to `maxDelayMs`, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface ModelClientOptions {
  /** Default `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** Default `ANTHROPIC_BASE_URL`, else the API's own address. */
  baseURL?: string;
  /** One model for both stages; default `AUTOMODE_MODEL`, else `DEFAULT_MODELS`. */
  model?: string;
  /** A model per stage; wins over `model`. */
  models?: Partial<Record<Stage, string>>;
  /** Where the variables above are read; default `process.env`. */
  env?: Env;
  /** Overall deadline of a call (default 30 s). */
  timeoutMs?: number;
  /** Limit for one attempt (default 15 s). */
  attemptTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Stream by default (a call option overrides it). */
  stream?: boolean;
  /** Prices per model-id prefix, merged over `DEFAULT_PRICES`. */
  prices?: PriceTable;
  /** Jitter source in [0, 1); default `Math.random`. */
  random?: () => number;
}

export interface ModelConfig {
  apiKey: string | undefined;
  baseURL: string | undefined;
  models: Record<Stage, string>;
  timeoutMs: number;
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  stream: boolean;
  logFromEnv: boolean;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = { maxRetries: 2, baseDelayMs: 250, maxDelayMs: 4000 };

export function resolveConfig(options: ModelClientOptions = {}): ModelConfig {
  const env = options.env ?? process.env;
  return {
    apiKey: nonBlank(options.apiKey) ?? nonBlank(env.ANTHROPIC_API_KEY),
    baseURL: nonBlank(options.baseURL) ?? nonBlank(env.ANTHROPIC_BASE_URL),
    models: resolveModels(options),
    timeoutMs: positive(options.timeoutMs, 30_000),
    attemptTimeoutMs: positive(options.attemptTimeoutMs, 15_000),
    retry: {
      maxRetries: count(options.retry?.maxRetries, DEFAULT_RETRY.maxRetries),
      baseDelayMs: positive(options.retry?.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
      maxDelayMs: positive(options.retry?.maxDelayMs, DEFAULT_RETRY.maxDelayMs),
    },
    stream: options.stream ?? false,
    logFromEnv: nonBlank(env.ANTHROPIC_LOG) !== undefined,
  };
}

/** The model of each stage: `models`, then `model`, then `AUTOMODE_MODEL`, then the defaults. */
export function resolveModels(options: Pick<ModelClientOptions, 'model' | 'models' | 'env'> = {}) {
  const env = options.env ?? process.env;
  const one = nonBlank(options.model) ?? nonBlank(env.AUTOMODE_MODEL);
  const pick = (stage: Stage) => nonBlank(options.models?.[stage]) ?? one ?? DEFAULT_MODELS[stage];
  return { 1: pick(1), 2: pick(2) } satisfies Record<Stage, string>;
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function count(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
