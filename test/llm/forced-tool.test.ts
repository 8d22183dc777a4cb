import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { forcedToolResult, type Message } from '../../src/llm/index.js';
import { reply } from '../support/messages-server.js';
import { clientFor, forcedAsk, useServer } from './helpers.js';

const Decision = z.object({ decision: z.enum(['allow', 'ask', 'deny']), reason: z.string().min(1) });

describe('forcedToolResult on real answers', () => {
  const s = useServer();

  async function answer(r: Parameters<typeof s.script>[0], stream = false): Promise<Message> {
    s.script(r);
    const result = await clientFor(s.server).call(forcedAsk, { stream });
    if (!result.ok) throw new Error(`call failed: ${result.kind} ${result.message}`);
    return result.message;
  }

  it('returns the validated input of the forced call, streamed or not', async () => {
    const input = { decision: 'deny', reason: 'deletes the build folder' };
    for (const stream of [false, true]) {
      const message = await answer(reply.toolUse({ name: 'decide', input, id: 'toolu_1' }), stream);
      expect(forcedToolResult(message, 'decide', Decision)).toEqual({
        ok: true,
        input,
        toolUseId: 'toolu_1',
      });
    }
  });

  it('accepts text before the call', async () => {
    const message = await answer(
      reply.toolUse({ name: 'decide', input: { decision: 'ask', reason: 'r' }, text: 'Hmm.' }),
    );
    expect(forcedToolResult(message, 'decide', Decision)).toMatchObject({
      ok: true,
      input: { decision: 'ask' },
    });
  });

  it('fails on a refusal, with what the model said', async () => {
    const message = await answer(reply.refusal('I will not judge this.'), true);
    const result = forcedToolResult(message, 'decide', Decision);
    expect(result).toMatchObject({ ok: false, kind: 'refusal' });
    if (!result.ok) expect(result.message).toMatch(/I will not judge this/);
  });

  it('fails on max_tokens even when a tool call is there', async () => {
    const cut = reply.maxTokens([{ type: 'tool_use', name: 'decide', input: { decision: 'allow' } }]);
    expect(forcedToolResult(await answer(cut, true), 'decide', Decision)).toMatchObject({
      ok: false,
      kind: 'max-tokens',
    });
  });

  it('fails on a text-only answer', async () => {
    const result = forcedToolResult(await answer(reply.text('Looks fine to me.')), 'decide', Decision);
    expect(result).toMatchObject({ ok: false, kind: 'malformed' });
    if (!result.ok) expect(result.message).toMatch(/text only: "Looks fine to me."/);
  });

  it('fails on a call to another tool', async () => {
    const result = forcedToolResult(
      await answer(reply.toolUse({ name: 'bash', input: {} })),
      'decide',
      Decision,
    );
    expect(result).toMatchObject({ ok: false, kind: 'malformed' });
    if (!result.ok) expect(result.message).toMatch(/called bash/);
  });

  it('fails on an input the schema rejects', async () => {
    const bad = reply.toolUse({ name: 'decide', input: { decision: 'maybe', reason: '' } });
    const result = forcedToolResult(await answer(bad, true), 'decide', Decision);
    expect(result).toMatchObject({ ok: false, kind: 'malformed' });
    if (!result.ok) expect(result.message).toMatch(/decision: .*; reason: /);
  });
});

describe('forcedToolResult on built messages', () => {
  const base = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-5-5',
    content: [],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  } as unknown as Message;
  const call = (id: string, decision: string) =>
    ({ type: 'tool_use', id, name: 'decide', input: { decision, reason: 'r' }, caller: null }) as never;

  it('fails on two calls to the tool', () => {
    const message = { ...base, content: [call('a', 'allow'), call('b', 'deny')] };
    expect(forcedToolResult(message, 'decide', Decision)).toMatchObject({ ok: false, kind: 'malformed' });
  });

  it('fails on an unfinished turn and on a cut context window', () => {
    const paused = { ...base, stop_reason: 'pause_turn', content: [call('a', 'allow')] } as Message;
    expect(forcedToolResult(paused, 'decide', Decision)).toMatchObject({ ok: false, kind: 'malformed' });
    const full = {
      ...base,
      stop_reason: 'model_context_window_exceeded',
      content: [call('a', 'allow')],
    } as Message;
    expect(forcedToolResult(full, 'decide', Decision)).toMatchObject({ ok: false, kind: 'max-tokens' });
  });
});
