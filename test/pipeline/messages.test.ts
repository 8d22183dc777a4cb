import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBash } from '../../src/bash/analyze.js';
import type { PermissionRequestedMessage, ProgressMessage } from '../../src/pipeline/messages.js';
import { type AnyTool, buildTool } from '../../src/pipeline/tool.js';
import { recordingHandler, run, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

describe('the permission_request message', () => {
  it('comes before the permission message and says what the handler is asked', async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx } = await setup({ handler, project: { permissions: { ask: ['Bash(touch *)'] } } });
    const r = await run(ctx, 'Bash', { command: 'touch made.txt' });
    expect(r.messages.map((m) => m.type)).toEqual(['permission_request', 'permission', 'tool_result']);
    const asked = r.messages[0] as PermissionRequestedMessage;
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(asked).toEqual({
      type: 'permission_request',
      toolUseId: request.toolUseId,
      tool: request.toolName,
      input: request.input,
      reason: request.reason,
      rule: { text: 'Bash(touch *)', file: expect.stringContaining('settings.json') },
      suggestions: request.suggestions,
      noSuggestions: request.noSuggestions,
    });
    expect(asked).toMatchObject({
      toolUseId: r.result.toolUseId,
      tool: 'Bash',
      input: { command: 'touch made.txt' },
    });
    // The user's own ask rule is not overridden by an allow rule: nothing is offered, and the message says why.
    expect(asked.suggestions).toEqual([]);
    expect(asked.noSuggestions).toBe('with Bash(touch *) added it would still ask: asked by Bash(touch *)');
  });

  it('carries the destructive warning, and is not sent when nobody is asked', async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx } = await setup({ handler, project: { permissions: { allow: ['Bash(echo *)'] } } });
    const destructive = await run(ctx, 'Bash', { command: 'rm -rf build' });
    expect(destructive.messages[0]).toMatchObject({
      type: 'permission_request',
      warning: requests[0]!.warning,
    });
    expect(requests[0]!.warning).toMatch(/deletes files/);
    const allowed = await run(ctx, 'Bash', { command: 'echo hi' });
    expect(allowed.messages.some((m) => m.type === 'permission_request')).toBe(false);
    expect(allowed.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'allow' });
    expect(requests).toHaveLength(1);
  });
});

describe('progress messages', () => {
  it('each have their own id and a timestamp', async () => {
    const ticker = buildTool({
      name: 'Ticker',
      description: 'reports progress',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      checkPermissions: async () => ({ behavior: 'allow' as const }),
      async *call() {
        yield { type: 'progress', data: 'one' };
        await new Promise((r) => setTimeout(r, 20));
        yield { type: 'progress', data: 'two' };
        yield { type: 'result', data: 'done' };
      },
    }) as AnyTool;
    const { ctx } = await setup({ tools: [ticker] });
    const before = Date.now();
    const r = await run(ctx, 'Ticker', {});
    const progress = r.messages.filter((m): m is ProgressMessage => m.type === 'progress');
    expect(progress.map((p) => p.data)).toEqual(['one', 'two']);
    const [a, b] = progress;
    expect(a!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b!.id).not.toBe(a!.id);
    for (const p of progress) expect(new Date(p.timestamp).toISOString()).toBe(p.timestamp);
    expect(Date.parse(a!.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(b!.timestamp) - Date.parse(a!.timestamp)).toBeGreaterThanOrEqual(15);
  });
});
