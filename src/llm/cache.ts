import type { TokenCounts } from './prices.js';

type CacheCounts = Pick<TokenCounts, 'cacheReadTokens' | 'cacheWriteTokens'>;

/** Remembers the last usage per stable prefix and says when the prompt cache stopped working for it. */
export interface CacheTracker {
  observe(prefixHash: string, counts: CacheCounts): string | undefined;
}

/** A warning when the previous call with the same prefix wrote or read the cache and this one read nothing. */
export function cacheMissWarning(
  previous: CacheCounts | undefined,
  current: CacheCounts,
): string | undefined {
  if (!previous || current.cacheReadTokens > 0) return undefined;
  if (previous.cacheReadTokens === 0 && previous.cacheWriteTokens === 0) return undefined;
  const before =
    previous.cacheReadTokens > 0
      ? `read ${previous.cacheReadTokens} cached tokens`
      : `wrote ${previous.cacheWriteTokens} tokens to the cache`;
  return (
    `prompt cache miss: the previous call with this prefix ${before}, this one read none ` +
    `(wrote ${current.cacheWriteTokens}): the cache entry expired, was evicted or the breakpoints moved`
  );
}

/** Keeps the last `limit` prefixes, oldest forgotten first. */
export function createCacheTracker(limit = 256): CacheTracker {
  const last = new Map<string, CacheCounts>();
  return {
    observe(prefixHash, counts) {
      const warning = cacheMissWarning(last.get(prefixHash), counts);
      last.delete(prefixHash);
      last.set(prefixHash, {
        cacheReadTokens: counts.cacheReadTokens,
        cacheWriteTokens: counts.cacheWriteTokens,
      });
      if (last.size > limit) last.delete(last.keys().next().value as string);
      return warning;
    },
  };
}
