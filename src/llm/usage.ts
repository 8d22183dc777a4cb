import { canonicalJson, sha256 } from './canonical.js';
import type { TokenCounts } from './prices.js';
import type { Message, ResolvedRequest } from './types.js';

export function tokenCounts(message: Message): TokenCounts {
  const u = message.usage;
  return {
    inputTokens: count(u.input_tokens),
    outputTokens: count(u.output_tokens),
    cacheReadTokens: count(u.cache_read_input_tokens),
    cacheWriteTokens: count(u.cache_creation_input_tokens),
    cacheWrite1hTokens: count(u.cache_creation?.ephemeral_1h_input_tokens),
  };
}

/** The prompt cache holds the prefix tools → system; it is kept per model, so the model is part of the hash. */
export function prefixHash(request: Pick<ResolvedRequest, 'model' | 'system' | 'tools'>): string {
  return sha256(canonicalJson({ model: request.model, system: request.system, tools: request.tools }));
}

/** Tokens a text takes, estimated at four characters a token, where no API counts them. */
export function estimatedTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function count(n: number | null | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}
