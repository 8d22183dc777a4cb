import { describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/client.js';
import { DEFAULT_MODELS } from '../../src/llm/index.js';
import { isModelConfigured } from '../../src/shared/index.js';
import { reply } from '../support/messages-server.js';
import { ask, clientFor, forcedAsk, useServer } from './helpers.js';

/** Allowance for scheduling on a loaded 2-core machine. */
const MARGIN = 250;

describe('model client: answers', () => {
  const s = useServer();

  it('returns a JSON answer with usage and one attempt', async () => {
    s.script(reply.text('ask: it deletes files', { usage: { input_tokens: 40, output_tokens: 8 } }));
    const result = await clientFor(s.server).call(ask);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.message.content[0]).toMatchObject({ type: 'text', text: 'ask: it deletes files' });
    expect(result.attempts).toBe(1);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.usage).toMatchObject({ model: DEFAULT_MODELS[1], inputTokens: 40, outputTokens: 8 });
    expect(s.server.requests[0]?.body).toMatchObject({ model: DEFAULT_MODELS[1], stream: false });
  });

  it('returns a streamed answer assembled from the events', async () => {
    s.script(reply.toolUse({ name: 'decide', input: { decision: 'ask', reason: 'deletes' } }));
    const result = await clientFor(s.server).call(forcedAsk, { stream: true, stage: 2 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.message.stop_reason).toBe('tool_use');
    expect(result.message.content[0]).toMatchObject({
      name: 'decide',
      input: { decision: 'ask', reason: 'deletes' },
    });
    expect(s.server.requests[0]?.body).toMatchObject({ model: DEFAULT_MODELS[2], stream: true });
  });

  it('returns refusals and max_tokens as answers (forcedToolResult judges them)', async () => {
    s.script(reply.refusal(), reply.maxTokens());
    const client = clientFor(s.server);
    const refused = await client.call(ask);
    const cut = await client.call(ask, { stream: true });
    expect(refused.ok && refused.message.stop_reason).toBe('refusal');
    expect(cut.ok && cut.message.stop_reason).toBe('max_tokens');
  });
});

describe('model client: faults end as typed failures', () => {
  const s = useServer();

  it('honours retry-after on 429: waits at least that long, then succeeds', async () => {
    s.script(reply.rateLimited({ retryAfter: 1 }), reply.text('ok'));
    const result = await clientFor(s.server).call(ask);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    const [first, second] = s.server.messageRequests();
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1000);
    expect(result.latencyMs).toBeGreaterThanOrEqual(1000);
  });

  it('honours retry-after as an HTTP date', async () => {
    const at = new Date(Math.ceil((Date.now() + 600) / 1000) * 1000);
    s.script(reply.rateLimited({ retryAfter: at.toUTCString() }), reply.text('ok'));
    const result = await clientFor(s.server).call(ask);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(s.server.messageRequests()[1]!.receivedAt).toBeGreaterThanOrEqual(at.getTime() - 5);
  });

  it('does not wait past the deadline: a long retry-after ends the call at once as rate-limited', async () => {
    s.script(reply.rateLimited({ retryAfter: 30 }), reply.text('too late'));
    const result = await clientFor(s.server).call(ask, { timeoutMs: 500 });
    expect(result).toMatchObject({ ok: false, kind: 'rate-limited', status: 429, attempts: 1 });
    expect(result.latencyMs).toBeLessThan(500);
    if (!result.ok) expect(result.message).toMatch(/retry-after of 30000 ms passes the deadline/);
    expect(s.server.messageRequests()).toHaveLength(1);
  });

  it('retries 529 overloaded, and gives up after the last attempt', async () => {
    s.script(reply.overloaded(), reply.text('ok'));
    expect(await clientFor(s.server).call(ask)).toMatchObject({ ok: true, attempts: 2 });
    s.script(reply.overloaded(), reply.overloaded(), reply.overloaded(), reply.text('unused'));
    const result = await clientFor(s.server, { retry: { maxRetries: 2 } }).call(ask);
    expect(result).toMatchObject({ ok: false, kind: 'overloaded', status: 529, attempts: 3 });
    expect(s.server.pending()).toBe(1);
  });

  it('retries 500 then succeeds, counting attempts', async () => {
    s.script(reply.serverError(), reply.serverError({ status: 503 }), reply.text('ok'));
    const result = await clientFor(s.server).call(ask);
    expect(result).toMatchObject({ ok: true, attempts: 3 });
    expect(s.server.messageRequests()).toHaveLength(3);
  });

  it('does not retry 400, 401 or 404', async () => {
    s.script(
      reply.badRequest('tool_choice: forced tool use is not supported'),
      reply.unauthorized(),
      reply.error(404, 'not_found_error', 'model: claude-nope'),
    );
    const client = clientFor(s.server);
    const bad = await client.call(ask);
    expect(bad).toMatchObject({ ok: false, kind: 'bad-request', status: 400, attempts: 1 });
    if (!bad.ok) expect(bad.message).toMatch(/forced tool use is not supported/);
    expect(await client.call(ask)).toMatchObject({ ok: false, kind: 'auth', status: 401, attempts: 1 });
    expect(await client.call(ask)).toMatchObject({
      ok: false,
      kind: 'bad-request',
      status: 404,
      attempts: 1,
    });
    expect(s.server.messageRequests()).toHaveLength(3);
  });

  it('does not retry when the server says x-should-retry: false', async () => {
    s.script(reply.overloaded({ headers: { 'x-should-retry': 'false' } }), reply.text('unused'));
    const result = await clientFor(s.server).call(ask);
    expect(result).toMatchObject({ ok: false, kind: 'overloaded', attempts: 1 });
    expect(s.server.pending()).toBe(1);
  });

  it('calls a 200 with an unparsable body malformed, without retrying', async () => {
    s.script(reply.malformedJson(), reply.raw(200, 'plain text, no message'), reply.text('unused'));
    const client = clientFor(s.server);
    expect(await client.call(ask)).toMatchObject({ ok: false, kind: 'malformed', attempts: 1 });
    const text = await client.call(ask);
    expect(text).toMatchObject({ ok: false, kind: 'malformed', attempts: 1 });
    if (!text.ok) expect(text.message).toMatch(/not a message/);
  });

  it('retries a dropped connection, and reports network when it keeps dropping', async () => {
    s.script(reply.drop(), reply.text('ok'));
    expect(await clientFor(s.server).call(ask)).toMatchObject({ ok: true, attempts: 2 });
    s.script(reply.drop(), reply.text('x', { dropAfterEvents: 1 }), reply.text('x', { dropAfterEvents: 4 }));
    const result = await clientFor(s.server).call(ask, { stream: false });
    expect(result).toMatchObject({ ok: false, kind: 'network', attempts: 3 });
  });

  it('treats a stream cut or ended early as network, and an error event as its type', async () => {
    s.script(reply.text('a b c d', { dropAfterEvents: 4 }));
    const cut = await clientFor(s.server, { retry: { maxRetries: 0 } }).call(ask, { stream: true });
    expect(cut).toMatchObject({ ok: false, kind: 'network', attempts: 1 });
    s.script(reply.text('a b c d', { endAfterEvents: 5 }));
    const ended = await clientFor(s.server, { retry: { maxRetries: 0 } }).call(ask, { stream: true });
    expect(ended).toMatchObject({ ok: false, kind: 'network', message: 'stream ended before message_stop' });
    const overloaded = { afterEvents: 3, errorType: 'overloaded_error', message: 'Overloaded' };
    s.script(reply.text('a b', { streamError: overloaded }), reply.text('a b'));
    expect(await clientFor(s.server).call(ask, { stream: true })).toMatchObject({ ok: true, attempts: 2 });
  });

  it('times out a slow server within the limit', async () => {
    s.server.fallback(reply.text('late', { delayMs: 3000 }));
    const result = await clientFor(s.server).call(ask, { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(295);
    expect(result.latencyMs).toBeLessThan(300 + MARGIN);
  });

  it('times out a stream that stalls mid-way', async () => {
    s.server.fallback(reply.text('a b c', { stall: { afterEvents: 3, ms: 3000 } }));
    const started = performance.now();
    const result = await clientFor(s.server).call(ask, { stream: true, timeoutMs: 400 });
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(400 + MARGIN);
  });

  it('retries an attempt that timed out while the deadline allows', async () => {
    s.script(reply.text('late', { delayMs: 2000 }), reply.text('ok'));
    const result = await clientFor(s.server).call(ask, { attemptTimeoutMs: 200, timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(result.latencyMs).toBeLessThan(200 + MARGIN + 100);
  });

  it('ends promptly as aborted when the signal fires mid-call', async () => {
    s.server.fallback(reply.text('late', { delayMs: 3000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await clientFor(s.server).call(ask, { signal: controller.signal });
    expect(result).toMatchObject({ ok: false, kind: 'aborted', attempts: 1 });
    expect(result.latencyMs).toBeLessThan(100 + MARGIN);
  });

  it('ends promptly as aborted mid-stream and during a retry wait', async () => {
    s.script(reply.text('a b c d e f g h', { eventDelayMs: 100 }));
    const mid = new AbortController();
    setTimeout(() => mid.abort(), 250);
    const streamed = await clientFor(s.server).call(ask, { stream: true, signal: mid.signal });
    expect(streamed).toMatchObject({ ok: false, kind: 'aborted' });
    expect(streamed.latencyMs).toBeLessThan(250 + MARGIN);

    s.script(reply.rateLimited({ retryAfter: 2 }), reply.text('unused'));
    const waiting = new AbortController();
    setTimeout(() => waiting.abort(), 150);
    const result = await clientFor(s.server).call(ask, { signal: waiting.signal, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: false, kind: 'aborted', attempts: 1 });
    expect(result.latencyMs).toBeLessThan(150 + MARGIN);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const result = await clientFor(s.server).call(ask, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, kind: 'aborted', attempts: 0 });
    expect(s.server.requests).toHaveLength(0);
  });
});

describe('model client: configuration', () => {
  const s = useServer();

  it('reads key, base URL and model from the environment', async () => {
    s.server.fallback(reply.text('ok'));
    const env = {
      ANTHROPIC_API_KEY: 'env-key',
      ANTHROPIC_BASE_URL: s.server.url,
      AUTOMODE_MODEL: 'claude-test-1',
    };
    const client = createModelClient({ env });
    expect(client.configured).toBe(true);
    await client.call(ask, { stage: 2 });
    const [request] = s.server.requests;
    expect(request?.headers.authorization).toBe('Bearer env-key');
    expect(request?.body?.model).toBe('claude-test-1');
  });

  it('prefers options to the environment, and a request model to both', async () => {
    s.server.fallback(reply.text('ok'));
    const env = {
      ANTHROPIC_API_KEY: 'env-key',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      AUTOMODE_MODEL: 'env-model',
    };
    const client = createModelClient({ env, apiKey: 'opt-key', baseURL: s.server.url, models: { 1: 'm1' } });
    await client.call(ask);
    await client.call(ask, { stage: 2 });
    await client.call({ ...ask, model: 'explicit' });
    const models = s.server.requests.map((r) => r.body?.model);
    expect(models).toEqual(['m1', 'env-model', 'explicit']);
    expect(s.server.requests[0]?.headers.authorization).toBe('Bearer opt-key');
  });

  it('sends no credentials when only a base URL is set', async () => {
    s.server.fallback(reply.text('ok'));
    const result = await createModelClient({ env: { ANTHROPIC_BASE_URL: s.server.url } }).call(ask);
    expect(result.ok).toBe(true);
    expect(s.server.requests[0]?.headers.authorization).toBeUndefined();
    expect(s.server.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('fails with auth, sending nothing, when nothing is configured', async () => {
    const client = createModelClient({ env: {} });
    expect(client.configured).toBe(false);
    expect(await client.call(ask)).toMatchObject({ ok: false, kind: 'auth', attempts: 0 });
  });

  it('knows whether a model is configured', () => {
    expect(isModelConfigured({})).toBe(false);
    expect(isModelConfigured({ ANTHROPIC_API_KEY: '  ' })).toBe(false);
    expect(isModelConfigured({ ANTHROPIC_API_KEY: 'k' })).toBe(true);
    expect(isModelConfigured({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' })).toBe(true);
  });
});
