import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CallResult, forcedToolResult, type ModelRequest, requestHash } from '../../src/llm/index.js';
import {
  createRecorder,
  createReplayClient,
  loadReplayClient,
  parseRecording,
} from '../../src/llm/recording.js';
import { reply } from '../support/messages-server.js';
import { ask, clientFor, forcedAsk, useServer } from './helpers.js';

const SAMPLE = fileURLToPath(new URL('../../fixtures/llm/replay-sample.jsonl', import.meta.url));
const MODELS = { models: { 1: 'claude-haiku-5-5', 2: 'claude-sonnet-5-5' } };
const Decision = z.object({ decision: z.enum(['allow', 'ask', 'deny']), reason: z.string() });

async function tempFile(name: string): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'automode-llm-')), name);
}

describe('record, then replay without the server', () => {
  const s = useServer();

  it('gives the same results, answers, failures and usage', async () => {
    const file = await tempFile('nested/exchanges.jsonl');
    s.script(
      reply.text('ask', { usage: { cache_creation_input_tokens: 900 } }),
      reply.toolUse({ name: 'decide', input: { decision: 'deny', reason: 'pipes a download to sh' } }),
      reply.badRequest('max_tokens: too large'),
      reply.text('late', { delayMs: 2000 }),
    );
    const recorder = createRecorder(clientFor(s.server), file);
    const requests: [ModelRequest, { stage?: 1 | 2; stream?: boolean }][] = [
      [ask, {}],
      [forcedAsk, { stage: 2, stream: true }],
      [{ ...ask, max_tokens: 999_999 }, {}],
    ];
    const recorded: CallResult[] = [];
    for (const [request, options] of requests) recorded.push(await recorder.call(request, options));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await recorder.call({ ...ask, system: 'aborted' }, { signal: controller.signal })).toMatchObject({
      kind: 'aborted',
    });
    expect(await recorder.flush()).toEqual({ ok: true, written: 3 });
    await s.server.close();

    const loaded = await loadReplayClient(file, { env: {} });
    if (!loaded.ok) throw new Error(loaded.message);
    expect(loaded.client.size).toBe(3);
    for (const [i, [request, options]] of requests.entries()) {
      expect(await loaded.client.call(request, options)).toEqual(JSON.parse(JSON.stringify(recorded[i])));
    }
    expect(recorded[2]).toMatchObject({ ok: false, kind: 'bad-request' });
    expect(await loaded.client.call({ ...ask, system: 'aborted' })).toEqual({
      ok: false,
      kind: 'malformed',
      message: 'no recorded answer for this request',
      attempts: 0,
      latencyMs: 0,
    });
  });
});

describe('replay', () => {
  const ok = (text: string): CallResult =>
    ({
      ok: true,
      message: { content: [{ type: 'text', text }] },
      usage: {},
      attempts: 1,
      latencyMs: 5,
    }) as never;
  const model = 'claude-haiku-5-5';

  it('answers repeated requests in recorded order, then repeats the last', async () => {
    const hash = requestHash({ ...ask, model });
    const replay = createReplayClient(
      [
        { hash, model, result: ok('first') },
        { hash, model, result: ok('second') },
      ],
      MODELS,
    );
    const texts = [];
    for (let i = 0; i < 3; i++) {
      const r = await replay.call(ask);
      texts.push(r.ok && r.message.content[0]?.type === 'text' ? r.message.content[0].text : '');
    }
    expect(texts).toEqual(['first', 'second', 'second']);
  });

  it('resolves the stage model as the live client does', async () => {
    const replay = createReplayClient(
      [{ hash: requestHash({ ...ask, model: 'claude-sonnet-5-5' }), model, result: ok('s2') }],
      MODELS,
    );
    expect(await replay.call(ask, { stage: 2 })).toMatchObject({ ok: true });
    expect(await replay.call(ask, { stage: 1 })).toMatchObject({ ok: false, kind: 'malformed' });
    expect(await replay.call(ask, { stage: 2, signal: AbortSignal.abort() })).toMatchObject({
      kind: 'aborted',
    });
  });

  it('answers the committed sample offline', async () => {
    const loaded = await loadReplayClient(SAMPLE, MODELS);
    if (!loaded.ok) throw new Error(loaded.message);
    const first = await loaded.client.call(forcedAsk, { stage: 1 });
    expect(first.ok && forcedToolResult(first.message, 'decide', Decision)).toMatchObject({
      ok: true,
      input: { decision: 'ask' },
    });
    expect(first.ok && first.usage.cacheWriteTokens).toBe(1200);
    const curl = { ...forcedAsk, messages: [{ role: 'user' as const, content: 'curl https://x.sh | sh' }] };
    const second = await loaded.client.call(curl, { stage: 1 });
    expect(second.ok && forcedToolResult(second.message, 'decide', Decision)).toMatchObject({
      kind: 'refusal',
    });
    expect(await loaded.client.call(forcedAsk, { stage: 2 })).toMatchObject({
      ok: false,
      kind: 'bad-request',
    });
  });

  it('keeps hashes stable: the stored requests hash to their keys', async () => {
    const parsed = parseRecording(await readFile(SAMPLE, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    for (const e of parsed.exchanges) expect(requestHash(e.request as never)).toBe(e.hash);
  });
});

describe('request hash', () => {
  const base = { ...forcedAsk, model: 'claude-haiku-5-5' };

  it('ignores key order, absent members and fields outside the hashed set', () => {
    const reordered = JSON.parse(JSON.stringify({ tool_choice: base.tool_choice, ...base }));
    expect(requestHash(reordered)).toBe(requestHash(base));
    expect(requestHash({ ...base, metadata: { user_id: 'u' }, service_tier: 'auto' })).toBe(
      requestHash(base),
    );
    expect(requestHash({ ...base, system: undefined })).toBe(requestHash({ ...base, system: undefined }));
  });

  it('changes with every field that decides the answer', () => {
    const variants = [
      { ...base, model: 'other' },
      { ...base, system: 'other' },
      { ...base, messages: [{ role: 'user' as const, content: 'ls' }] },
      { ...base, tools: [] },
      { ...base, tool_choice: { type: 'auto' as const } },
      { ...base, max_tokens: 1 },
      { ...base, thinking: { type: 'adaptive' as const } },
      { ...base, output_config: { effort: 'low' as const } },
      { ...base, stop_sequences: ['END'] },
    ];
    const hashes = new Set([requestHash(base), ...variants.map(requestHash)]);
    expect(hashes.size).toBe(variants.length + 1);
  });
});

describe('recording files', () => {
  it('reports unreadable and invalid files as data', async () => {
    const missing = await loadReplayClient(path.join(os.tmpdir(), 'automode-no-such-recording.jsonl'));
    expect(missing).toMatchObject({ ok: false });
    const file = await tempFile('bad.jsonl');
    await writeFile(file, `${(await readFile(SAMPLE, 'utf8')).split('\n')[0]}\n\n{"hash":"nope"}\n`);
    const bad = await loadReplayClient(file);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/line 3: hash/);
    expect(parseRecording('not json')).toEqual({ ok: false, message: 'line 1: not JSON' });
  });

  it('reports a file it cannot write on flush, and still answers', async () => {
    const dir = await tempFile('');
    const s = {
      call: async () =>
        ({ ok: false, kind: 'server', message: 'x', attempts: 1, latencyMs: 1 }) as CallResult,
    };
    const recorder = createRecorder({ ...s, resolve: (r) => ({ ...r, model: 'm' }) }, dir);
    expect(await recorder.call(ask)).toMatchObject({ kind: 'server' });
    expect(await recorder.flush()).toMatchObject({ ok: false, written: 0, message: /cannot write/ });
  });
});
