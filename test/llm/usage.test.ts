import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  cacheMissWarning,
  canonicalJson,
  DEFAULT_RETRY,
  estimateCostUsd,
  priceFor,
  retryAfterMs,
} from '../../src/llm/index.js';
import { reply } from '../support/messages-server.js';
import { ask, clientFor, useServer } from './helpers.js';

describe('usage and cost', () => {
  const s = useServer();
  const usage = {
    input_tokens: 1000,
    output_tokens: 200,
    cache_read_input_tokens: 5000,
    cache_creation_input_tokens: 2000,
    cache_creation_1h_input_tokens: 500,
  };

  it('reports every token count and an estimated cost, streamed or not', async () => {
    s.server.fallback(reply.text('ok', { usage }));
    // Haiku 5.5: 1000×0.10 + 200×0.50 + 5000×0.01 + 1500×0.125 + 500×0.20 = 537.5 µ$
    for (const stream of [false, true]) {
      const result = await clientFor(s.server).call(ask, { stream });
      expect(result.ok && result.usage).toMatchObject({
        model: 'claude-haiku-5-5',
        inputTokens: 1000,
        outputTokens: 200,
        cacheReadTokens: 5000,
        cacheWriteTokens: 2000,
        cacheWrite1hTokens: 500,
      });
      expect(result.ok && result.usage.costUsd).toBeCloseTo(0.0005375, 12);
    }
  });

  it('prices by the model that answered, with configurable prices and null for unknown models', async () => {
    s.script(
      reply.text('ok', { usage, model: 'claude-sonnet-5-5' }),
      reply.text('ok', { usage, model: 'gpt-x' }),
    );
    s.script(reply.text('ok', { usage, model: 'house-model' }));
    const client = clientFor(s.server, {
      prices: { house: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1, cacheWrite1h: 1 } },
    });
    const sonnet = await client.call(ask);
    // 1000×2 + 200×10 + 5000×0.10 + 1500×2.5 + 500×4 = 10250 µ$
    expect(sonnet.ok && sonnet.usage.costUsd).toBeCloseTo(0.01025, 12);
    const unknown = await client.call(ask);
    expect(unknown.ok && unknown.usage.costUsd).toBeNull();
    const house = await client.call(ask);
    expect(house.ok && house.usage.costUsd).toBeCloseTo(0.0082, 12);
  });

  it('warns when the same prefix stops reading the cache', async () => {
    s.script(
      reply.text('1', { usage: { cache_creation_input_tokens: 3000 } }),
      reply.text('2', { usage: { cache_read_input_tokens: 3000 } }),
      reply.text('3', { usage: { cache_creation_input_tokens: 3000 } }),
      reply.text('4', { usage: { cache_read_input_tokens: 0 } }),
    );
    const client = clientFor(s.server);
    const first = await client.call(ask);
    const second = await client.call({ ...ask, messages: [{ role: 'user', content: 'ls' }] });
    const third = await client.call(ask);
    const other = await client.call({ ...ask, system: 'another prompt' });
    expect(first.ok && first.usage.cacheMissWarning).toBeUndefined();
    expect(second.ok && second.usage.cacheMissWarning).toBeUndefined();
    expect(third.ok && third.usage.cacheMissWarning).toMatch(/read 3000 cached tokens, this one read none/);
    expect(other.ok && other.usage.cacheMissWarning).toBeUndefined();
    expect(first.ok && second.ok && first.usage.prefixHash === second.usage.prefixHash).toBe(true);
    expect(first.ok && other.ok && first.usage.prefixHash === other.usage.prefixHash).toBe(false);
  });
});

describe('cache-miss rule', () => {
  const counts = (cacheReadTokens: number, cacheWriteTokens: number) => ({
    cacheReadTokens,
    cacheWriteTokens,
  });

  it('needs a previous call that used the cache and a current one that read nothing', () => {
    expect(cacheMissWarning(undefined, counts(0, 100))).toBeUndefined();
    expect(cacheMissWarning(counts(0, 0), counts(0, 100))).toBeUndefined();
    expect(cacheMissWarning(counts(0, 100), counts(50, 0))).toBeUndefined();
    expect(cacheMissWarning(counts(0, 100), counts(0, 100))).toMatch(/wrote 100 tokens to the cache/);
    expect(cacheMissWarning(counts(100, 0), counts(0, 0))).toMatch(/read 100 cached tokens/);
  });
});

describe('price table', () => {
  it('takes the longest matching prefix, family entries last', () => {
    expect(priceFor('claude-haiku-5-5')?.input).toBe(0.1);
    expect(priceFor('claude-haiku-4-5-20251001')?.input).toBe(1);
    expect(priceFor('claude-sonnet-5')?.cacheRead).toBe(0.2);
    expect(priceFor('claude-sonnet-9')?.input).toBe(2);
    expect(priceFor('gpt-x')).toBeUndefined();
  });

  it('costs nothing for no tokens', () => {
    const none = {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
    };
    expect(estimateCostUsd('claude-sonnet-5-5', none)).toBe(0);
  });
});

describe('retry timing', () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it('reads retry-after in seconds, milliseconds and as an HTTP date', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 29 Nov 2026 12:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 29 Nov 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, up to the cap', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(1, policy, () => 0)).toBe(50);
    expect(backoffMs(1, policy, () => 1)).toBe(100);
    expect(backoffMs(3, policy, () => 0.5)).toBe(300);
    expect(backoffMs(10, policy, () => 1)).toBe(1000);
  });
});

describe('canonical JSON', () => {
  it('sorts keys and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, { z: 1, y: 2 }] } })).toBe(
      '{"a":{"c":[2,{"y":2,"z":1}]},"b":1}',
    );
  });
});
