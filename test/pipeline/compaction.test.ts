import path from 'node:path';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import {
  compactConversation,
  contextTokens,
  SUMMARY_INTRO,
  tailStart,
} from '../../src/eval/drivers/compact.js';
import { runAgent } from '../../src/eval/drivers/live.js';
import { reply, startMessagesServer } from '../support/messages-server.js';
import { agentProject, agentWorld, type Block, type Message, recorded, sdkFor } from './agent-loop.js';
import { hookCommand } from './helpers.js';

const world = agentWorld();

const usage = (input: number, more: object = {}) => ({
  usage: { input_tokens: input, output_tokens: 10, ...more },
});

const echo = (n: string, u: ReturnType<typeof usage>) =>
  reply.toolUse({ name: 'Bash', input: { command: `echo ${n}` }, id: `toolu_${n}` }, u);

/** Every tool_result answers a tool_use of the assistant message just before it. */
function pairsIntact(messages: Message[]): boolean {
  return messages.every((m, i) => {
    if (typeof m.content === 'string') return true;
    const results = m.content.filter((b) => b.type === 'tool_result');
    if (results.length === 0) return true;
    const before = messages[i - 1];
    if (before?.role !== 'assistant' || typeof before.content === 'string') return false;
    const uses = new Set(before.content.filter((b) => b.type === 'tool_use').map((b) => b.id));
    return results.every((r) => uses.has(r.tool_use_id));
  });
}

describe('context compaction in the agent loop', () => {
  it('past the threshold: PreCompact hooks, a summary of the earlier turns, the recent turns kept whole', async () => {
    world.project = await agentProject((root) => ({
      permissions: { allow: ['Bash(echo *)'] },
      hooks: {
        PreCompact: [
          {
            matcher: 'auto',
            hooks: [
              { type: 'command', command: hookCommand({ record: path.join(root, 'precompact.jsonl') }) },
            ],
          },
        ],
      },
    }));
    world.server = await startMessagesServer([
      echo('one', usage(300)),
      echo('two', usage(500)),
      // 100 + 800 read from the cache + 50 written + 10 out = 960, past 92 % of 1,000.
      echo('three', usage(100, { cache_read_input_tokens: 800, cache_creation_input_tokens: 50 })),
      reply.text('The task was to echo one, two and three; one was echoed.', usage(900)),
      reply.text('All three were echoed.', usage(400)),
    ]);
    const run = await runAgent('Echo one, two and three', world.project.session, {
      sdk: sdkFor(world.server.url),
      model: 'claude-test',
      compact: { contextWindowTokens: 1000 },
    });
    expect(run.stopReason).toBe('end_turn');
    expect(run.records.map((r) => [r.toolUseId, r.decision])).toEqual([
      ['toolu_one', 'allow'],
      ['toolu_two', 'allow'],
      ['toolu_three', 'allow'],
    ]);
    expect(run.compactions).toEqual([{ turn: 4, tokensBefore: 960, summarised: 3, kept: 4, hookErrors: [] }]);
    const requests = world.server.messageRequests().map((r) => r.body!);
    expect(requests).toHaveLength(5);

    // The summary request: the turns before the kept tail, and the instruction to summarise them; no tool call.
    const summary = requests[3]!;
    expect(summary.tool_choice).toEqual({ type: 'none' });
    const asked = summary.messages as Message[];
    expect(asked.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(asked[0]!.content).toBe('Echo one, two and three');
    expect((asked[2]!.content as Block[]).map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(pairsIntact(asked)).toBe(true);

    // The request after it: the summary first, as a user message, then the last two turns as they were.
    const after = requests[4]!.messages as Message[];
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(after[0]!.content).toContain(SUMMARY_INTRO);
    expect(after[0]!.content).toContain('The task was to echo one, two and three; one was echoed.');
    expect(JSON.stringify(after)).not.toContain('toolu_one');
    expect((after[1]!.content as Block[])[0]).toMatchObject({ type: 'tool_use', id: 'toolu_two' });
    expect((after[3]!.content as Block[])[0]).toMatchObject({ type: 'tool_use', id: 'toolu_three' });
    expect(pairsIntact(after)).toBe(true);
    // The run's usage counts the summary request too.
    expect(run.usage.input).toBe(300 + 500 + 100 + 900 + 400);

    // The PreCompact hook ran first, as a real process, with Claude Code's input.
    const [pre] = await recorded(path.join(world.project.root, 'precompact.jsonl'));
    expect(pre).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      custom_instructions: '',
      session_id: world.project.session.ctx.sessionId,
      cwd: world.project.cwd,
    });
  });

  it('with compaction off, the conversation is sent whole past the threshold', async () => {
    world.project = await agentProject(() => ({ permissions: { allow: ['Bash(echo *)'] } }));
    world.server = await startMessagesServer([
      echo('one', usage(300)),
      echo('two', usage(990)),
      echo('three', usage(990)),
      reply.text('Done.', usage(990)),
    ]);
    const run = await runAgent('Echo', world.project.session, {
      sdk: sdkFor(world.server.url),
      model: 'claude-test',
      compact: false,
    });
    expect(run.compactions).toEqual([]);
    const last = world.server.messageRequests().at(-1)!.body!.messages as Message[];
    expect(last).toHaveLength(7);
  });

  it('a failed summary leaves the conversation as it was and the run goes on', async () => {
    world.project = await agentProject(() => ({ permissions: { allow: ['Bash(echo *)'] } }));
    world.server = await startMessagesServer([
      echo('one', usage(300)),
      echo('two', usage(300)),
      echo('three', usage(990)),
      reply.error(500, 'api_error', 'overloaded'),
      reply.text('Done.', usage(100)),
    ]);
    const run = await runAgent('Echo', world.project.session, {
      sdk: sdkFor(world.server.url),
      model: 'claude-test',
      compact: { contextWindowTokens: 1000 },
    });
    expect(run.stopReason).toBe('end_turn');
    expect(run.compactions).toEqual([
      expect.objectContaining({
        turn: 4,
        summarised: 0,
        kept: 7,
        error: expect.stringContaining('overloaded'),
      }),
    ]);
    expect(world.server.messageRequests().at(-1)!.body!.messages as Message[]).toHaveLength(7);
  });
});

describe('where the kept tail starts', () => {
  const user = (content: MessageParam['content']): MessageParam => ({ role: 'user', content });
  const assistant = (id: string): MessageParam => ({
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'Bash', input: {} }],
  });
  const result = (id: string): MessageParam =>
    user([{ type: 'tool_result', tool_use_id: id, content: 'ok' }]);
  const said = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

  it('at an assistant turn, never at a message of tool results', () => {
    const messages = [
      user('task'),
      assistant('a'),
      result('a'),
      assistant('b'),
      result('b'),
      assistant('c'),
      result('c'),
    ];
    expect(tailStart(messages, 2)).toBe(3);
    expect(tailStart(messages, 1)).toBe(5);
    expect(tailStart(messages, 0)).toBe(7);
    expect(tailStart(messages, 3)).toBeUndefined();
    for (const keep of [0, 1, 2]) {
      const start = tailStart(messages, keep)!;
      expect(messages[start]?.content).not.toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'tool_result' })]),
      );
    }
  });

  it("at the user's prompt before the kept turn, when it is not a tool_result continuation", () => {
    const messages = [
      user('task'),
      assistant('a'),
      result('a'),
      said('done'),
      user('now this'),
      assistant('b'),
      result('b'),
    ];
    expect(tailStart(messages, 1)).toBe(4);
  });

  it('counts the context as the last response saw it: input, cache read and written, output', () => {
    expect(
      contextTokens({
        input_tokens: 1,
        output_tokens: 2,
        cache_read_input_tokens: 3,
        cache_creation_input_tokens: 4,
      } as Parameters<typeof contextTokens>[0]),
    ).toBe(10);
  });

  it('a kept user prompt takes the summary in front of it: roles still alternate', async () => {
    world.project = await agentProject(() => ({}));
    const asked: MessageParam[][] = [];
    const sdk = {
      messages: {
        create: async (body: { messages: MessageParam[] }) => {
          asked.push(body.messages);
          return { content: [{ type: 'text', text: 'They asked for a task; it is done.' }], usage: {} };
        },
      },
    } as unknown as Parameters<typeof compactConversation>[1]['sdk'];
    const messages = [user('task'), said('done'), user('now this'), assistant('b'), result('b')];
    const done = await compactConversation(messages, {
      sdk,
      model: 'claude-test',
      maxTokens: 100,
      tools: [],
      ctx: world.project.session.ctx,
      turn: 3,
      tokensBefore: 1000,
      keepTurns: 1,
    });
    expect(done.compaction).toMatchObject({ summarised: 2, kept: 3 });
    expect(asked[0]!.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const first = messages[0]!.content as { type: string; text: string }[];
    expect(first[0]!.text).toContain('They asked for a task; it is done.');
    expect(first[1]).toEqual({ type: 'text', text: 'now this' });
  });
});
