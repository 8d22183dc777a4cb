import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import type { PipelineMessage, ToolResultMessage, ToolUseBlock } from '../../src/pipeline/messages.js';
import { runTools } from '../../src/pipeline/run-tools.js';
import { STOPPED_MESSAGE } from '../../src/pipeline/scheduler.js';
import { StreamingToolExecutor } from '../../src/pipeline/streaming.js';
import { collect, hookCommand, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

const bash = (id: string, command: string): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command },
});

const hooks = (event: string, stdout: object) => ({
  hooks: { [event]: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand({ stdout }) }] }] },
});

const results = (messages: { type: string }[]) =>
  messages.filter((m): m is ToolResultMessage => m.type === 'tool_result');

describe("a hook's stop request", () => {
  it('PostToolUse continue: false: the call has run, the calls of the turn not started yet are cancelled', async () => {
    const { ctx, cwd } = await setup({
      mode: 'acceptEdits',
      project: {
        permissions: { allow: ['Bash(echo *)'] },
        ...hooks('PostToolUse', { continue: false, stopReason: 'the budget is spent' }),
      },
    });
    const messages = await collect(
      runTools([bash('toolu_one', 'echo one > one.txt'), bash('toolu_two', 'echo two > two.txt')], ctx),
    );
    expect(messages.filter((m) => m.type === 'hook')).toEqual([
      expect.objectContaining({ toolUseId: 'toolu_one', event: 'PostToolUse', stop: 'the budget is spent' }),
    ]);
    const [one, two] = results(messages);
    expect(one!.block.is_error).toBeFalsy();
    expect(existsSync(path.join(cwd, 'one.txt'))).toBe(true);
    expect(two!.error).toEqual({ stage: 'cancelled', kind: 'HookStop' });
    expect(two!.block).toMatchObject({ tool_use_id: 'toolu_two', content: STOPPED_MESSAGE, is_error: true });
    expect(existsSync(path.join(cwd, 'two.txt'))).toBe(false);
    // The reason is for the user: the model's tool_result does not carry it.
    expect(JSON.stringify(two!.block)).not.toContain('budget');
  });

  it('PreToolUse continue: false denies the call, and a block that completes in the stream afterwards never starts', async () => {
    const { ctx, cwd } = await setup({
      mode: 'acceptEdits',
      project: {
        permissions: { allow: ['Bash(echo *)'] },
        ...hooks('PreToolUse', { continue: false, stopReason: 'read-only day' }),
      },
    });
    const executor = new StreamingToolExecutor(ctx);
    const stream = executor.messages()[Symbol.asyncIterator]();
    const messages: PipelineMessage[] = [];
    executor.addTool(bash('toolu_first', 'echo one > one.txt'));
    while (messages.at(-1)?.type !== 'tool_result') messages.push((await stream.next()).value);
    executor.addTool(bash('toolu_late', 'echo late > late.txt'));
    executor.finish();
    for (let r = await stream.next(); !r.done; r = await stream.next()) messages.push(r.value);
    const [first, late] = results(messages);
    expect(first!.error).toEqual({ stage: 'permission', kind: 'PermissionDenied' });
    expect(late!.error).toEqual({ stage: 'cancelled', kind: 'HookStop' });
    expect(messages.filter((m) => m.type === 'hook').map((m) => m.toolUseId)).toEqual(['toolu_first']);
    expect(existsSync(path.join(cwd, 'one.txt')) || existsSync(path.join(cwd, 'late.txt'))).toBe(false);
  });

  it('a PermissionRequest deny with interrupt stops the agent too', async () => {
    const { ctx, cwd } = await setup({
      project: hooks('PermissionRequest', {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'deny', message: 'not without review', interrupt: true },
        },
      }),
    });
    const messages = await collect(
      runTools([bash('toolu_touch', 'touch made.txt'), bash('toolu_next', 'touch next.txt')], ctx),
    );
    expect(messages.find((m) => m.type === 'hook')).toMatchObject({
      toolUseId: 'toolu_touch',
      event: 'PermissionRequest',
      stop: 'not without review',
    });
    expect(results(messages).map((r) => r.error)).toEqual([
      { stage: 'permission', kind: 'PermissionDenied' },
      { stage: 'cancelled', kind: 'HookStop' },
    ]);
    expect(existsSync(path.join(cwd, 'next.txt'))).toBe(false);
  });
});
