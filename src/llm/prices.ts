/**
 * Estimated prices in USD per million tokens, by model-id prefix (the longest matching prefix wins, so a
 * family entry such as `claude-haiku` prices models this table does not name). These are estimates taken from
 * Anthropic's published price list (Haiku 5.5: the rates for prompts up to 100,000 tokens; longer prompts cost
 * more) and go stale: pass `prices` to `createModelClient` to correct or extend them.
 */
export interface ModelPrice {
  input: number;
  output: number;
  /** 5-minute cache writes. */
  cacheWrite: number;
  /** 1-hour cache writes. */
  cacheWrite1h: number;
  cacheRead: number;
}

export type PriceTable = Record<string, ModelPrice>;

export const DEFAULT_PRICES: Readonly<PriceTable> = {
  'claude-haiku-5-5': { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheWrite1h: 0.2, cacheRead: 0.01 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheWrite1h: 2, cacheRead: 0.1 },
  'claude-sonnet-5-5': { input: 2, output: 10, cacheWrite: 2.5, cacheWrite1h: 4, cacheRead: 0.1 },
  'claude-sonnet-5': { input: 2, output: 10, cacheWrite: 2.5, cacheWrite1h: 4, cacheRead: 0.2 },
  'claude-sonnet-4': { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 },
  'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheWrite1h: 8, cacheRead: 0.4 },
  'claude-opus-4-1': { input: 15, output: 75, cacheWrite: 18.75, cacheWrite1h: 30, cacheRead: 1.5 },
  'claude-haiku': { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheWrite1h: 0.2, cacheRead: 0.01 },
  'claude-sonnet': { input: 2, output: 10, cacheWrite: 2.5, cacheWrite1h: 4, cacheRead: 0.1 },
  'claude-opus': { input: 5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10, cacheRead: 0.5 },
};

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWrite1hTokens: number;
}

export function priceFor(model: string, table: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : table[best];
}

export function estimateCostUsd(
  model: string,
  t: TokenCounts,
  table: PriceTable = DEFAULT_PRICES,
): number | null {
  const p = priceFor(model, table);
  if (!p) return null;
  const write5m = Math.max(0, t.cacheWriteTokens - t.cacheWrite1hTokens);
  const micro =
    t.inputTokens * p.input +
    t.outputTokens * p.output +
    t.cacheReadTokens * p.cacheRead +
    write5m * p.cacheWrite +
    t.cacheWrite1hTokens * p.cacheWrite1h;
  return Math.round(micro * 1000) / 1e9;
}
