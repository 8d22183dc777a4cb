import Anthropic from '@anthropic-ai/sdk';
import { attemptOnce } from './attempt.js';
import { type CacheTracker, createCacheTracker } from './cache.js';
import { type ModelClientOptions, type ModelConfig, resolveConfig } from './config.js';
import type { AttemptFailure } from './errors.js';
import { checkMessage } from './message.js';
import type { Stage } from './models.js';
import { DEFAULT_PRICES, estimateCostUsd, type PriceTable } from './prices.js';
import { backoffMs } from './retry.js';
import type {
  CallFailure,
  CallOptions,
  CallUsage,
  Message,
  ModelCaller,
  ModelRequest,
  ResolvedRequest,
} from './types.js';
import { prefixHash, tokenCounts } from './usage.js';

export interface ModelClient extends ModelCaller {
  readonly config: Readonly<ModelConfig>;
  /** False without an API key or base URL: every call then fails with `auth` and sends nothing. */
  readonly configured: boolean;
  /** The SDK client (`maxRetries: 0`), for what this layer does not wrap, such as `messages.batches`. */
  readonly sdk: Anthropic;
}

export function createModelClient(options: ModelClientOptions = {}): ModelClient {
  const config = resolveConfig(options);
  const sdk = new Anthropic({
    // Without a key, requests go out without credentials (a proxy at the base URL adds its own): the SDK gets
    // a placeholder so that it does not look for profiles on disk, and the null header keeps it from being sent.
    apiKey: config.apiKey ?? 'automode-no-key',
    ...(config.apiKey === undefined ? { defaultHeaders: { authorization: null } } : {}),
    authToken: null,
    baseURL: config.baseURL ?? null,
    maxRetries: 0,
    timeout: config.attemptTimeoutMs,
    ...(config.logFromEnv ? {} : { logLevel: 'off' as const }),
  });
  const prices: PriceTable = { ...DEFAULT_PRICES, ...options.prices };
  const cache = createCacheTracker();
  const random = options.random ?? Math.random;
  const configured = config.apiKey !== undefined || config.baseURL !== undefined;

  const resolve = (request: ModelRequest, stage: Stage = 1): ResolvedRequest => ({
    ...request,
    model: request.model ?? config.models[stage],
  });

  return {
    config,
    configured,
    sdk,
    resolve,
    async call(request, callOptions = {}) {
      const resolved = resolve(request, callOptions.stage);
      if (!configured) {
        const message = 'no model configured: set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL';
        return { ok: false, kind: 'auth', message, attempts: 0, latencyMs: 0 };
      }
      try {
        const result = await withRetries(sdk, resolved, config, callOptions, random);
        if (!result.ok) return result;
        return { ...result, usage: usageOf(result.message, resolved, prices, cache) };
      } catch (error) {
        const message = `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
        return { ok: false, kind: 'malformed', message, attempts: 0, latencyMs: 0 };
      }
    },
  };
}

type Answer = { ok: true; message: Message; attempts: number; latencyMs: number };

async function withRetries(
  sdk: Anthropic,
  request: ResolvedRequest,
  config: ModelConfig,
  options: CallOptions,
  random: () => number,
): Promise<Answer | CallFailure> {
  const started = performance.now();
  const budget = positiveOr(options.timeoutMs, config.timeoutMs);
  const deadline = started + budget;
  const attemptLimit = positiveOr(options.attemptTimeoutMs, config.attemptTimeoutMs);
  const stream = options.stream ?? config.stream;
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (f: Pick<AttemptFailure, 'kind' | 'message' | 'status'>, attempts: number): CallFailure => {
    const failure: CallFailure = {
      ok: false,
      kind: f.kind,
      message: f.message,
      attempts,
      latencyMs: elapsed(),
    };
    if (f.status !== undefined) failure.status = f.status;
    return failure;
  };

  let attempts = 0;
  for (;;) {
    if (options.signal?.aborted) return fail({ kind: 'aborted', message: 'call aborted' }, attempts);
    const left = deadline - performance.now();
    if (left <= 0) return fail({ kind: 'timeout', message: `no answer within ${budget} ms` }, attempts);
    attempts++;
    const outcome = await attemptOnce(sdk, request, stream, Math.min(attemptLimit, left), options.signal);
    if (outcome.ok) {
      const checked = checkMessage(outcome.body);
      if (checked.ok) return { ok: true, message: checked.message, attempts, latencyMs: elapsed() };
      return fail({ kind: 'malformed', message: checked.message }, attempts);
    }
    if (!outcome.retryable || attempts > config.retry.maxRetries) return fail(outcome, attempts);
    const wait = outcome.retryAfterMs ?? backoffMs(attempts, config.retry, random);
    if (performance.now() + wait >= deadline) {
      const why = outcome.retryAfterMs === undefined ? 'backoff' : 'retry-after';
      return fail(
        { ...outcome, message: `${outcome.message} (${why} of ${Math.round(wait)} ms passes the deadline)` },
        attempts,
      );
    }
    if (!(await sleep(wait, options.signal)))
      return fail({ kind: 'aborted', message: 'call aborted' }, attempts);
  }
}

function usageOf(
  message: Message,
  request: ResolvedRequest,
  prices: PriceTable,
  cache: CacheTracker,
): CallUsage {
  const counts = tokenCounts(message);
  const model = typeof message.model === 'string' && message.model ? message.model : request.model;
  const hash = prefixHash(request);
  const usage: CallUsage = {
    model,
    ...counts,
    costUsd: estimateCostUsd(model, counts, prices),
    prefixHash: hash,
  };
  const warning = cache.observe(hash, counts);
  if (warning !== undefined) usage.cacheMissWarning = warning;
  return usage;
}

/** Resolves true after `ms`, false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
