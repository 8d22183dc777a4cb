import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { STAGE1_TOOL } from '../../src/classifier/model-parts.js';
import { createModelClient } from '../../src/llm/client.js';
import type { ToolResultMessage, ToolUseBlock } from '../../src/pipeline/messages.js';
import { runTools } from '../../src/pipeline/run-tools.js';
import {
  type MessagesServer,
  type RecordedRequest,
  reply,
  startMessagesServer,
} from '../support/messages-server.js';
import { collect, hookCommand, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The classifier's model on the loopback server: it flags the calls whose request mentions `flagged`, and takes
 * `slow.ms` to answer about those that mention `slow.text`.
 */
async function judge(flagged?: string, slow?: { text: string; ms: number }) {
  server = await startMessagesServer((request: RecordedRequest) =>
    reply.toolUse(
      {
        name: STAGE1_TOOL,
        input: { flag: flagged !== undefined && request.raw.includes(flagged), rule: '' },
      },
      { delayMs: slow && request.raw.includes(slow.text) ? slow.ms : 0 },
    ),
  );
  return createModelClient({
    apiKey: 'test-key',
    baseURL: server.url,
    env: {},
    timeoutMs: 10_000,
    attemptTimeoutMs: 10_000,
    retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10 },
  });
}

const asking = (text: string) => server!.messageRequests().filter((q) => q.raw.includes(text));
const bash = (id: string, command: unknown): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command },
});

describe('the classification of a queued call starts when its block is added', () => {
  it('the model judges the second call while the first still runs, once per call', async () => {
    // Still judging the second call when it starts: the call waits for that same request, asks no other.
    const model = await judge(undefined, { text: 'two.txt', ms: 900 });
    // The session has moved on by the time the second call starts (the agent's context grows as calls end).
    let cwd = '';
    const context = () => ({
      userMessages: [
        'Write two notes',
        ...(existsSync(path.join(cwd, 'one.txt')) ? ['one.txt is written'] : []),
      ],
    });
    const s = await setup({ model, mode: 'auto', pipeline: { context } });
    cwd = s.cwd;
    const { ctx } = s;
    const blocks = [
      bash('toolu_first', 'sleep 0.5 && echo one > one.txt'),
      bash('toolu_second', 'echo two > two.txt'),
    ];
    let firstDone = 0;
    const results: ToolResultMessage[] = [];
    for await (const m of runTools(blocks, ctx)) {
      if (m.type !== 'tool_result') continue;
      if (m.toolUseId === 'toolu_first') firstDone = Date.now();
      results.push(m);
    }
    expect(results.map((r) => [r.toolUseId, r.block.is_error])).toEqual([
      ['toolu_first', false],
      ['toolu_second', false],
    ]);
    expect(await readFile(path.join(cwd, 'two.txt'), 'utf8')).toBe('two\n');
    expect(asking('one.txt')).toHaveLength(1);
    expect(asking('two.txt')).toHaveLength(1);
    expect(server!.messageRequests()).toHaveLength(2);
    // Without the early start, the second call is classified only once the first has finished.
    expect(asking('two.txt')[0]!.receivedAt).toBeLessThan(firstDone - 200);
  });

  it('classifies nothing for a call that fails lookup or validation', async () => {
    const model = await judge();
    const { ctx } = await setup({ model, mode: 'auto' });
    const blocks: ToolUseBlock[] = [
      bash('toolu_slow', 'sleep 0.3 && echo one > one.txt'),
      {
        type: 'tool_use',
        id: 'toolu_unknown',
        name: 'NoSuchTool',
        input: { command: 'echo x > lookup.txt' },
      },
      { type: 'tool_use', id: 'toolu_invalid', name: 'Bash', input: { cmd: 'echo x > invalid.txt' } },
    ];
    const messages = await collect(runTools(blocks, ctx));
    const errors = messages.flatMap((m) => (m.type === 'tool_result' && m.error ? [m.error.stage] : []));
    expect(errors).toEqual(['lookup', 'validation']);
    expect(server!.messageRequests()).toHaveLength(1);
    expect(asking('one.txt')).toHaveLength(1);
  });

  it("a PreToolUse hook's rewritten input is classified afresh: the early verdict on the old input is not used", async () => {
    const model = await judge('old.txt');
    const { ctx, cwd } = await setup({
      model,
      mode: 'auto',
      project: {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  command: hookCommand({
                    stdout: {
                      hookSpecificOutput: {
                        hookEventName: 'PreToolUse',
                        updatedInput: { command: 'echo new > new.txt' },
                      },
                    },
                  }),
                },
              ],
            },
          ],
        },
      },
    });
    const messages = await collect(runTools([bash('toolu_rewritten', 'echo old > old.txt')], ctx));
    expect(messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'allow' });
    expect(await readFile(path.join(cwd, 'new.txt'), 'utf8')).toBe('new\n');
    expect(asking('new.txt')).toHaveLength(1);
  });

  it('an "always allow" given meanwhile makes the early classification stale: the call is classified again', async () => {
    const asked: string[] = [];
    const { ctx } = await setup({
      handler: async (request) => {
        asked.push(String(request.input.command));
        return { behavior: 'allow', by: 'user', reason: 'yes', remember: { rules: ['Bash(touch *)'] } };
      },
    });
    const messages = await collect(
      runTools([bash('toolu_a', 'touch a.txt'), bash('toolu_b', 'touch b.txt')], ctx),
    );
    expect(asked).toEqual(['touch a.txt']);
    expect(messages.filter((m) => m.type === 'permission').at(-1)).toMatchObject({
      toolUseId: 'toolu_b',
      decision: 'allow',
      rule: { text: 'Bash(touch *)' },
    });
  });
});
