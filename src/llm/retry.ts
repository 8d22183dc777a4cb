import type { RetryPolicy } from './config.js';

type HeaderSource = { get(name: string): string | null } | undefined;

/**
 * How long the server asks us to wait: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date.
 * Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with "equal jitter": half the step fixed, half random. `retry` counts from 1. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return step / 2 + (step / 2) * Math.min(1, Math.max(0, random()));
}
