import { access } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBash } from '../../src/bash/analyze.js';
import type { PipelineMessage, ToolResultMessage, ToolUseBlock } from '../../src/pipeline/messages.js';
import { runTools } from '../../src/pipeline/run-tools.js';
import { StreamingToolExecutor } from '../../src/pipeline/streaming.js';
import { type AnyTool, buildTool } from '../../src/pipeline/tool.js';
import { collect, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

interface Span {
  id: string;
  start: number;
  end: number;
}

/** Tools that wait `ms` and record when they ran; `Safe` is concurrency-safe, `Unsafe` is not. */
function timedTools(spans: Span[], t0: () => number) {
  const make = (name: string, safe: boolean, interrupt: 'cancel' | 'block' = 'block') =>
    buildTool({
      name,
      description: 'waits',
      inputSchema: z.strictObject({ id: z.string(), ms: z.number() }),
      isConcurrencySafe: () => safe,
      interruptBehavior: () => interrupt,
      async *call(input) {
        const start = t0();
        yield { type: 'progress', data: `${input.id} started` };
        await sleep(input.ms);
        spans.push({ id: input.id, start, end: t0() });
        yield { type: 'result', data: `${input.id} done` };
      },
    }) as AnyTool;
  return [make('Safe', true), make('Unsafe', false)];
}

async function timedSetup() {
  const spans: Span[] = [];
  const started = Date.now();
  const t0 = () => Date.now() - started;
  const s = await setup({
    tools: timedTools(spans, t0),
    project: { permissions: { allow: ['Safe', 'Unsafe', 'Bash'] } },
  });
  return { ...s, spans };
}

let n = 0;
const block = (name: string, input: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id: `toolu_${name}_${++n}`,
  name,
  input,
});
const results = (messages: PipelineMessage[]) =>
  messages.filter((m): m is ToolResultMessage => m.type === 'tool_result');
const span = (spans: Span[], id: string) => spans.find((s) => s.id === id)!;

describe('runTools', () => {
  it('runs concurrency-safe calls in parallel and gives the results in call order', async () => {
    const { ctx, spans } = await timedSetup();
    const blocks = [
      block('Safe', { id: 'a', ms: 300 }),
      block('Safe', { id: 'b', ms: 50 }),
      block('Safe', { id: 'c', ms: 150 }),
    ];
    const messages = await collect(runTools(blocks, ctx));
    expect(results(messages).map((r) => r.toolUseId)).toEqual(blocks.map((b) => b.id));
    expect(results(messages).map((r) => r.block.content)).toEqual(['a done', 'b done', 'c done']);
    const progressB = messages.findIndex((m) => m.type === 'progress' && m.data === 'b started');
    const resultA = messages.findIndex((m) => m.type === 'tool_result' && m.toolUseId === blocks[0]!.id);
    expect(progressB).toBeLessThan(resultA);
    expect(span(spans, 'b').end).toBeLessThan(span(spans, 'a').end);
  });

  it('runs the other calls one by one, in order, never beside anything else', async () => {
    const { ctx, spans } = await timedSetup();
    const blocks = [
      block('Safe', { id: 's1', ms: 100 }),
      block('Safe', { id: 's2', ms: 100 }),
      block('Unsafe', { id: 'u1', ms: 100 }),
      block('Safe', { id: 's3', ms: 50 }),
      block('Unsafe', { id: 'u2', ms: 50 }),
    ];
    const messages = await collect(runTools(blocks, ctx));
    expect(results(messages).map((r) => r.block.content)).toEqual([
      's1 done',
      's2 done',
      'u1 done',
      's3 done',
      'u2 done',
    ]);
    const [s1, s2, u1, s3, u2] = ['s1', 's2', 'u1', 's3', 'u2'].map((id) => span(spans, id));
    expect(Math.abs(s1!.start - s2!.start)).toBeLessThan(50);
    expect(u1!.start).toBeGreaterThanOrEqual(Math.max(s1!.end, s2!.end));
    expect(s3!.start).toBeGreaterThanOrEqual(u1!.end);
    expect(u2!.start).toBeGreaterThanOrEqual(s3!.end);
  });

  it('when a Bash call fails, the calls of the turn that have not started are cancelled', async () => {
    const { ctx, cwd } = await timedSetup();
    const blocks = [
      block('Bash', { command: 'exit 4' }),
      block('Bash', { command: 'touch never-made' }),
      block('Safe', { id: 'x', ms: 10 }),
    ];
    const out = results(await collect(runTools(blocks, ctx)));
    expect(out[0]!.error).toEqual({ stage: 'execution', kind: 'ShellError' });
    expect(out.slice(1).map((r) => r.error)).toEqual([
      { stage: 'cancelled', kind: 'SiblingError' },
      { stage: 'cancelled', kind: 'SiblingError' },
    ]);
    expect(out[1]!.block.content).toBe(
      'Cancelled: a parallel tool call failed (Bash(exit 4)), so this one did not run.',
    );
    await expect(access(path.join(cwd, 'never-made'))).rejects.toThrow();
  });

  it('a failed call of another tool does not cancel its siblings', async () => {
    const { ctx, cwd } = await timedSetup();
    const blocks = [
      block('Read', { file_path: path.join(cwd, 'missing') }),
      block('Safe', { id: 'y', ms: 10 }),
    ];
    const out = results(await collect(runTools(blocks, ctx)));
    expect(out[0]!.error?.kind).toBe('Error:ENOENT');
    expect(out[1]!.block.content).toBe('y done');
  });

  it('an interrupt cancels `cancel` tools, lets `block` tools finish, and starts nothing new', async () => {
    const { ctx, cwd } = await timedSetup();
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort(), 150);
    const blocks = [
      block('Unsafe', { id: 'blocking', ms: 400 }),
      block('Bash', { command: 'touch after-interrupt' }),
    ];
    const out = results(await collect(runTools(blocks, ctx, { interrupt: interrupt.signal })));
    expect(out[0]!.block.content).toBe('blocking done');
    expect(out[1]!.error).toEqual({ stage: 'cancelled', kind: 'Interrupted' });
    await expect(access(path.join(cwd, 'after-interrupt'))).rejects.toThrow();

    const again = new AbortController();
    setTimeout(() => again.abort(), 200);
    const started = Date.now();
    const bash = results(
      await collect(runTools([block('Bash', { command: 'sleep 5' })], ctx, { interrupt: again.signal })),
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(bash[0]!.error).toEqual({ stage: 'cancelled', kind: 'Interrupted' });
    expect(bash[0]!.block.content).toMatch(/^Interrupted by user: Bash was cancelled\./);
  });
});

describe('the streaming executor', () => {
  it('starts each call as soon as its block is complete in the stream', async () => {
    const { ctx, spans } = await timedSetup();
    const executor = new StreamingToolExecutor(ctx);
    const collected = collect(executor.messages());
    const started = Date.now();
    const events = [
      { type: 'message_start', message: {} },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_s1', name: 'Safe', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"id": "first",' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: ' "ms": 100}' },
      },
      { type: 'content_block_stop', index: 1 },
    ];
    for (const e of events) executor.handleEvent(e);
    await sleep(300);
    const secondAddedAt = Date.now() - started;
    executor.handleEvent({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_s2', name: 'Safe', input: {} },
    });
    executor.handleEvent({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"id": "second", "ms": 10}' },
    });
    executor.handleEvent({ type: 'content_block_stop', index: 2 });
    executor.handleEvent({
      type: 'content_block_start',
      index: 3,
      content_block: { type: 'tool_use', id: 'toolu_bad', name: 'Safe', input: {} },
    });
    executor.handleEvent({
      type: 'content_block_delta',
      index: 3,
      delta: { type: 'input_json_delta', partial_json: '{"id": ' },
    });
    executor.handleEvent({ type: 'content_block_stop', index: 3 });
    executor.handleEvent({ type: 'message_stop' });
    executor.finish();
    const out = results(await collected);
    expect(span(spans, 'first').end).toBeLessThan(secondAddedAt);
    expect(out.map((r) => r.toolUseId)).toEqual(['toolu_s1', 'toolu_s2', 'toolu_bad']);
    expect(out[2]!.error?.stage).toBe('validation');
  });
});
